// `history show` as text, Markdown, JSON and CSV (html.js draws the charts). Every format carries
// the same series and change points (analysis.js).
import { textTable } from '../text/text-table.js';
import { formatRate, formatChange } from '../text/format.js';
import { csvField as quote } from '../render/csv-field.js';
import { terminalText, markdownText, markdownCode, markdownFence, markdownHtmlText } from '../text/escape.js';
import { describeHost, canonicalJson } from './entry.js';
import { describeStoreDrift } from './drift.js';
import { benchmarkName } from '../cell-identity.js';

// Names come from suite files and result files someone else may have written: control characters
// (a terminal escape sequence, say) are shown as escapes, never sent to the terminal.

const ORDER_WORDS = { version: 'runtime version (the runs of one version pooled)', date: 'date (one point per run)' };

// Distinguishes series that share a benchmark name: their host and parameters when the history
// has several of them, their runtime line when ordered by date.
export function seriesTitle(s, analysis, { withBenchmark = true, withFlagSet = true, withLine = true } = {}) {
  const parts = withBenchmark ? [benchmarkName(s)] : [];
  if (withFlagSet) parts.push(`[${s.flagSet}]`);
  if (withLine && s.line !== null) parts.push(`on ${s.line}`);
  const sameSuite = analysis.series.filter((o) => o.suite === s.suite);
  if (new Set(sameSuite.map((o) => o.params)).size > 1) parts.push(`params ${s.params}`);
  if (analysis.hosts.length > 1) parts.push(`host ${s.host}`);
  return terminalText(parts.join(' '));
}

export const changeText = (c) => `${formatChange(c.ratio)} (95% CI ${formatChange(c.low)} .. ${formatChange(c.high)})`;

// One sentence per change point: where, between what, how much, what else changed, what to run.
export function changeLine(s, c, analysis, { withBenchmark = true } = {}) {
  const words = [`${seriesTitle(s, analysis, { withBenchmark })}${withBenchmark ? ':' : ','} ${terminalText(c.from.name)} -> ${terminalText(c.to.name)} ${changeText(c)}${c.isNew ? ' NEW' : ''}`];
  if (c.also.length) words.push(`also changed there: ${terminalText(c.also.join(', '))}`);
  if (c.bisect?.command) words.push(`${c.bisect.between === null ? 'releases between them may hold it' : `${c.bisect.between} release(s) between`}: ${terminalText(c.bisect.command)}`);
  else if (c.bisect) words.push('adjacent releases');
  return words.join('; ');
}

export const allChanges = (analysis) => analysis.series.flatMap((s) => s.changes.map((c) => ({ s, c })));

function pointValue(p) {
  if (p.status !== 'ok') return [terminalText(p.status), ''];
  return [formatRate(p.opsPerSec), `${formatRate(p.low)} .. ${formatRate(p.high)}`];
}

function seriesTable(s, analysis) {
  const changeAt = new Map(s.changes.map((c) => [c.to, c]));
  const header = analysis.by === 'version' ? ['runtime', 'ops/s', '95% interval', 'runs', 'change'] : ['run', 'runtime', 'ops/s', '95% interval', 'change'];
  const rows = s.points.map((p) => {
    const c = changeAt.get(p);
    const change = c ? `${c.ratio < 1 ? 'v' : '^'} ${changeText(c)}${c.isNew ? ' NEW' : ''}` : '';
    const [value, interval] = pointValue(p);
    return analysis.by === 'version' ? [terminalText(p.name), value, interval, String(p.runs.length), change] : [terminalText(p.name), terminalText(p.runtimes.join('/')), value, interval, change];
  });
  return textTable([header, ...rows]).join('\n');
}

