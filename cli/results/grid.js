// The comparison grid of a result: per suite, rows = benchmarks, columns = runtime x flag set, each
// value a cell's rate with a ratio to its reference column and that ratio's margin, from the
// processes that ran in the same block (stats/compare.js pairedRatio), every ratio judged with the
// others (stats/decision.js). Data about a result, not a drawing: the engine asks it for the
// run's detectable change, and every view (report, the overview, bench/ scripts) draws from it.
import { UserError } from '../errors.js';
import { pairedRatio, pairedPrior } from '../stats/compare.js';
import { fastReferences, shiftBetween } from '../stats/host-speed.js';
import { measureOfResult, measureOfCell } from '../measure.js';
import { judgeAll } from '../stats/decision.js';
import { processValue } from '../stats/summary.js';
import { columnKey, columnsOf, benchmarkInColumn, isUnfinished, unfinishedReason, keptProcesses, perProcessOf, lookupColumn, ambiguousColumn } from '../cell-identity.js';

// Every report reads each cell once through these, so that a report is linear in cells (a result
// of a million cells is a few seconds, not hours of find() in a loop; bench/scale.js).

// Cells by suite, suites in the order they first appear.
export function cellsBySuite(cells) {
  const bySuite = new Map();
  for (const cell of cells) {
    if (!bySuite.has(cell.suite)) bySuite.set(cell.suite, []);
    bySuite.get(cell.suite).push(cell);
  }
  return bySuite;
}

// One suite's cells: its benchmarks in order, and the cell of a benchmark in a column.
export function suiteIndex(cells) {
  const byKey = new Map(cells.map((c) => [benchmarkInColumn(c.benchmark, c), c]));
  return {
    benchmarks: [...new Set(cells.map((c) => c.benchmark))],
    cellAt: (benchmark, col) => byKey.get(benchmarkInColumn(benchmark, col))
  };
}

// The columns that have cells among `cells` (one suite's): a flag set planned for some suites only
// (matrix.yaml flagSets.X.suites) is no column of the others.
export function columnsWithCells(columns, cells) {
  const present = new Set(cells.map(columnKey));
  return columns.filter((col) => present.has(columnKey(col)));
}

// A cell's processes that count (set-aside ones are left out, as in the estimate), each as its own
// rate: the spread the overview shows, the points of the charts, the --distribution glyphs.
export const processRates = (cell) => keptProcesses(cell).map((p) => 1e9 / processValue(p, perProcessOf(cell)));

// Default: the first runtime with the flag set called "baseline" (or the first flag set).
export function baselineColumn(result, requested) {
  const columns = columnsOf(result);
  if (requested) {
    const { column: found, candidates } = lookupColumn(columns, requested);
    if (candidates) throw new UserError(ambiguousColumn(requested, 'this run', candidates));
    if (!found) throw new UserError(`Baseline "${requested}" is not a column; use one of ${columns.map((c) => c.key).join(', ')}.`);
    return found;
  }
  return columns.find((c) => c.flagSet === 'baseline') || columns[0];
}

// What a column's ratio is against: a flag set's column against the same runtime under the
// baseline's flag set (the question a flag set asks is what the flag does on that runtime; against
// another runtime its ratio would mix the upgrade in), every other column against the baseline.
// A runtime without the baseline's flag set in this suite falls back to the baseline.
export function referenceColumn(column, base, columns) {
  if (column.flagSet === base.flagSet || column.runtimeLabel === base.runtimeLabel) return base;
  return columns.find((c) => c.runtimeLabel === column.runtimeLabel && c.flagSet === base.flagSet) || base;
}

export function grid(result, { baseline } = {}) {
  const allColumns = columnsOf(result);
  const base = baselineColumn(result, baseline);
  // The run's host fast modes: a ratio between cells measured in different host modes holds both readings.
  const fasts = fastReferences(result.cells);
  const tables = [...cellsBySuite(result.cells)].map(([suite, cells]) => {
    const columns = columnsWithCells(allColumns, cells);
    const { benchmarks, cellAt } = suiteIndex(cells);
    const okCell = (benchmark, col) => {
      const cell = cellAt(benchmark, col);
      return cell?.status === 'ok' ? cell : null;
    };
    const references = columns.map((col) => referenceColumn(col, base, columns));
    // The ratios of one suite share a variance prior, as its cells do (stats/moderate.js).
    const prior = pairedPrior(benchmarks.flatMap((benchmark) => columns.flatMap((col, i) => {
      const refOk = okCell(benchmark, references[i]);
      const cell = okCell(benchmark, col);
      return refOk && cell && cell !== refOk ? [[refOk, cell]] : [];
    })));
    const rows = benchmarks.map((benchmark) => {
      const find = (col) => cellAt(benchmark, col);
      return {
        benchmark,
        values: columns.map((col, i) => {
          const cell = find(col);
          if (!cell) return { status: 'absent' };
          if (isUnfinished(cell)) return { status: 'unfinished', error: unfinishedReason(result) };
          if (cell.status !== 'ok') return { status: cell.status, error: cell.error };
          const refOk = okCell(benchmark, references[i]);
          const ratio = refOk && refOk !== cell ? pairedRatio(refOk, cell, prior, { hostShift: shiftBetween(refOk, cell, fasts, fasts) }) : null;
          return {
            status: 'ok',
            opsPerSec: cell.summary.opsPerSec,
            // The value as its measure reads (cli/measure.js): ops/s, or instructions per operation.
            valueText: measureOfCell(cell).valueText(cell.summary),
            rme: cell.summary.rme,
            ratio: ratio ? ratio.ratio : null,
            ratioRme: ratio && Number.isFinite(ratio.rme) ? ratio.rme : null,
            ratioPaired: ratio ? ratio.paired : null,
            ratioComparison: ratio,
            against: references[i].key,
            warnings: cell.warnings || []
          };
        })
      };
    });
    // references: per column, the column its ratios are against (referenceColumn).
    return { suite, columns, baseline: base, references, rows };
  });
  // Every ratio the tables show is judged with the others: one false discovery rate over them all
  // (stats/decision.js); each value gets ratioQ and ratioVerdict, each table the summary.
  const withRatio = tables.flatMap((t) => t.rows.flatMap((r) => r.values)).filter((v) => v.ratioComparison);
  const { judged, summary } = judgeAll(withRatio.map((v) => v.ratioComparison), { equivalence: measureOfResult(result).equivalence });
  withRatio.forEach((v, i) => {
    v.ratioQ = judged[i].q;
    v.ratioVerdict = judged[i].verdict;
  });
  for (const table of tables) table.verdicts = summary;
  return tables;
}
