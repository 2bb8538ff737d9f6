// What nodebench diff prints, shared by the terminal table, Markdown (for a pull request or
// $GITHUB_STEP_SUMMARY) and HTML: one row of cells per compared pair, and the summary under it.
// Verdicts are stats/decision.js's: faster, slower, same (within ±equivalence) or undecided, judged
// over all the rows at one false discovery rate (diffResults); a cell whose benchmark ran at the cost
// of an empty one carries FOLDED_MARK on its rate and on the change it takes part in.
import { geomeanRatio, DISTURBED_SLOWDOWN } from '../stats/compare.js';
import { formatChange, formatBand, displayName } from '../text/format.js';
import { describeDrift } from '../stats/drift-estimate.js';
import { describeHosts } from '../stats/host-speed.js';
import { describeUndecided } from '../stats/detectable.js';
import { terminalText } from '../text/escape.js';
import { FOLDED_MARK, isOptimizedAway, foldedNote, excludesOne, excludesOneNote } from '../render/marks.js';
import { measureOfCell } from '../measure.js';
import { sideCellWarningLines } from '../render/run-warnings.js';

// A side's value as its measure reads: ops/s, or instructions per operation (cli/measure.js).
const valueOf = (cell) => measureOfCell(cell).valueText(cell.summary);

export const DIFF_HEADER = ['benchmark', 'column', 'A ops/s', 'B ops/s', 'change', '95% CI', 'p', 'q', 'verdict'];

// The header for these rows: its value columns in their measure's unit (diff never mixes measures).
export function diffHeader(rows) {
  const measure = measureOfCell(rows.find((r) => r.a)?.a);
  return measure.id === 'time' ? DIFF_HEADER : DIFF_HEADER.map((h) => (h === 'A ops/s' ? `A ${measure.valueHeader}` : h === 'B ops/s' ? `B ${measure.valueHeader}` : h === 'change' ? 'change in rate' : h));
}

const pValue = (p) => (!Number.isFinite(p) ? '' : p < 0.001 ? '<0.001' : p.toFixed(3));
export const folded = (cell) => Boolean(cell) && isOptimizedAway(cell.warnings);
const mark = (text, on) => (on ? `${text}${FOLDED_MARK}` : text);

// "same" carries its band, so that it never reads as "no change" without one.
export function verdictText(c, equivalence) {
  const word = c.verdict === 'same' && Number.isFinite(equivalence) ? `same ${formatBand(equivalence)}` : c.verdict;
  return word + (c.singleProcess ? ' (1 process)' : c.disturbedOnly ? ' (host disturbed)' : '');
}

export function diffRowCells(r, { equivalence } = {}) {
  const aFolded = r.before === 'ok' && folded(r.a);
  const bFolded = r.after === 'ok' && folded(r.b);
  if (!r.comparison) {
    return [displayName(r.label), displayName(r.column), r.before === 'ok' ? mark(valueOf(r.a), aFolded) : r.before, r.after === 'ok' ? mark(valueOf(r.b), bFolded) : r.after, '', '', '', '', r.note];
  }
  const c = r.comparison;
  return [displayName(r.label), displayName(r.column), mark(valueOf(r.a), aFolded), mark(valueOf(r.b), bFolded), mark(formatChange(c.ratio), aFolded || bFolded),
    `${formatChange(c.ci.low)} .. ${formatChange(c.ci.high)}`, pValue(c.p), pValue(c.q), verdictText(c, equivalence)];
}

export const isDecidedChange = (row) => Boolean(row.comparison) && (row.comparison.verdict === 'faster' || row.comparison.verdict === 'slower');

// What qualifies the compared cells and their runs, in every format (issue 39, item 2): each side's
// cells' warnings counted (render/run-warnings.js), then what the runs warned about their machines.
export const diffWarningLines = (rows) => [...sideCellWarningLines(rows), ...(rows.runWarnings || [])];

