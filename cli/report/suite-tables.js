// Terminal tables: one per suite (split by flag set when all columns would not fit the terminal).
// A value is "ops/s ±margin% ratio-to-baseline"; a cell that did not run shows a short status and
// its reason is said once under the table. A ratio's verdict (stats/decision.js, judged over every
// ratio of the result at one false discovery rate) is its colour and a mark: "=" same within the
// band, "?" undecided, none for faster or slower. A cell that ran no faster than an empty benchmark
// carries "!" on its rate and on every ratio it takes part in (its row's, when it is the baseline).
import chalk from 'chalk';
import { grid } from '../results/grid.js';
import { measureOfResult } from '../measure.js';
import { referenceNote } from '../render/overview.js';
import { textTable } from '../text/text-table.js';
import { terminalText } from '../text/escape.js';
import { formatRate, formatRatio, formatPct, formatDuration, formatBand, displayName } from '../text/format.js';
import { reasonNotes, warningSummary, suiteFormLabel, timingNotes } from './notes.js';
import { isOptimizedAway, foldedNote, FOLDED_MARK, VERDICT_MARKS, ratioMark, hasEstimate, NO_ESTIMATE, marginNote, ratioInterval, excludesOne, excludesOneNote } from '../render/marks.js';

const SHORT_STATUS = { failed: 'FAILED', timeout: 'TIMEOUT', unsupported: 'n/s', skipped: 'skipped', pending: 'unfinished', running: 'unfinished', absent: '' };
export const folded = (value) => value.status === 'ok' && isOptimizedAway(value.warnings);

// Whether the cell value i's ratio is against (its column's reference: the baseline, or for a flag
// set its own runtime's column, results/grid.js referenceColumn) ran no faster than an empty benchmark.
export function referenceFolded(table, row, i) {
  const j = table.columns.findIndex((c) => c.key === table.references[i].key);
  return j >= 0 && j !== i && folded(row.values[j]);
}

// The marks of an ok value (every format shows the same): `rate` after its ops/s, `ratio` after its
// ratio. baseFolded: the cell its ratio is against ran no faster than an empty benchmark.
export function valueMarks(value, baseFolded = false) {
  const own = folded(value);
  return { rate: own ? FOLDED_MARK : '', ratio: ratioMark(value.ratioVerdict, own || baseFolded) };
}

// The figures after an ok value (every text format's): its margin (or NO_ESTIMATE past ±100%) and
// its ratio's 95% interval, each with its leading space, or ''.
export function valueFigures(value) {
  const margin = !Number.isFinite(value.rme) ? '' : hasEstimate(value.rme) ? ` ±${formatPct(value.rme)}` : ` (${NO_ESTIMATE})`;
  const c = value.ratioComparison;
  return { margin, interval: c && Number.isFinite(c.low) ? ` ${ratioInterval(c.low, c.high, formatRatio)}` : '' };
}

// perRun: a whole command's cell reads as the time of one run, not as runs per second.
function cellText(value, isBaseline, baseFolded = false, perRun = false) {
  if (value.status !== 'ok') return SHORT_STATUS[value.status] ?? value.status;
  const marks = valueMarks(value, baseFolded);
  const { margin, interval } = valueFigures(value);
  const ratio = isBaseline ? ' (base)' : value.ratio ? ` ${formatRatio(value.ratio)}${marks.ratio}${interval}` : '';
  return `${perRun ? formatDuration(1e9 / value.opsPerSec) : value.valueText ?? formatRate(value.opsPerSec)}${marks.rate}${margin}${ratio}`;
}

function colour(text, value, isBaseline, useColor) {
  if (!useColor) return text;
  if (value.status === 'failed' || value.status === 'timeout') return chalk.red(text);
  if (value.status !== 'ok') return chalk.dim(text);
  if (isBaseline || !value.ratio) return text;
  if (value.ratioVerdict === 'faster') return chalk.green(text);
  if (value.ratioVerdict === 'slower') return chalk.red(text);
  if (value.ratioVerdict === 'undecided') return chalk.dim(text);
  return text;
}

// What a ratio's mark says, from the tables' judgeAll summary (results/grid.js).
export const ratioLegend = (v) => `ratios: unmarked = faster or slower (${v.alpha * 100}% false discovery rate over ${v.comparisons} ratios, ${v.method}); ${VERDICT_MARKS.same} same within ${formatBand(v.equivalence)}; ${VERDICT_MARKS.undecided} undecided`;

