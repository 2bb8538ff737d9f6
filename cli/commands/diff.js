// nodebench diff A.json B.json: what got faster or slower from A to B, by how much, how sure we are.
// Also one file, two of its columns: nodebench diff R.json --from 4.9.1/baseline --to 6.17.1/baseline.
import chalk from 'chalk';
import fs from 'node:fs/promises';
import path from 'node:path';
import { terminalText } from '../text/escape.js';
import { readResult, checkOutput } from '../results/file.js';
import { compareCells, ALPHA, INVOCATION_DRIFT } from '../stats/compare.js';
import { judgeAll, EQUIVALENCE } from '../stats/decision.js';
import { estimateDrift, describeDrift, AUTO_MIN_CELLS } from '../stats/drift-estimate.js';
import { variancePriors } from '../results/cell.js';
import { columnsOf } from '../report/columns.js';
import { cellKey, rowKey, columnKey, benchmarkName, inColumn, isUnfinished, unfinishedReason } from '../cell-identity.js';
import { DIFF_HEADER, diffRowCells, diffSummaryLines, renderDiffMarkdown, renderDiffHtml } from '../diff/render.js';
import { htmlPage, escapeHtml } from '../report/html.js';
import { textTable } from '../text/text-table.js';
import { gateFailures, gateMessage, parseThreshold, suspicious } from '../diff/gate.js';
import { planConfirmation, runConfirmation, judgeConfirmation, confirmationLines, defaultConfirmProcesses, defaultConfirmFile, CONFIRM_RULE, CONFIRM_EVIDENCE } from '../diff/confirm.js';
import { UserError } from '../errors.js';
import { metricComparisons, metricGateFailures, metricRows, metricSummary, METRIC_HEADER } from '../diff/metrics.js';
import { METRIC_IDS } from '../stats/metrics.js';


function findColumn(result, name, file) {
  const column = columnsOf(result).find((c) => c.key === name || c.runtimeLabel === name);
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
  const drift = driftCv === 'auto'
    ? estimateDrift(pairs.filter((p) => statusOf(p.a) === 'ok' && statusOf(p.b) === 'ok'), { priorsA, priorsB })
    : null;
  const rows = pairs.map(({ unfinishedReason: reason, ...pair }) => {
    const before = statusOf(pair.a);
    const after = statusOf(pair.b);
    if (before !== 'ok' || after !== 'ok') {
      const why = after === 'unfinished' ? reason : after === 'missing' ? 'not in B' : pair.b && after !== 'ok' ? pair.b.error : before === 'unfinished' ? 'unfinished in A' : null;
      return { ...pair, before, after, comparison: null, note: `${before} -> ${after}${why ? ` (${why})` : ''}` };
    }
    const cv = drift ? drift.driftFor(pair.a.suite) : driftCv;
    return { ...pair, before, after, comparison: compareCells(pair.a, pair.b, { alpha, equivalence, driftCv: cv, priorA: priorsA.get(pair.a.suite), priorB: priorsB.get(pair.b.suite) }) };
  });
  const { judged, summary } = judgeAll(rows.map((r) => r.comparison && { ratio: r.comparison.ratio, low: r.comparison.ci.low, high: r.comparison.ci.high, p: r.comparison.p }), { alpha, equivalence });
  rows.forEach((row, i) => {
    if (!judged[i]) return;
    row.comparison.q = judged[i].q;
    row.comparison.verdict = judged[i].verdict;
    row.comparison.significant = judged[i].q < alpha;
  });
  rows.verdicts = summary;
  if (drift) rows.drift = drift;
  return rows;
}