// runWarnings: false leaves out diffWarningLines (a page shows them first).
export function diffSummaryLines(rows, { runWarnings = true } = {}) {
  const compared = rows.filter((r) => r.comparison).map((r) => r.comparison);
  const lines = [];
  if (compared.length) {
    const count = (verdict) => compared.filter((c) => c.verdict === verdict).length;
    const band = rows.verdicts ? ` within ${formatBand(rows.verdicts.equivalence)}` : '';
    lines.push(`geomean of rate ratios: ${formatChange(geomeanRatio(compared))} over ${compared.length} benchmarks; ` +
      `${count('faster')} faster, ${count('slower')} slower, ${count('same')} same${band}, ${count('undecided')} undecided`);
    if (rows.verdicts) lines.push(`verdicts: ${rows.verdicts.text}`);
    const unsure = compared.filter((c) => excludesOne(c.verdict, c.ci.low, c.ci.high)).length;
    if (unsure && rows.verdicts) lines.push(excludesOneNote(unsure, rows.verdicts).replace(/^\? /, 'undecided '));
    const undecided = describeUndecided(rows.detectable, count('undecided'));
    if (undecided) lines.push(undecided);
  }
  const foldedCells = new Set(rows.flatMap((r) => [r.before === 'ok' && folded(r.a) ? r.a : null, r.after === 'ok' && folded(r.b) ? r.b : null]).filter(Boolean));
  if (foldedCells.size) lines.push(foldedNote(foldedCells.size));
  const unfinished = rows.filter((r) => r.after === 'unfinished' || r.before === 'unfinished').length;
  if (unfinished) lines.push(`${unfinished} cell(s) unfinished: their run was interrupted or killed before measuring them, so they are not compared.`);
  if (rows.drift) lines.push(...describeDrift(rows.drift).map((line) => terminalText(line)));
  const widened = compared.filter((c) => c.hostShift).length;
  if (rows.host || widened) lines.push(...describeHosts(rows.host || {}, widened));
  const disturbed = compared.filter((c) => c.disturbedOnly).length;
  if (disturbed) {
    lines.push(`note: ${disturbed} comparison(s) rest on a cell whose processes all ran while the machine was disturbed (fewer than two quiet ones; marked "host disturbed"): their intervals also hold the ratio with that disturbance taken out (at least ${DISTURBED_SLOWDOWN}x), so only a larger change is decided; rerun on a quieter host, or count instructions (--measure instructions).`);
  }
  const reselected = compared.filter((c) => c.allProcessesRatio).length;
  if (reselected) {
    lines.push(`note: ${reselected} comparison(s) rest on a cell that kept half of its processes or fewer (the others set aside as disturbed), and the medians over all processes read the change differently: their intervals hold both readings, so the few processes a busy host left cannot decide a change alone.`);
  }
  if (compared.some((c) => c.singleProcess)) {
    lines.push('note: a cell measured in one process decides nothing (the samples of one process say nothing of the next, which can run 2x apart on a shared host): its ratio is shown without an interval; measure with --processes 3 or more for verdicts.');
  }
  if (runWarnings) lines.push(...diffWarningLines(rows).map((line) => terminalText(line)));
  return lines;
}

// The environments of A and B side by side: [name, A, B] rows.
export function environmentRows(resultA, resultB) {
  const describe = (r) => ({
    file: r.file,
    host: `${r.result.host.hostname} (${r.result.host.cpuModel}, ${r.result.host.cores} cores, ${r.result.host.os} ${r.result.host.kernel})`,
    runtimes: r.result.runtimes.map((x) => `${x.label} (V8 ${x.v8})`).join(', '),
    'flag sets': r.result.flagSets.map((f) => `${f.name}${f.flags.length ? ` ${f.flags.join(' ')}` : ''}`).join(', '),
    nodebench: r.result.nodebench.version,
    created: r.result.createdAt,
    status: r.result.status
  });
  const a = describe(resultA);
  const b = describe(resultB);
  return Object.keys(a).map((k) => [k, a[k], b[k]]);
}

// How far a row moved, for ordering: a change of status first.
export const changeSize = (r) => (r.comparison ? Math.abs(Math.log(r.comparison.ratio)) : Infinity);
