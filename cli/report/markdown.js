// Markdown for a pull request or an issue: the decided changes first, slower then faster, each
// largest first with the rest of a group folded, with ratio,
// interval and verdict; the other ratios folded; a compact overview table per suite with the marks
// of the terminal tables; then, folded, the full tables (ops/s ±margin and ratios), the metrics and
// the service latencies. Within GitHub's comment limit (render/markdown-parts.js). The overview is
// render/overview.js's, as in the HTML report; every name goes through escape.js.
import { measureOfResult } from '../measure.js';
import { grid } from '../results/grid.js';
import { formatRate, formatRatio, displayName } from '../text/format.js';
import { renderServiceTables } from './service-table.js';
import { renderMetricsTables } from './metrics-table.js';
import { suiteFormLabel } from './notes.js';
import { markdownText, markdownFence, markdownCode, markdownMarkup, markdownBold } from '../text/escape.js';
import { valueMarks, valueFigures, markNotes, referenceFolded } from './suite-tables.js';
import { reportOverview, countsText, geomeanText, intervalText, columnText, againstText, changeGroups } from '../render/overview.js';
import { fitMarkdown, GITHUB_COMMENT_LIMIT, tableBlock, overviewBlocks, overviewLegend, MARKDOWN_CHANGES_SHOWN } from '../render/markdown-parts.js';
import { reportWarningLines } from '../render/run-warnings.js';
import { benchmarkName } from '../cell-identity.js';

// The terminal table's marks (suite-tables.js): "!" optimized away, "=" same, "?" undecided; the
// ratio bold only when decided faster or slower, as the overview's legend says of bold.
function text(value, isBaseline, baseFolded) {
  if (value.status === 'absent') return '';
  if (value.status !== 'ok') return `${value.status}${value.error ? `: ${value.error}` : ''}`;
  const marks = valueMarks(value, baseFolded);
  const { margin, interval } = valueFigures(value);
  const head = `${value.valueText ?? formatRate(value.opsPerSec)}${marks.rate}${margin}`;
  if (isBaseline) return `${head} (base)`;
  if (!value.ratio) return head;
  const tail = `${marks.ratio}${interval}`;
  if (!DECIDED.has(value.ratioVerdict)) return `${head} ${formatRatio(value.ratio)}${tail}`;
  return markdownMarkup(`${markdownText(head)} ${markdownBold(formatRatio(value.ratio))}${markdownText(tail)}`);
}

const DECIDED = new Set(['faster', 'slower']);
const CHANGE_HEADER = ['ratio', 'verdict', 'benchmark', 'column', '95% interval'];
const ALIGN_CHANGES = ['---:', '---', '---', '---', '---'];

// The changes decided slower, then faster, each largest first (the first MARKDOWN_CHANGES_SHOWN of
// each in view, both groups before any fold, so that a cut to GitHub's limit takes folded rows
// first); the other ratios folded.
export function changeBlocks(overview, { shown = MARKDOWN_CHANGES_SHOWN } = {}) {
  const row = (c) => [`${formatRatio(c.ratio)}${c.mark}`, c.verdict, displayName(benchmarkName(c)), columnText(c), intervalText(c)];
  const blocks = [];
  const groups = changeGroups(overview);
  if (groups.length) {
    const title = (g) => `${g.verdict[0].toUpperCase()}${g.verdict.slice(1)}`;
    groups.forEach((g, i) => {
      blocks.push(tableBlock(`the decided ${g.verdict} changes`, CHANGE_HEADER, g.changes.slice(0, shown).map(row), {
        align: ALIGN_CHANGES,
        before: [...(i === 0 ? [`### What changed (${overview.changes.length} decided)`, ''] : []), `**${title(g)}** (${g.changes.length}, largest first)`, ''],
        after: ['']
      }));
    });
    for (const g of groups.filter((x) => x.changes.length > shown)) {
      const rest = g.changes.slice(shown);
      blocks.push(tableBlock(`the other ${g.verdict} changes`, CHANGE_HEADER, rest.map(row), {
        align: ALIGN_CHANGES,
        before: ['<details>', `<summary>${rest.length} more decided ${g.verdict}</summary>`, ''],
        after: ['', '</details>', '']
      }));
    }
  } else {
    blocks.push({ name: 'the decided changes', head: ['No ratio decided faster or slower.', ''] });
  }
  const rest = overview.suites.flatMap((suite) => suite.rows.flatMap((r) => r.cells.map((cell, i) => ({ suite: suite.suite, benchmark: r.benchmark, column: suite.columns[i].key, ...cell }))))
    .filter((c) => Number.isFinite(c.ratio) && c.verdict !== 'faster' && c.verdict !== 'slower');
  if (rest.length) {
    const same = rest.filter((c) => c.verdict === 'same').length;
    blocks.push(tableBlock('the ratios not decided faster or slower', CHANGE_HEADER, rest.map(row), {
      align: ALIGN_CHANGES,
      before: ['<details>', `<summary>${rest.length} ratio(s) not decided faster or slower: ${same} same within the band, ${rest.length - same} undecided</summary>`, ''],
      after: ['', '</details>', '']
    }));
  }
  return blocks;
}

