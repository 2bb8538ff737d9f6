// The comparison behind nodebench diff (as pyperf keeps its in one _compare.py): which cells of A
// and B are the same benchmark, what changed between each pair with its interval and verdict, and
// the document other tools read (--format json). The command parses options and prints; bench/
// scripts call the same functions.
import { compareCells, ALPHA } from '../stats/compare.js';
import { judgeAll, EQUIVALENCE } from '../stats/decision.js';
import { estimateDrift, describeDrift } from '../stats/drift-estimate.js';
import { detectableInComparisons } from '../stats/detectable.js';
import { variancePriors } from '../results/cell.js';
import { columnsOf, cellKey, rowKey, columnKey, benchmarkName, inColumn, isUnfinished, unfinishedReason, lookupColumn, ambiguousColumn } from '../cell-identity.js';
import { metricComparisons } from './metrics.js';
import { fastReferences, shiftBetween, hostFingerprint, compareHosts, sameBinary } from '../stats/host-speed.js';
import { UserError } from '../errors.js';
import { measureOfResult } from '../measure.js';
import { diffRunWarningLines, sideCellWarningLines } from '../render/run-warnings.js';

function findColumn(result, name, file) {
  const { column, candidates } = lookupColumn(columnsOf(result), name);
  if (candidates) throw new UserError(ambiguousColumn(name, file, candidates));
  if (!column) throw new UserError(`Column "${name}" is not in ${file}; it has ${columnsOf(result).map((c) => c.key).join(', ')}.`);
  return column;
}

// Returns [{ label, a, b }] of cells to compare.
export function pairCells(resultA, resultB, { from, to, fileA = 'A', fileB = 'B' } = {}) {
  if (from || to) {
    if (!from || !to) throw new UserError('Give both --from and --to (columns like 16.20.2/baseline), or neither.');
    const colA = findColumn(resultA, from, fileA);
    const colB = findColumn(resultB, to, fileB);
    const inCol = (r, col) => r.cells.filter((c) => inColumn(c, col));
    const bByBench = new Map(inCol(resultB, colB).map((c) => [rowKey(c), c]));
    const pairs = inCol(resultA, colA)
      .map((a) => ({ label: benchmarkName(a), column: `${colA.key} -> ${colB.key}`, a, b: bByBench.get(rowKey(a)) || null }));
    return annotate(pairs, resultB);
  }
  let withColumn = true;
  let bIndex = new Map(resultB.cells.map((c) => [cellKey(c), c]));
  let pairs = resultA.cells.filter((a) => bIndex.has(cellKey(a)));
  // Two runs of different runtimes (Node 14 today, Node 16 tomorrow): pair by benchmark and flag set.
  if (!pairs.length && resultA.runtimes.length === 1 && resultB.runtimes.length === 1) {
    withColumn = false;
    bIndex = new Map(resultB.cells.map((c) => [cellKey(c, { withColumn: false }), c]));
    pairs = resultA.cells.filter((a) => bIndex.has(cellKey(a, { withColumn: false })));
  }
  if (!pairs.length) throw new UserError(`${fileA} and ${fileB} have no benchmark in common (same suite, benchmark, runtime and flag set); compare columns with --from and --to instead.`);
  // Every cell of A is a row, also those B lacks: a benchmark that disappeared must fail the gate.
  const onlyRuntimeB = resultB.runtimes.length === 1 ? resultB.runtimes[0].label : null;
  return annotate(resultA.cells.map((a) => {
    const b = bIndex.get(cellKey(a, { withColumn })) || null;
    const column = withColumn ? columnKey(a)
      : `${columnKey(a)} -> ${columnKey({ runtimeLabel: b ? b.runtimeLabel : onlyRuntimeB, flagSet: a.flagSet })}`;
    return { label: benchmarkName(a), column, a, b };
  }), resultB);
}

// The file status says why a B cell is unfinished; the pair carries it so renderers need no file.
function annotate(pairs, resultB) {
  return pairs.map((pair) => ({ ...pair, unfinishedReason: unfinishedReason(resultB) }));
}

const statusOf = (cell) => (!cell ? 'missing' : isUnfinished(cell) ? 'unfinished' : cell.status);