// The lines under a table that say what its marks mean.
export function markNotes(table) {
  const lines = [];
  const baseIndex = table.columns.findIndex((c) => c.key === table.baseline.key);
  const foldedCells = table.rows.reduce((n, row) => n + row.values.filter(folded).length, 0);
  if (foldedCells) lines.push(`  ${foldedNote(foldedCells)}`);
  const noEstimate = table.rows.reduce((n, row) => n + row.values.filter((v) => v.status === 'ok' && Number.isFinite(v.rme) && !hasEstimate(v.rme)).length, 0);
  if (noEstimate) lines.push(`  ${marginNote(noEstimate)}`);
  const ratios = table.rows.some((row) => row.values.some((v, i) => i !== baseIndex && v.status === 'ok' && v.ratio));
  if (ratios && table.verdicts) lines.push(`  ${ratioLegend(table.verdicts)}`);
  const unsure = table.rows.reduce((n, row) => n + row.values.filter((v, i) => i !== baseIndex && v.status === 'ok' && v.ratioComparison && excludesOne(v.ratioVerdict, v.ratioComparison.low, v.ratioComparison.high)).length, 0);
  if (unsure && table.verdicts) lines.push(`  ${excludesOneNote(unsure, table.verdicts)}`);
  return lines;
}

function layout(table, columnIndexes, color, perRun) {
  const header = ['benchmark', ...columnIndexes.map((i) => displayName(table.columns[i].key))];
  const baseIndex = table.columns.findIndex((c) => c.key === table.baseline.key);
  const rows = table.rows.map((row) => [
    displayName(row.benchmark),
    ...columnIndexes.map((i) => {
      const isBaseline = i === baseIndex;
      const value = row.values[i];
      const text = cellText(value, isBaseline, referenceFolded(table, row, i), perRun);
      return { text, shown: colour(text, value, isBaseline, color) };
    })
  ]);
  return textTable([header, ...rows]);
}

function tableWidth(table, columnIndexes) {
  const benchWidth = Math.max(9, ...table.rows.map((r) => terminalText(displayName(r.benchmark)).length));
  return columnIndexes.reduce((sum, i) => sum + 2 + Math.max(terminalText(displayName(table.columns[i].key)).length, ...table.rows.map((r) => cellText(r.values[i], false).length + 7)), benchWidth);
}

// tables: results/grid.js grid's, when the caller has them.
export function renderTables(result, { baseline, color = false, width = process.stdout.columns || 160, verbose = false, tables = grid(result, { baseline }) } = {}) {
  const out = [];
  for (const table of tables) {
    const all = table.columns.map((_, i) => i);
    const form = suiteFormLabel(result, table.suite);
    const suite = terminalText(displayName(table.suite));
    const title = `${color ? chalk.bold(suite) : suite}${form ? ` ${form}` : ''}`;
    const perRun = result.suites.find((s) => s.name === table.suite)?.kind === 'command';
    const counted = measureOfResult(result).id === 'instructions';
    const legend = perRun
      ? `(time per run ±95% margin, speed ratio to ${terminalText(displayName(table.baseline.key))} [95% interval]: above 1x is faster${terminalText(referenceNote([table]))})`
      : counted
        ? `(instructions per operation ±95% margin, counted under valgrind; ratio to ${terminalText(displayName(table.baseline.key))} [95% interval]: above 1x is fewer instructions${terminalText(referenceNote([table]))})`
        : `(ops/s ±95% margin, ratio to ${terminalText(displayName(table.baseline.key))} [95% interval]${terminalText(referenceNote([table]))})`;
    if (tableWidth(table, all) <= width) {
      out.push(`${title}  ${legend}`, ...layout(table, all, color, perRun));
    } else {
      for (const flagSet of [...new Set(table.columns.map((c) => c.flagSet))]) {
        out.push(`${title} [${terminalText(displayName(flagSet))}]  ${legend}`, ...layout(table, all.filter((i) => table.columns[i].flagSet === flagSet), color, perRun), '');
      }
      out.pop();
    }
    out.push(...timingNotes(result, table.suite), ...reasonNotes(table), ...markNotes(table), ...warningSummary(table, { verbose }), '');
  }
  return out.join('\n');
}