function headline(analysis, store) {
  const { entries } = analysis;
  const dates = entries.length ? `, ${entries[0].createdAt.slice(0, 10)} .. ${entries.at(-1).createdAt.slice(0, 10)}` : '';
  return [`nodebench history: ${entries.length} run(s) in ${terminalText(store)}${dates}, by ${ORDER_WORDS[analysis.by]}`,
    ...analysis.hosts.map((h) => `host ${h.id}: ${terminalText(describeHost(h))}`),
    'values: ops/s with a 95% interval across runs (each run\'s own interval, widened for the host\'s speed where its processes ran in a slow mode, and by the drift between runs)',
    ...describeStoreDrift(analysis.drift).split('\n').map(terminalText),
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

// For a pull request or the job summary: the change points first, the series folded per suite
// (series: false leaves them out: a job summary takes 1 MiB, and 200 runs of 150 series are more).
export function renderMarkdown(analysis, { store, series: withSeries = true }) {
  // Every name through text/escape.js: a table cell cannot add a column or a row, the command is a
  // code span no backtick in it can close, a suite name cannot open or close HTML.
  const out = [`### nodebench history`, '', headline(analysis, store).map(markdownText).join('  \n'), ''];
  const changes = allChanges(analysis);
  if (changes.length) {
    out.push('| series | from | to | change | 95% CI | |', '|---|---|---|---:|---|---|');
    const cell = markdownText;
    const code = (text) => markdownCode(text).replace(/\|/g, '\\|');
    for (const { s, c } of changes) {
      const note = [c.isNew ? '**new**' : '', ...c.also.map(cell), c.bisect?.command ? code(c.bisect.command) : ''].filter(Boolean).join('; ');
      out.push(`| ${cell(seriesTitle(s, analysis))} | ${cell(c.from.name)} | ${cell(c.to.name)} | ${formatChange(c.ratio)} | ${formatChange(c.low)} .. ${formatChange(c.high)} | ${note} |`);
    }
  } else {
    out.push('No change points.');
  }
  out.push('');
  if (!withSeries) return `${out.join('\n')}\n`;
  for (const suite of [...new Set(analysis.series.map((s) => s.suite))]) {
    const series = analysis.series.filter((s) => s.suite === suite);
    out.push(`<details><summary>${markdownHtmlText(suite)}: ${series.length} series</summary>`, '', ...markdownFence(series.map((s) => `${seriesTitle(s, analysis)}\n${seriesTable(s, analysis)}\n`).join('\n')), '', '</details>', '');
  }
  return `${out.join('\n')}\n`;
}

const changeJson = (c) => ({
  from: c.from.name, to: c.to.name, ratio: c.ratio, low: c.low, high: c.high, p: c.p, isNew: c.isNew, alsoChanged: c.also, bisect: c.bisect
});

export function renderJson(analysis, { store }) {
  return `${JSON.stringify({
    store,
    by: analysis.by,
    runs: analysis.entries.map((e) => ({ id: e.id, createdAt: e.createdAt, addedAt: e.addedAt, label: e.label, commit: e.commit, nodebench: e.nodebench, schemaVersion: e.schemaVersion, source: e.source })),
    hosts: analysis.hosts,
    // The drift between runs per side that each series' points were widened by (its `drift`), and
    // how the series were judged together: searched further when their largest shift was a discovery
    // at `alpha` over `tested` series, at `level`.
    drift: describeStoreDrift(analysis.drift).split('\n'),
    search: analysis.search,
    series: analysis.series.map((s) => ({
      suite: s.suite, benchmark: s.benchmark, params: JSON.parse(s.params), flagSet: s.flagSet, flags: s.flags, line: s.line, host: s.host, drift: s.drift, extraSpread: s.extra,
      points: s.points.map((p) => ({ x: p.x, name: p.name, runtimes: p.runtimes, status: p.status, reason: p.reason, opsPerSec: p.opsPerSec ?? null, low: p.low ?? null, high: p.high ?? null, hostSlowdown: p.hostSlowdown ?? null, runs: p.runs.map((r) => r.entry.id) })),
      changes: s.changes.map(changeJson)
    }))
  }, null, 1)}\n`;
}

const CSV_COLUMNS = ['suite', 'benchmark', 'params', 'flagSet', 'flags', 'line', 'host', 'x', 'name', 'runtimes', 'status', 'opsPerSec', 'low', 'high', 'runs', 'changeRatio', 'changeLow', 'changeHigh', 'changeNew'];

// One row per point; the change columns are filled on the first point after a change point. Text
// fields go through terminalText() too: a spreadsheet or a terminal has no use for control codes.
export function renderCsv(analysis) {
  const rows = analysis.series.flatMap((s) => {
    const changeAt = new Map(s.changes.map((c) => [c.to, c]));
    return s.points.map((p) => {
      const c = changeAt.get(p);
      return [s.suite, s.benchmark, s.params === canonicalJson({}) ? '' : s.params, s.flagSet, s.flags.join(' '), s.line, s.host, p.x, p.name, p.runtimes.join(' '), p.status,
        p.opsPerSec, p.low, p.high, p.runs.length, c?.ratio, c?.low, c?.high, c ? c.isNew : undefined];
    });
  });
  return `${[CSV_COLUMNS, ...rows].map((r) => r.map((v) => quote(typeof v === 'string' ? terminalText(v) : v)).join(',')).join('\n')}\n`;
}