export function summaryLines(overview) {
  const lines = [`${markdownBold(countsText(overview))}${overview.verdicts ? ` (${markdownText(overview.verdicts.text)})` : ''}  `];
  if (overview.summary.columns.length) lines.push(`Geometric mean of the ratios per column: ${markdownText(geomeanText(overview.summary))}  `);
  return [...lines, ''];
}

// source: the result file's name, for the line that says where the whole report is when cut.
export function renderMarkdown(result, { baseline, source, limit = GITHUB_COMMENT_LIMIT } = {}) {
  const tables = grid(result, { baseline });
  const overview = reportOverview(result, { baseline, tables });
  const warned = reportWarningLines(result).map((line) => `${markdownText(line)}  `);
  const counted = measureOfResult(result).id === 'instructions';
  const valueWords = counted ? 'instructions per operation' : 'ops/s';
  const header = [
    `## nodebench report: ${markdownText(result.runtimes.map((r) => displayName(r.label)).join(', '))}`, '',
    markdownText(`Runtimes: ${result.runtimes.map((r) => `${displayName(r.label)} (V8 ${r.v8})`).join(', ')}. Host: ${result.host.cpuModel}, ${result.host.cores} cores. Ratios of ${valueWords} to ${againstText(overview)}${counted ? ', counted under valgrind (above 1x is fewer instructions; instructions are not time)' : ''}.`), '',
    ...summaryLines(overview),
    ...(warned.length ? [...warned, ''] : [])
  ];
  const blocks = [{ name: 'the summary', head: header }, ...changeBlocks(overview),
    { name: 'the overview', head: ['### Overview', '', `${markdownText(overviewLegend(counted))}`, ''] }, ...overviewBlocks(overview)];
  // The full tables, folded: the value ±margin and ratio ±margin per cell, as on a terminal.
  blocks.push({ name: 'the full tables', head: ['<details>', `<summary>Full tables: ${valueWords} ±95% margin, ratio to the baseline [95% interval]</summary>`, ''] });
  for (const table of tables) {
    const form = suiteFormLabel(result, table.suite);
    const baseIndex = table.columns.findIndex((c) => c.key === table.baseline.key);
    const rows = table.rows.map((row) => [displayName(row.benchmark), ...row.values.map((v, i) => text(v, i === baseIndex, referenceFolded(table, row, i)))]);
    const notes = markNotes(table).map((line) => `${markdownText(line.trim())}  `);
    blocks.push(tableBlock(`the full table of ${markdownText(displayName(table.suite))}`, ['benchmark', ...table.columns.map((c) => displayName(c.key))], rows, {
      align: ['---', ...table.columns.map(() => '---:')],
      before: [`### ${markdownText(displayName(table.suite))}${form ? ` ${markdownText(form)}` : ''}`, ''],
      after: [...(notes.length ? ['', ...notes] : []), '']
    }));
  }
  blocks.push({ name: 'the end of the full tables', head: ['</details>', ''] });
  // The service and metrics grids are aligned text: a fenced block keeps their columns on GitHub.
  const service = renderServiceTables(result);
  if (service) blocks.push({ name: 'the service latencies', head: ['<details>', '<summary>Service latencies</summary>', '', ...markdownFence(service.trimEnd()), '', '</details>', ''] });
  if (result.cells.some((c) => c.metrics)) {
    blocks.push({ name: 'the runtime metrics', head: ['<details>', '<summary>GC, CPU, event-loop delay and memory</summary>', '', '### GC, CPU, event-loop delay and memory', '', ...markdownFence(renderMetricsTables(result).trimEnd()), '', '</details>', ''] });
  }
  return fitMarkdown(blocks, { limit, whereFull: markdownCode(`nodebench report ${source ?? '<result file>'} --format html`) });
}