// extra: lines printed after the summary (the gate's confirmation).
export function renderDiff(rows, { color = false, extra = [] } = {}) {
  // A change decided faster or slower is coloured across its whole row, faster green and slower
  // red; an undecided one is dim.
  const paint = (row) => {
    const c = row.comparison;
    if (!color || !c) return (text) => text;
    const how = c.verdict === 'faster' ? chalk.green : c.verdict === 'slower' ? chalk.red : c.verdict === 'undecided' ? chalk.dim : null;
    return how ? (text) => ({ text, shown: how(text) }) : (text) => text;
  };
  const body = rows.map((row) => diffRowCells(row, { equivalence: rows.verdicts?.equivalence }).map(paint(row)));
  const lines = textTable([DIFF_HEADER, ...body]);
  const summary = [...diffSummaryLines(rows), ...extra];
  if (summary.length) lines.push('', ...summary);
  // Runtime metrics compared where both sides ran two or more metrics processes per cell.
  if (rows.metrics?.length) {
    const decided = metricRows(rows.metrics);
    lines.push('', metricSummary(rows.metrics), ...(decided.length ? textTable([METRIC_HEADER, ...decided]) : []));
  }
  return `${lines.join('\n')}\n`;
}

export function register(program) {
  program.command('diff')
    .description('compare two result files (or two columns of one): ratio, 95% interval, p-value and verdict per benchmark')
    .argument('<a>', 'result file A (before)')
    .argument('[b]', 'result file B (after); default: A itself, with --from/--to')
    .option('--from <column>', 'column of A to compare from, e.g. 14.21.3/baseline')
    .option('--to <column>', 'column of B to compare to, e.g. 16.20.2/baseline')
    .option('--fail-on-regression [percent]', 'exit 1 if a benchmark is decided slower by more than percent (default 0; at a 5% false discovery rate over all the comparisons), or was ok in A and failed, timed out or is missing in B')
    .option('--allow-missing', 'with --fail-on-regression: do not fail for benchmarks missing or unfinished in B')
    .option('--metric <id>', `with --fail-on-regression: also fail when this runtime metric is decided higher by more than the threshold (repeatable; ${METRIC_IDS.join(', ')}); needs two or more metrics processes per cell on each side`, (value, previous = []) => [...previous, value])
    .option('--confirm', 'with --fail-on-regression: re-measure the comparisons the first measurement cannot clear of a slowdown beyond the threshold (both columns, interleaved, on this machine) and fail only on what that run decides slower')
    .option('--confirm-processes <n>', 'with --confirm: processes per cell of the re-measurement (default six times the files\' processes, at least 30)')
    .option('--confirm-out <file>', 'with --confirm: result file of the re-measurement (default B.confirm.json beside B)')
    .option('--equivalence <percent>', `a change whose 95% interval lies within ±percent is "same" (default ${EQUIVALENCE * 100}); one that is neither decided faster or slower nor same is "undecided"`)
    .option('--drift <percent>', `drift between two separate runs to allow for, in percent (default ${INVOCATION_DRIFT * 100} for two files, 0 within one file; measure yours with nodebench doctor --full), or "auto" to estimate it per suite from how the two files' cells scatter (from ${AUTO_MIN_CELLS} cells on; a shift all cells share stays a change)`)
    .option('--format <format>', `one of ${DIFF_FORMATS.join(', ')} (Markdown also goes to $GITHUB_STEP_SUMMARY when that is set)`, 'table')
    .option('--json', 'same as --format json')
    .option('--no-color', 'plain output')
    .action(async (fileA, fileB, opts) => {
      // Every option is checked before any file is read, so a typo fails fast with exit 2.
      const limit = parseThreshold(opts.failOnRegression);
      if (limit === null) throw new UserError(`--fail-on-regression takes a percentage like 5, not "${opts.failOnRegression}".`);
      const format = opts.json ? 'json' : opts.format;
      if (!DIFF_FORMATS.includes(format)) throw new UserError(`--format "${opts.format}" is not known; use ${DIFF_FORMATS.join(', ')}.`);
      if (!fileB && !(opts.from && opts.to)) throw new UserError('Give a second result file, or --from and --to columns to compare within one file.');
      if ((opts.confirm || opts.confirmProcesses !== undefined || opts.confirmOut !== undefined) && limit === undefined) throw new UserError('--confirm re-measures what would fail the gate; give --fail-on-regression too (e.g. --fail-on-regression 5 --confirm).');
      if ((opts.confirmProcesses !== undefined || opts.confirmOut !== undefined) && !opts.confirm) throw new UserError('--confirm-processes and --confirm-out go with --confirm; add it, or leave them out.');
      const unknownMetric = (opts.metric || []).find((id) => !METRIC_IDS.includes(id));
      if (unknownMetric) throw new UserError(`--metric "${unknownMetric}" is not a runtime metric; use one of ${METRIC_IDS.join(', ')}.`);
      if (opts.metric && limit === undefined) throw new UserError('--metric gates on a runtime metric; give --fail-on-regression too (e.g. --fail-on-regression 10 --metric gc-share).');
      const confirmProcesses = opts.confirmProcesses === undefined ? undefined : Number(opts.confirmProcesses);
      if (confirmProcesses !== undefined && !(Number.isInteger(confirmProcesses) && confirmProcesses >= 3 && confirmProcesses <= 100)) throw new UserError(`--confirm-processes takes a whole number from 3 to 100, not "${opts.confirmProcesses}".`);
      const separateRuns = Boolean(fileB) && path.resolve(fileA) !== path.resolve(fileB);
      let driftCv = separateRuns ? INVOCATION_DRIFT : 0;
      if (String(opts.drift).trim().toLowerCase() === 'auto') {
        if (!separateRuns) throw new UserError('--drift auto estimates the drift between two separate result files; the columns of one file ran interleaved, so there is none to estimate (leave --drift out).');
        driftCv = 'auto';
      } else if (opts.drift !== undefined) {
        driftCv = Number(opts.drift) / 100;
        if (!Number.isFinite(driftCv) || driftCv < 0 || String(opts.drift).trim() === '') throw new UserError(`--drift takes a percentage like 1, or auto, not "${opts.drift}".`);
      }
      const equivalence = opts.equivalence === undefined ? EQUIVALENCE : Number(opts.equivalence) / 100;
      if (!Number.isFinite(equivalence) || equivalence < 0 || equivalence >= 1 || String(opts.equivalence).trim() === '') throw new UserError(`--equivalence takes a percentage from 0 to below 100, like 2, not "${opts.equivalence}".`);
      const resultA = await readResult(fileA);
      const resultB = fileB ? await readResult(fileB) : resultA;
      const rows = diffResults(pairCells(resultA, resultB, { from: opts.from, to: opts.to, fileA, fileB: fileB || fileA }), { driftCv, equivalence });
      rows.metrics = metricComparisons(rows, { equivalence });
      const confirmation = opts.confirm ? await confirm(rows, { resultA, resultB, fileB: fileB || fileA, limit, equivalence, processes: confirmProcesses, out: opts.confirmOut }) : null;
      const failures = limit === undefined ? null : [
        ...gateFailures(rows, { limit, allowMissing: Boolean(opts.allowMissing), confirmed: confirmation ? confirmation.byRow : null }),
        ...metricGateFailures(rows.metrics, { metrics: opts.metric || [], limit })
      ];
      const gate = failures ? { confirm: confirmation, metrics: opts.metric || [] } : null;
      const context = { fileA, fileB: fileB || fileA, resultA, resultB, failures, limit, gate };
      const markdown = () => renderDiffMarkdown(rows, context);
      if (format === 'json') {
        process.stdout.write(`${JSON.stringify(diffJson(rows, context), null, 1)}\n`);
      } else if (format === 'markdown') {
        process.stdout.write(markdown());
      } else if (format === 'html') {
        const page = renderDiffHtml(rows, { ...context, tableText: renderDiff(rows, { extra: confirmation ? confirmation.lines : [] }) });
        process.stdout.write(htmlPage({
          title: page.title,
          intro: `Dot: estimated change in operations per second from A to B; bar: its 95% interval; orange: changes decided faster or slower (${rows.verdicts.text}).`,
          charts: page.charts,
          sections: [{ title: 'Changes', chartIds: page.charts.map((c) => c.id) }, { title: 'Table', html: `<pre>${escapeHtml(page.tableText)}</pre>` }]
        }));
      } else {
        process.stdout.write(renderDiff(rows, { color: opts.color && process.stdout.isTTY && !process.env.NO_COLOR, extra: confirmation ? confirmation.lines : [] }));
      }
      // GitHub Actions shows this file on the run's summary page; appending is what it expects.
      if (process.env.GITHUB_STEP_SUMMARY) await fs.appendFile(process.env.GITHUB_STEP_SUMMARY, `${markdown()}\n`);
      if (failures?.length) {
        // Benchmark and column names come from suite files: shown escaped (text/escape.js).
        process.stderr.write(`nodebench: ${terminalText(gateMessage(failures, { limit, confirm: Boolean(confirmation) }), { keepNewlines: true })}\n`);
        process.exitCode = 1;
      }
    });
}