// driftCv: a number, or 'auto' to estimate it per suite from the pairs (stats/drift-estimate.js);
// the estimate, when made, is in rows.drift. The comparisons are judged together (one false
// discovery rate over all of them, stats/decision.js): each gets its q-value and verdict, and
// rows.verdicts says how.
export function diffResults(pairs, { alpha = ALPHA, driftCv = 0, equivalence = EQUIVALENCE } = {}) {
  // Each side's suite priors come from the cells being compared, as the tables' come from the run's.
  const okSide = (side) => [...new Set(pairs.map((p) => p[side]).filter((c) => c?.status === 'ok'))];
  const priorsA = variancePriors(okSide('a'));
  const priorsB = variancePriors(okSide('b'));
  // Each side's host fast modes (stats/host-speed.js), so that a pair measured in different host
  // modes gets an interval that holds both readings.
  const fastsA = fastReferences(okSide('a'));
  const fastsB = fastReferences(okSide('b'));
  // Drift is estimated from cells that ran the same runtime and flags on both sides: between two
  // runtimes most cells really change, by different amounts, and that scatter is not drift (a 16 ->
  // 6 diff of real files estimated 50% and decided none of its 5-10x slowdowns).
  const drift = driftCv === 'auto'
    ? estimateDrift(pairs.filter((p) => statusOf(p.a) === 'ok' && statusOf(p.b) === 'ok' && sameBinary(p.a, p.b)), { priorsA, priorsB })
    : null;
  const rows = pairs.map(({ unfinishedReason: reason, ...pair }) => {
    const before = statusOf(pair.a);
    const after = statusOf(pair.b);
    if (before !== 'ok' || after !== 'ok') {
      const why = after === 'unfinished' ? reason : after === 'missing' ? 'not in B' : pair.b && after !== 'ok' ? pair.b.error : before === 'unfinished' ? 'unfinished in A' : null;
      return { ...pair, before, after, comparison: null, note: `${before} -> ${after}${why ? ` (${why})` : ''}` };
    }
    const cv = drift ? drift.driftFor(pair.a.suite) : driftCv;
    return { ...pair, before, after, comparison: compareCells(pair.a, pair.b, { alpha, equivalence, driftCv: cv, priorA: priorsA.get(pair.a.suite), priorB: priorsB.get(pair.b.suite), hostShift: shiftBetween(pair.a, pair.b, fastsA, fastsB) }) };
  });
  const { judged, summary } = judgeAll(rows.map((r) => r.comparison && { ratio: r.comparison.ratio, low: r.comparison.ci.low, high: r.comparison.ci.high, p: r.comparison.p }), { alpha, equivalence });
  rows.forEach((row, i) => {
    if (!judged[i]) return;
    row.comparison.q = judged[i].q;
    row.comparison.verdict = judged[i].verdict;
    row.comparison.significant = judged[i].q < alpha;
  });
  rows.verdicts = summary;
  rows.detectable = detectableInComparisons(rows.map((r) => r.comparison), { equivalence });
  if (drift) rows.drift = drift;
  return rows;
}

// A against B (or two columns of one file) as diff shows it: the rows with their comparisons and,
// where both sides ran two or more metrics processes per cell, the runtime metrics compared.
// A file's measure (cli/measure.js) decides the defaults: instruction counts do not drift between
// runs (their repeatability stays in every interval) and "same" is ±1%; time and counts never compare.
const article = (word) => (/^[aeiou]/i.test(word) ? 'an' : 'a');

