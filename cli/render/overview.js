// The overview every format draws (HTML heat map, PR Markdown, the terminal's "what changed"),
// computed once: per suite, benchmarks in rows and runtime/flag-set columns, each cell the ratio to
// the baseline with its 95% interval, its per-process spread and its verdict mark; a summary of the
// verdicts with the geometric mean per column; and the decided changes, slower before faster, each
// group largest first.
// The statistics are the tables' own (results/grid.js grid: stats/compare.js pairedRatio judged together
// by stats/decision.js judgeAll) and, for diff, diff's comparisons (diff/compare.js diffResults):
// this file only arranges them.
import { grid, cellsBySuite, suiteIndex, processRates } from '../results/grid.js';
import { formatRatio, formatChange, formatBand, displayName } from '../text/format.js';
import { isOptimizedAway, ratioMark } from './marks.js';
import { geomeanRatio, pairedLogs } from '../stats/compare.js';
import { DECISIONS } from '../stats/decision.js';
import { measureOfCell } from '../measure.js';

const foldedCell = (cell) => Boolean(cell) && cell.status === 'ok' && isOptimizedAway(cell.warnings);

// How far the processes behind a value scatter: [{ label, low, high, n }] as ratios (per-block
// ratios of a paired comparison; otherwise each process's rate over the cell's estimate).
function pairSpread(base, cell) {
  const ratios = pairedLogs(base, cell).map(Math.exp);
  return ratios.length ? { label: 'per-block ratios', low: Math.min(...ratios), high: Math.max(...ratios), n: ratios.length, values: ratios } : null;
}

function processSpread(cell, label = 'processes') {
  const rates = processRates(cell);
  if (!rates.length || !(cell.summary?.opsPerSec > 0)) return null;
  return { label, low: Math.min(...rates) / cell.summary.opsPerSec, high: Math.max(...rates) / cell.summary.opsPerSec, n: rates.length };
}

export function spreadText(spread) {
  if (!spread?.length) return '';
  return spread.map((s) => {
    if (s.label === 'per-block ratios') return `${s.label} ${formatRatio(s.low)}..${formatRatio(s.high)} (${s.n} block${s.n === 1 ? '' : 's'})`;
    return s.n === 1 ? `${s.label}: one, no spread` : `${s.label} ${formatChange(s.low)}..${formatChange(s.high)} of the estimate (${s.n})`;
  }).join('; ');
}


// Per column of a suite, the geometric mean of its ratios (folded ones left out), or null.
function suiteGeomeans(suite) {
  return suite.columns.map((_, i) => {
    const cells = suite.rows.map((r) => r.cells[i]).filter((c) => Number.isFinite(c.ratio) && !c.folded);
    return cells.length ? geomeanRatio(cells) : null;
  });
}

// The decided changes in their groups, slowdowns first: sorted by size alone, a run where many
// benchmarks got much faster showed only speed-ups in what every format shows first, and a reader
// looking for regressions found none (issue 39, item 1).
export const CHANGE_GROUPS = ['slower', 'faster'];

// [{ verdict, changes }] for the groups that have changes, in CHANGE_GROUPS' order.
export const changeGroups = (overview) => CHANGE_GROUPS.map((verdict) => ({ verdict, changes: overview.changes.filter((c) => c.verdict === verdict) })).filter((g) => g.changes.length);

// The summary and the changes of a set of suites whose cells have { ratio, verdict, folded }.
function summarise(suites) {
  for (const suite of suites) suite.geomeans = suiteGeomeans(suite);
  const counts = Object.fromEntries(DECISIONS.map((v) => [v, 0]));
  const byColumn = new Map();
  const changes = [];
  let foldedRatios = 0;
  for (const suite of suites) {
    for (const row of suite.rows) {
      row.cells.forEach((cell, i) => {
        if (!Number.isFinite(cell.ratio)) return;
        counts[cell.verdict] = (counts[cell.verdict] || 0) + 1;
        // A folded ratio measures the loop, not the operation: left out of the column's mean.
        if (cell.folded) foldedRatios++;
        else {
          const key = suite.columns[i].key;
          if (!byColumn.has(key)) byColumn.set(key, []);
          byColumn.get(key).push(cell);
        }
        if (cell.verdict === 'faster' || cell.verdict === 'slower') {
          changes.push({ suite: suite.suite, benchmark: row.benchmark, rowId: row.id, column: suite.columns[i].key, ...cell });
        }
      });
    }
  }
  changes.sort((a, b) => CHANGE_GROUPS.indexOf(a.verdict) - CHANGE_GROUPS.indexOf(b.verdict) || Math.abs(Math.log(b.ratio)) - Math.abs(Math.log(a.ratio)));
  const columns = [...byColumn].map(([key, cells]) => ({ key, geomean: geomeanRatio(cells), n: cells.length }));
  return { summary: { counts, compared: DECISIONS.reduce((n, v) => n + counts[v], 0), columns, foldedRatios }, changes };
}

// The words every legend adds when some column's ratios are not against the baseline ('' if none).
export function referenceNote(tables) {
  const table = tables.find((t) => t.references.some((ref) => ref.key !== t.baseline.key));
  return table ? `; a flag set's column against the same runtime's ${table.baseline.flagSet} column` : '';
}

// A change's column as a reader needs it: with the column it is against when that is not the
// baseline (a flag set's column, results/grid.js referenceColumn).
export const columnText = (change) => (change.against ? `${displayName(change.column)} vs ${displayName(change.against)}` : displayName(change.column));

// What the ratios are against, in words: the baseline, and the rule for flag sets' columns.
export const againstText = (overview) => `${displayName(overview.baseline ?? 'the baseline')}${overview.referenceNote ?? ''}`;

