// diff's Markdown format, for a pull request or $GITHUB_STEP_SUMMARY (rows.js has the cells and
// the summary every format shares).
import { measureOfResult } from '../measure.js';
import { markdownCode, markdownText, markdownTable } from '../text/escape.js';
import { displayName } from '../text/format.js';
import { diffOverview, CHANGE_GROUPS } from '../render/overview.js';
import { fitMarkdown, GITHUB_COMMENT_LIMIT, tableBlock, overviewBlocks, overviewLegend, MARKDOWN_CHANGES_SHOWN } from '../render/markdown-parts.js';
import { metricRows, metricSummary, METRIC_HEADER } from './metrics.js';
import { diffHeader, diffRowCells, diffSummaryLines, environmentRows, isDecidedChange, changeSize } from './rows.js';
import { gateHeadline, failureColumns } from './gate.js';

// Benchmarks that stopped working (or started) first, then the changes decided slower, then faster,
// each largest first (the first MARKDOWN_CHANGES_SHOWN of each in view, the rest of each folded after
// both, as in the report's Markdown); the rest (same within the band, or undecided) folded under <details>; with more
// than one compared column, the compact overview per suite (render/markdown-parts.js); within GitHub's
// comment limit (render/markdown-parts.js).
export function renderDiffMarkdown(rows, { fileA, fileB, resultA, resultB, failures = null, limit, gate = null, commentLimit = GITHUB_COMMENT_LIMIT } = {}) {
  const statusChanges = rows.filter((r) => !r.comparison && r.before !== r.after);
  const groups = CHANGE_GROUPS.map((verdict) => ({ verdict, rows: rows.filter((r) => isDecidedChange(r) && r.comparison.verdict === verdict).sort((x, y) => changeSize(y) - changeSize(x)) }))
    .filter((g) => g.rows.length);
  const notableSet = new Set([...statusChanges, ...groups.flatMap((g) => g.rows)]);
  const rest = rows.filter((r) => !notableSet.has(r));
  const equivalence = rows.verdicts?.equivalence;
  const cells = (r) => diffRowCells(r, { equivalence });
  // The title and the gate's headline come first and are never cut; a long list of failures or of
  // confirmation lines is cut row by row like a table (with 360 failures the page once said nothing
  // of the gate at all).
  const head = [`## nodebench diff: ${markdownCode(fileA)} → ${markdownCode(fileB)}`, ''];
  const blocks = [];
  if (failures) {
    const headline = gateHeadline(failures, { limit, ...gate });
    head.push(`**${headline.label}**: ${headline.text}`, '');
    blocks.push({ name: 'the title and the gate', head });
    if (failures.length) blocks.push({ name: 'the failing benchmarks', rows: failures.map((f) => `- ${markdownCode(displayName(f.label))}: ${markdownText(failureColumns(f))}`), tail: [''] });
    if (gate?.confirm) blocks.push({ name: "the confirmation's lines", rows: gate.confirm.lines.map((line) => `${markdownText(line)}  `), tail: [''] });
  } else {
    blocks.push({ name: 'the title', head });
  }
  blocks.push({ name: 'the summary', head: [...diffSummaryLines(rows).map((line) => `${markdownText(line)}  `), ''] });
  const table = (name, list, before, after) => tableBlock(name, diffHeader(rows), list.map(cells), { before, after });
  if (statusChanges.length) blocks.push(table('the status changes', statusChanges, [`### Stopped or started working (${statusChanges.length})`, ''], ['']));
  const shown = MARKDOWN_CHANGES_SHOWN;
  const title = (g) => `${g.verdict[0].toUpperCase()}${g.verdict.slice(1)}`;
  for (const g of groups) blocks.push(table(`the decided ${g.verdict} changes`, g.rows.slice(0, shown), [`### ${title(g)} (${g.rows.length}, largest first)`, ''], ['']));
  for (const g of groups.filter((x) => x.rows.length > shown)) {
    blocks.push(table(`the other ${g.verdict} changes`, g.rows.slice(shown), ['<details>', `<summary>${g.rows.length - shown} more decided ${g.verdict}</summary>`, ''], ['', '</details>', '']));
  }
  if (!notableSet.size) blocks.push({ name: 'the changes', head: ['No benchmark decided faster or slower, none changed status.', ''] });
  if (rest.length) {
    // Counted as the headline counts: a row that ran on neither side (unsupported, failed on both)
    // is no comparison, so not "undecided" (the folded count was 141 where the headline said 131).
    const count = (verdict) => rest.filter((r) => r.comparison?.verdict === verdict).length;
    const statuses = [...new Set(rest.filter((r) => !r.comparison).map((r) => r.after))];
    const uncompared = rest.filter((r) => !r.comparison).length;
    const words = [`${count('same')} same within the band`, `${count('undecided')} undecided`, ...(uncompared ? [`${uncompared} not compared (${statuses.join(', ')} on both sides)`] : [])];
    blocks.push(table('the comparisons not decided faster or slower', rest, ['<details>', `<summary>${rest.length} not decided faster or slower: ${words.join(', ')}</summary>`, ''], ['', '</details>', '']));
  }
  const overview = diffOverview(rows);
  if (overview.suites.some((suite) => suite.columns.length > 1)) {
    blocks.push({ name: 'the overview', head: ['### Overview', '', markdownText(overviewLegend(resultA ? measureOfResult(resultA).id === 'instructions' : false)), ''] }, ...overviewBlocks(overview));
  }
  if (rows.metrics?.length) {
    const decided = metricRows(rows.metrics);
    blocks.push({ name: 'the runtime metrics', head: ['### Runtime metrics', '', `${markdownText(metricSummary(rows.metrics))}  `, '', ...(decided.length ? [...markdownTable(METRIC_HEADER, decided), ''] : [])] });
  }
  blocks.push({ name: 'the environments of A and B', head: ['<details>', '<summary>Environment of A and B</summary>', '',
    ...markdownTable(['', 'A', 'B'], environmentRows({ file: fileA, result: resultA }, { file: fileB, result: resultB })), '', '</details>', ''] });
  return fitMarkdown(blocks, { limit: commentLimit, whereFull: markdownCode(`nodebench diff ${fileA} ${fileB} --format html`) });
}