export function compareResults(resultA, resultB, { from, to, fileA, fileB, driftCv, equivalence }) {
  const [measureA, measureB] = [measureOfResult(resultA), measureOfResult(resultB)];
  if (measureA !== measureB) {
    throw new UserError(`${fileA} measured ${measureA.id} and ${fileB} measured ${measureB.id}; ${article(measureA.unit)} ${measureA.unit} value cannot be compared with ${article(measureB.unit)} ${measureB.unit} one: diff two files of the same measure (run both with --measure ${measureA.id}).`);
  }
  const counted = measureA.id === 'instructions';
  // Instructions of one architecture are not those of another: two files counted on different ones
  // compare nothing (time does, and says which host ran what).
  const arches = (r) => [...new Set(r.runtimes.map((x) => x.arch).filter(Boolean))].sort().join(', ');
  if (counted && arches(resultA) !== arches(resultB)) {
    throw new UserError(`${fileA} counted instructions of ${arches(resultA) || 'no recorded'} binaries and ${fileB} of ${arches(resultB) || 'no recorded'} ones; counts of different architectures do not compare: diff files counted on one architecture, or compare them in time.`);
  }
  const rows = diffResults(pairCells(resultA, resultB, { from, to, fileA, fileB }), {
    driftCv: counted && driftCv === 'auto' ? 0 : driftCv,
    equivalence: equivalence ?? measureA.equivalence
  });
  rows.metrics = metricComparisons(rows, { equivalence });
  if (resultA !== resultB) {
    const a = hostFingerprint(resultA.cells);
    const b = hostFingerprint(resultB.cells);
    rows.host = { a, b, comparison: compareHosts(a, b) };
  }
  rows.runWarnings = diffRunWarningLines({ resultA, resultB, fileA, fileB });
  return rows;
}

const warningCodes = (cell) => (cell?.warnings || []).map((w) => (typeof w === 'string' ? w : w.code));

// For other tools: every pair with both summaries, its comparison, and the gate's verdict.
export function diffJson(rows, { fileA, fileB, failures, limit, gate }) {
  const confirmation = gate?.confirm;
  return {
    a: fileA,
    b: fileB,
    // The gate's decision with its reasons: with --confirm, every candidate's first comparison and
    // its re-measurement (from the confirmation result file named in `files`).
    gate: failures ? {
      threshold: limit,
      // time (rates of operations) or instructions (counts per operation): what the threshold is of.
      measure: gate?.measure || 'time',
      passed: failures.length === 0,
      failures,
      confirm: confirmation ? {
        rule: confirmation.rule,
        evidence: confirmation.evidence,
        processes: confirmation.processes,
        // The bound, what was planned within it, and for each file whether this diff measured it
        // anew, resumed it or judged an earlier complete one.
        minutes: confirmation.minutes,
        estimate: confirmation.estimate,
        runs: confirmation.runs,
        files: confirmation.files,
        verdicts: confirmation.verdicts,
        candidates: confirmation.candidates
      } : null
    } : null,
    // How the verdicts were reached: the false discovery rate method over how many comparisons, the
    // equivalence band of "same" (each row's comparison has p, q and verdict).
    verdicts: rows.verdicts,
    // The smallest change these intervals decide 80% of the time, and how many could be "same"
    // (stats/detectable.js): what "undecided" means for this pair of files.
    detectable: rows.detectable,
    // Runtime metrics of cells with two or more metrics processes on each side (diff/metrics.js):
    // [{ suite, benchmark, column, metric, ratio (B/A), ci, p, q, verdict: higher|lower|same|undecided }].
    metrics: (rows.metrics || []).map(({ label, n, df, ...c }) => c),
    // What each run warned about its machine (load, CPU governor), as "warning (A, file): ..." lines.
    runWarnings: rows.runWarnings || [],
    // Each side's cells' warnings counted, as every other format says them ("warning (A): 16 cells had
    // processes disagreeing by more than 5% …"; render/run-warnings.js).
    cellWarnings: sideCellWarningLines(rows),
    // How each file's host ran (stats/host-speed.js hostFingerprint) and B's against A's (ratio of
    // reference loops, median over the runtime and suite groups both have); null within one file.
    host: rows.host ? { a: rows.host.a, b: rows.host.b, comparison: rows.host.comparison } : null,
    // --drift auto's estimate: estimate is a suite's own (null when it has too few cells and uses the
    // pooled one), used what its comparisons got (never below floor), shift its median rate ratio.
    drift: rows.drift ? {
      estimatedFrom: rows.drift.cells,
      tooFew: rows.drift.tooFew,
      floor: rows.drift.floor,
      pooled: rows.drift.pooled,
      bySuite: Object.fromEntries(rows.drift.bySuite),
      summary: describeDrift(rows.drift)
    } : null,
    // warnings: each side's warning codes (optimized-away: its rate is that of an empty benchmark).
    rows: rows.map(({ a, b, ...rest }) => ({ ...rest, a: a?.summary || null, b: b?.summary || null, warnings: { a: warningCodes(a), b: warningCodes(b) } }))
  };
}
