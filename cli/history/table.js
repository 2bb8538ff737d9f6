// `history show` as text (the table format), and the lines every other format quotes: a series'
// title and table, a change point in one sentence, the headline. Every format (markdown.js, json.js,
// csv.js, html.js) carries the same series and change points (analysis.js).
import { textTable } from '../text/text-table.js';
import { formatRate, formatChange, displayName } from '../text/format.js';
import { terminalText } from '../text/escape.js';
import { describeHost } from './entry.js';
import { describeStoreDrift } from './drift.js';
import { benchmarkName } from '../cell-identity.js';
import { MEASURES, formatCount } from '../measure.js';
import { pointValue as valueInUnit } from './series.js';

// Names come from suite files and result files someone else may have written: control characters
// (a terminal escape sequence, say) are shown as escapes, never sent to the terminal.

const ORDER_WORDS = { version: 'runtime version (the runs of one version pooled)', date: 'date (one point per run)' };

// Distinguishes series that share a benchmark name: their host and parameters when the history
// has several of them, their runtime line when ordered by date.
export function seriesTitle(s, analysis, { withBenchmark = true, withFlagSet = true, withLine = true } = {}) {
  const parts = withBenchmark ? [displayName(benchmarkName(s))] : [];
  if (withFlagSet) parts.push(`[${displayName(s.flagSet)}]`);
  if (withLine && s.line !== null) parts.push(`on ${displayName(s.line)}`);
  if (counted(s)) parts.push('in instructions');
  const sameSuite = analysis.series.filter((o) => o.suite === s.suite);
  if (new Set(sameSuite.map((o) => o.params)).size > 1) parts.push(`params ${displayName(s.params)}`);
  if (analysis.hosts.length > 1 && s.host !== null) parts.push(`host ${s.host}`);
  if (s.arch && analysis.series.some((o) => o.arch && o.arch !== s.arch)) parts.push(`on ${displayName(s.arch)}`);
  return terminalText(parts.join(' '));
}

// A bisect command is shown whole to be copied, unless its names make it longer than anyone copies.
export const COMMAND_CHARS = 1000;

export const changeText = (c) => `${formatChange(c.ratio)} (95% CI ${formatChange(c.low)} .. ${formatChange(c.high)})`;

// One sentence per change point: where, between what, how much, what else changed, what to run.
export function changeLine(s, c, analysis, { withBenchmark = true } = {}) {
  const words = [`${seriesTitle(s, analysis, { withBenchmark })}${withBenchmark ? ':' : ','} ${terminalText(displayName(c.from.name))} -> ${terminalText(displayName(c.to.name))} ${changeText(c)}${c.isNew ? ' NEW' : ''}`];
  if (c.also.length) words.push(`also changed there: ${terminalText(c.also.map(displayName).join(', '))}`);
  if (c.bisect?.command) words.push(`${c.bisect.between === null ? 'releases between them may hold it' : `${c.bisect.between} release(s) between`}: ${terminalText(displayName(c.bisect.command, { max: COMMAND_CHARS }))}`);
  else if (c.bisect) words.push('adjacent releases');
  return words.join('; ');
}

export const allChanges = (analysis) => analysis.series.flatMap((s) => s.changes.map((c) => ({ s, c })));

// A series of instruction counts (series.js): its values are instructions per operation.
const counted = (s) => s.measure === MEASURES.instructions.id;

function pointCells(s, p) {
  if (p.status !== 'ok') return [terminalText(p.status), ''];
  const { value, low, high } = valueInUnit(s, p);
  const format = counted(s) ? formatCount : formatRate;
  return [format(value), `${format(low)} .. ${format(high)}`];
}

export function seriesTable(s, analysis) {
  const changeAt = new Map(s.changes.map((c) => [c.to, c]));
  const unit = counted(s) ? MEASURES.instructions.valueHeader : 'ops/s';
  const header = analysis.by === 'version' ? ['runtime', unit, '95% interval', 'runs', 'change'] : ['run', 'runtime', unit, '95% interval', 'change'];
  const rows = s.points.map((p) => {
    const c = changeAt.get(p);
    const change = c ? `${c.ratio < 1 ? 'v' : '^'} ${changeText(c)}${c.isNew ? ' NEW' : ''}` : '';
    const [value, interval] = pointCells(s, p);
    return analysis.by === 'version' ? [terminalText(displayName(p.name)), value, interval, String(p.runs.length), change] : [terminalText(displayName(p.name)), terminalText(p.runtimes.map(displayName).join('/')), value, interval, change];
  });
  return textTable([header, ...rows]).join('\n');
}

export function headline(analysis, store) {
  const { entries } = analysis;
  const dates = entries.length ? `, ${entries[0].createdAt.slice(0, 10)} .. ${entries.at(-1).createdAt.slice(0, 10)}` : '';
  return [`nodebench history: ${entries.length} run(s) in ${terminalText(store)}${dates}, by ${ORDER_WORDS[analysis.by]}`,
    ...analysis.hosts.map((h) => `host ${h.id}: ${terminalText(describeHost(h))}`),
    // A store of counts alone has no time series to describe.
    ...(analysis.series.length && analysis.series.every(counted) ? [] : ['values: ops/s with a 95% interval across runs (each run\'s own interval, widened for the host\'s speed where its processes ran in a slow mode, and by the drift between runs)']),
    ...describeStoreDrift(analysis.drift).split('\n').map(terminalText),
    ...(analysis.series.some(counted) ? [`series "in instructions": instructions per operation counted under valgrind (instr/op, fewer is less work, not less time), never pooled with time; a 95% interval across runs with the count's own repeatability (${MEASURES.instructions.repeatability * 100}% per side) as its floor, no drift (no host moves a count)`] : []),
    searchLine(analysis.search)];
}

const percent = (x) => `${Number((x * 100).toPrecision(2))}%`;

// How the series were judged together (analysis.js searchPlan).
function searchLine({ alpha, tested, selected, level }) {
  if (!tested) return 'change points: no series has two points to compare';
  const within = selected ? `; ${selected} of them shifted, searched further at ${percent(level)} each` : '; none shifted';
  return `change points: ${tested} series judged at a ${percent(alpha)} false discovery rate over their largest shift (Benjamini-Hochberg)${within}`;
}

function changeSummary(analysis) {
  const changes = allChanges(analysis);
  if (!changes.length) return ['no change points'];
  const fresh = changes.filter(({ c }) => c.isNew).length;
  return [`change points: ${changes.length}${fresh ? ` (${fresh} new with the newest history add)` : ''}`, ...changes.map(({ s, c }) => `  ${changeLine(s, c, analysis)}`)];
}

export function renderText(analysis, { store }) {
  if (!analysis.series.length) return `${headline(analysis, store).join('\n')}\n\nno series match the filters\n`;
  const blocks = analysis.series.map((s) => `${seriesTitle(s, analysis)}\n${seriesTable(s, analysis)}`);
  return `${[headline(analysis, store).join('\n'), ...blocks, changeSummary(analysis).join('\n')].join('\n\n')}\n`;
}

// history check: the change points the newest history add revealed, or that there are none.
export function renderCheckText(analysis, { store }) {
  const fresh = allChanges(analysis).filter(({ c }) => c.isNew);
  return fresh.length ? `new change points:\n${fresh.map(({ s, c }) => `  ${changeLine(s, c, analysis)}`).join('\n')}\n` : `no new change points in ${terminalText(store)} (${analysis.entries.length} run(s), by ${analysis.by})\n`;
}
