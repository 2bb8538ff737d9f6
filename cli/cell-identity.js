// The cell's identity, shared by every layer that handles cells (results, stats, report, diff,
// merge) and so below all of them: what names a cell, its column and its row, what its status says,
// and which of its processes count.
//
// A column is a runtime (its label) with a flag set; its key `runtimeLabel/flagSet` is also what a
// user types for --baseline, --from and --to and what the tables show. Keys that join several names
// join them with NUL, which no name on the command line or in a matrix file can hold (matrix/load.js
// and matrix/commands.js refuse it).
const JOIN = '\u0000';

// Works on a cell or a column (both carry runtimeLabel and flagSet).
export const columnKey = (cellOrColumn) => `${cellOrColumn.runtimeLabel}/${cellOrColumn.flagSet}`;

// A benchmark across columns: one row of a report.
export const rowKey = (cell) => `${cell.suite}${JOIN}${cell.benchmark}`;

// The benchmark as shown: suite/benchmark.
export const benchmarkName = (cell) => `${cell.suite}/${cell.benchmark}`;

// One cell of a run; withColumn false: the same benchmark and flag set on whichever runtime.
export const cellKey = (cell, { withColumn = true } = {}) => [cell.suite, cell.benchmark, withColumn ? columnKey(cell) : cell.flagSet].join(JOIN);

// The cells of benchmark `benchmark` in `column`: one per benchmark and column of a suite.
export const benchmarkInColumn = (benchmark, column) => `${benchmark}${JOIN}${columnKey(column)}`;

// Every column of a result: its runtimes x its flag sets, in that order; key is the column key.
export function columnsOf(result) {
  const columns = [];
  for (const runtime of result.runtimes) {
    for (const flagSet of result.flagSets) {
      const column = { runtimeLabel: runtime.label, runtime: runtime.version, flagSet: flagSet.name };
      columns.push({ key: columnKey(column), ...column });
    }
  }
  return columns;
}

// The column `name` names among `columns`: its key (16.20.2/baseline), its runtime's label or version
// (16.20.2: its first flag set), or, where the run has one runtime of that major, the major with or
// without the flag set (16/baseline, 16), which is what a CI snippet can name before it knows the
// patch release the registry will give. Returns { column }, { candidates } when the major names
// several runtimes, or {} when nothing matches.
export function lookupColumn(columns, name) {
  const exact = columns.find((c) => c.key === name || c.runtimeLabel === name || c.runtime === name);
  if (exact) return { column: exact };
  const major = /^(\d+)(?:\/(.+))?$/.exec(name);
  if (!major) return {};
  const matching = columns.filter((c) => String(c.runtime).split('.')[0] === major[1] && (major[2] === undefined || c.flagSet === major[2]));
  const runtimes = new Set(matching.map((c) => c.runtimeLabel));
  if (runtimes.size === 1) return { column: matching[0] };
  return runtimes.size ? { candidates: matching } : {};
}

// The sentence for a major that names several runtimes (lookupColumn's candidates) in `where`.
export function ambiguousColumn(name, where, candidates) {
  const keys = candidates.map((c) => c.key);
  return `Column "${name}" in ${where} could be ${keys.slice(0, -1).join(', ')} or ${keys.at(-1)}; give the version.`;
}

export const inColumn = (cell, column) => cell.runtimeLabel === column.runtimeLabel && cell.flagSet === column.flagSet;

// A cell still pending (or running) when the file was last written: the run was killed or
// interrupted before it, or is still going. Said in words, never as a status with no reason.
export const isUnfinished = (cell) => cell.status === 'pending' || cell.status === 'running';

// matrix, run and exec all continue a file with --resume.
export function unfinishedReason(result) {
  const how = 'continue it with the command that started it (matrix, run or exec) plus --resume <file>';
  return result.status === 'running'
    ? `the run was still going (or was killed) when this file was last written; ${how}`
    : `the run was interrupted before this cell was measured; ${how}`;
}

// How one process's samples become its value (stats/summary.js processValue).
export const perProcessOf = (cell) => cell.perProcess || 'median';

// The processes that count: those not set aside. When a cell meant to have two or more processes is
// left with fewer than two quiet ones (a machine busy all along), all of them count, with a warning:
// one process says nothing about a rerun. A one-process cell (--quick) keeps its quiet replacement.
export function keptProcesses(cell) {
  const kept = cell.processes.filter((p) => !p.setAside);
  const planned = cell.processes.filter((p) => !p.rerun).length;
  return kept.length >= Math.min(2, planned) || kept.length === cell.processes.length ? kept : cell.processes;
}

// Whether a cell's figure rests on processes set aside as disturbed (keptProcesses fell back to all
// of them): its time then says how busy the host was more than what the code did.
export function restsOnDisturbed(cell) {
  return keptProcesses(cell).some((p) => p.setAside);
}