const DIFF_FORMATS = ['table', 'markdown', 'json', 'html'];

const warningCodes = (cell) => (cell?.warnings || []).map((w) => (typeof w === 'string' ? w : w.code));

// --confirm: re-measure the suspicious comparisons (diff/confirm.js). Returns the confirmation with
// `lines` to print, or one without candidates.
async function confirm(rows, { resultA, resultB, fileB, limit, equivalence, processes: asked, out }) {
  const candidates = suspicious(rows, { limit });
  const processes = asked ?? defaultConfirmProcesses(resultB.run);
  let confirmation = { candidates: [], byRow: new Map(), verdicts: null, files: [], processes };
  if (candidates.length) {
    const plans = planConfirmation(candidates, resultA, resultB, { processes });
    const file = path.resolve(out || defaultConfirmFile(fileB));
    checkOutput(file, { force: true, option: '--confirm-out' });
    process.stderr.write(`nodebench: confirming ${candidates.length} comparison(s) the first measurement cannot clear: re-measuring both columns, ${processes} processes per cell, into ${path.relative(process.cwd(), file) || file}\n`);
    const runs = await runConfirmation(plans, { out: file, command: ['diff', '--confirm', ...process.argv.slice(2)] });
    confirmation = { ...judgeConfirmation(runs, { alpha: ALPHA, equivalence }), files: runs.map((r) => r.file), processes };
  }
  confirmation.lines = confirmationLines(confirmation, { limit, processes, files: confirmation.files.map((f) => path.relative(process.cwd(), f) || f) });
  return confirmation;
}

// For other tools: every pair with both summaries, its comparison, and the gate's verdict.
function diffJson(rows, { fileA, fileB, failures, limit, gate }) {
  const confirmation = gate?.confirm;
  return {
    a: fileA,
    b: fileB,
    // The gate's decision with its reasons: with --confirm, every candidate's first comparison and
    // its re-measurement (from the confirmation result file named in `files`).
    gate: failures ? {
      threshold: limit,
      passed: failures.length === 0,
      failures,
      confirm: confirmation ? {
        rule: CONFIRM_RULE,
        evidence: CONFIRM_EVIDENCE,
        processes: confirmation.processes,
        files: confirmation.files,
        verdicts: confirmation.verdicts,
        candidates: confirmation.candidates
      } : null
    } : null,
    // How the verdicts were reached: the false discovery rate method over how many comparisons, the
    // equivalence band of "same" (each row's comparison has p, q and verdict).
    verdicts: rows.verdicts,
    // Runtime metrics of cells with two or more metrics processes on each side (diff/metrics.js):
    // [{ suite, benchmark, column, metric, ratio (B/A), ci, p, q, verdict: higher|lower|same|undecided }].
    metrics: (rows.metrics || []).map(({ label, n, df, ...c }) => c),
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