// A result file against its baseline column. tables: results/grid.js grid's, when the caller has them
// (a report draws both, and the grid is most of its time).
export function reportOverview(result, { baseline, tables = grid(result, { baseline }) } = {}) {
  const cellsOf = new Map([...cellsBySuite(result.cells)].map(([suite, cells]) => [suite, suiteIndex(cells)]));
  const suites = tables.map((table, s) => {
    const { cellAt } = cellsOf.get(table.suite);
    const baseIndex = table.columns.findIndex((c) => c.key === table.baseline.key);
    const perRun = result.suites?.find((x) => x.name === table.suite)?.kind === 'command';
    return {
      suite: table.suite,
      id: `s${s}`,
      perRun,
      columns: table.columns.map((c, i) => ({ key: c.key, isBaseline: i === baseIndex })),
      rows: table.rows.map((row, r) => {
        return {
          benchmark: row.benchmark,
          id: `b${s}-${r}`,
          cells: row.values.map((value, i) => {
            const isBaseline = i === baseIndex;
            if (value.status !== 'ok') return { status: value.status, note: value.error || '', isBaseline };
            const cell = cellAt(row.benchmark, table.columns[i]);
            // A flag set's column is against its own runtime's column (results/grid.js referenceColumn).
            const reference = table.references[i];
            const refCell = cellAt(row.benchmark, reference);
            const folded = foldedCell(cell) || (!isBaseline && foldedCell(refCell));
            const counted = measureOfCell(cell).id === 'instructions';
            // sortValue: what a table sorts the value by (a count has no rate).
            const out = { status: 'ok', isBaseline, opsPerSec: value.opsPerSec, valueText: value.valueText, counted, sortValue: counted ? cell.summary.estimate : value.opsPerSec, rme: value.rme, folded, spread: [processSpread(cell)].filter(Boolean) };
            if (isBaseline || !Number.isFinite(value.ratio)) return out;
            const c = value.ratioComparison;
            const spread = [c.paired ? pairSpread(refCell, cell) : null, ...out.spread].filter(Boolean);
            const against = reference.key === table.baseline.key ? {} : { against: reference.key };
            return { ...out, ratio: c.ratio, low: c.low, high: c.high, q: value.ratioQ, verdict: value.ratioVerdict, mark: ratioMark(value.ratioVerdict, folded), spread, ...against };
          })
        };
      })
    };
  });
  const baseKey = tables[0]?.baseline.key ?? null;
  return { kind: 'report', baseline: baseKey, referenceNote: referenceNote(tables), verdicts: tables[0]?.verdicts ?? null, suites, ...summarise(suites) };
}

// diff's rows (diff/compare.js diffResults): per suite of A, benchmarks in rows and the compared
// column pairs ("16.20.2/baseline" or "A -> B") in columns; B over A.
export function diffOverview(rows) {
  const suites = new Map();
  for (const row of rows) {
    const suiteName = row.a.suite;
    if (!suites.has(suiteName)) suites.set(suiteName, { columns: new Map(), rows: new Map() });
    const suite = suites.get(suiteName);
    if (!suite.columns.has(row.column)) suite.columns.set(row.column, suite.columns.size);
    const benchmark = row.a.benchmark;
    if (!suite.rows.has(benchmark)) suite.rows.set(benchmark, new Map());
    suite.rows.get(benchmark).set(row.column, row);
  }
  const shaped = [...suites].map(([suiteName, suite], s) => {
    const columns = [...suite.columns.keys()];
    return {
      suite: suiteName,
      id: `s${s}`,
      perRun: false,
      columns: columns.map((key) => ({ key, isBaseline: false })),
      rows: [...suite.rows].map(([benchmark, byColumn], r) => ({
        benchmark,
        id: `b${s}-${r}`,
        cells: columns.map((column) => {
          const row = byColumn.get(column);
          if (!row) return { status: 'absent', note: '', isBaseline: false };
          // The same status on both sides is that status ("unsupported -> unsupported" set the width of a
          // whole heat-map column, pushing the gc map of a default matrix past a 1280 px window).
          if (!row.comparison) return { status: row.before === row.after ? row.before : `${row.before} -> ${row.after}`, note: row.note || '', isBaseline: false };
          const c = row.comparison;
          const folded = foldedCell(row.a) || foldedCell(row.b);
          return {
            status: 'ok',
            isBaseline: false,
            opsPerSec: row.b.summary.opsPerSec,
            rme: row.b.summary.rme,
            ratio: c.ratio,
            low: c.ci.low,
            high: c.ci.high,
            q: c.q,
            verdict: c.verdict,
            folded,
            mark: ratioMark(c.verdict, folded),
            spread: [processSpread(row.a, 'A processes'), processSpread(row.b, 'B processes')].filter(Boolean)
          };
        })
      }))
    };
  });
  return { kind: 'diff', baseline: null, verdicts: rows.verdicts ?? null, suites: shaped, ...summarise(shaped) };
}

// "3 faster, 2 slower, 10 same within ±2%, 5 undecided" (every format's summary line).
export function countsText({ summary, verdicts }) {
  const c = summary.counts;
  const band = verdicts ? ` within ${formatBand(verdicts.equivalence)}` : '';
  return `${c.faster} faster, ${c.slower} slower, ${c.same} same${band}, ${c.undecided} undecided of ${summary.compared} ratio${summary.compared === 1 ? '' : 's'}`;
}

export const geomeanText = (summary) => summary.columns.map((c) => `${displayName(c.key)} ${formatRatio(c.geomean)}`).join(', ');

// "[1.10x, 1.31x]" for a ratio's 95% interval.
export const intervalText = (cell) => `[${formatRatio(cell.low)}, ${formatRatio(cell.high)}]`;
