// The comparison grid every report format shares: per suite, rows = benchmarks, columns =
// runtime x flag set, with a ratio to a baseline column and that ratio's margin, from the processes
// that ran in the same block (stats/compare.js pairedRatio).
import { UserError } from '../errors.js';
import { pairedRatio, pairedPrior } from '../stats/compare.js';
import { judgeAll } from '../stats/decision.js';

// A cell still pending (or running) when the file was last written: the run was killed or
// interrupted before it, or is still going. Said in words, never as a status with no reason.
export const isUnfinished = (cell) => cell.status === 'pending' || cell.status === 'running';

export function unfinishedReason(result) {
  return result.status === 'running'
    ? 'the run was still going (or was killed) when this file was last written; continue it with its matrix command plus --resume <file>'
    : 'the run was interrupted before this cell was measured; continue it with its matrix command plus --resume <file>';
}

export function columnsOf(result) {
  const columns = [];
  for (const runtime of result.runtimes) {
    for (const flagSet of result.flagSets) {
      columns.push({ key: `${runtime.label}/${flagSet.name}`, runtimeLabel: runtime.label, runtime: runtime.version, flagSet: flagSet.name });
    }
  }
  return columns;
}

export const inColumn = (cell, col) => cell.runtimeLabel === col.runtimeLabel && cell.flagSet === col.flagSet;

// The columns that have cells among `cells` (one suite's): a flag set planned for some suites only
// (matrix.yaml flagSets.X.suites) is no column of the others.
export const columnsWithCells = (columns, cells) => columns.filter((col) => cells.some((c) => inColumn(c, col)));

// Default: the first runtime with the flag set called "baseline" (or the first flag set).
export function baselineColumn(result, requested) {
  const columns = columnsOf(result);
  if (requested) {
    const found = columns.find((c) => c.key === requested || c.runtimeLabel === requested || c.runtime === requested);
    if (!found) throw new UserError(`Baseline "${requested}" is not a column; use one of ${columns.map((c) => c.key).join(', ')}.`);
    return found;
  }
  return columns.find((c) => c.flagSet === 'baseline') || columns[0];
}

export function grid(result, { baseline } = {}) {
  const allColumns = columnsOf(result);
  const base = baselineColumn(result, baseline);
  const suites = [...new Set(result.cells.map((c) => c.suite))];
  const tables = suites.map((suite) => {
    const cells = result.cells.filter((c) => c.suite === suite);
    const columns = columnsWithCells(allColumns, cells);
    const benchmarks = [...new Set(cells.map((c) => c.benchmark))];
    const okCell = (benchmark, col) => {
      const cell = cells.find((c) => c.benchmark === benchmark && inColumn(c, col));
      return cell?.status === 'ok' ? cell : null;
    };
    // The ratios of one suite share a variance prior, as its cells do (stats/moderate.js).
    const prior = pairedPrior(benchmarks.flatMap((benchmark) => {
      const baseOk = okCell(benchmark, base);
      return baseOk ? columns.map((col) => okCell(benchmark, col)).filter((c) => c && c !== baseOk).map((c) => [baseOk, c]) : [];
    }));
    const rows = benchmarks.map((benchmark) => {
      const find = (col) => cells.find((c) => c.benchmark === benchmark && inColumn(c, col));
      const baseOk = okCell(benchmark, base);
      return {
        benchmark,
        values: columns.map((col) => {
          const cell = find(col);
          if (!cell) return { status: 'absent' };
          if (isUnfinished(cell)) return { status: 'unfinished', error: unfinishedReason(result) };
          if (cell.status !== 'ok') return { status: cell.status, error: cell.error };
          const ratio = baseOk && baseOk !== cell ? pairedRatio(baseOk, cell, prior) : null;
          return {
            status: 'ok',
            opsPerSec: cell.summary.opsPerSec,
            rme: cell.summary.rme,
            ratio: ratio ? ratio.ratio : null,
            ratioRme: ratio && Number.isFinite(ratio.rme) ? ratio.rme : null,
            ratioPaired: ratio ? ratio.paired : null,
            ratioComparison: ratio,
            warnings: cell.warnings || []
          };
        })
      };
    });
    return { suite, columns, baseline: base, rows };
  });
  // Every ratio the tables show is judged with the others: one false discovery rate over them all
  // (stats/decision.js); each value gets ratioQ and ratioVerdict, each table the summary.
  const withRatio = tables.flatMap((t) => t.rows.flatMap((r) => r.values)).filter((v) => v.ratioComparison);
  const { judged, summary } = judgeAll(withRatio.map((v) => v.ratioComparison));
  withRatio.forEach((v, i) => {
    v.ratioQ = judged[i].q;
    v.ratioVerdict = judged[i].verdict;
  });
  for (const table of tables) table.verdicts = summary;
  return tables;
}
