// The Markdown a pull request shows (report and diff), read back as GitHub-flavoured Markdown with
// marked: the decided changes first, slower then faster, each largest first; the rest folded; an overview table per suite
// with the marks; within GitHub's 65,536-character comment limit on a 10,000-cell result, saying
// what was cut and where the full report is. The result is test/fixtures/planted-result.json, a
// real run with a decided faster and a decided slower benchmark.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { marked } from 'marked';
import { root } from './helpers/cli.js';
import { renderMarkdown } from '../cli/report/markdown.js';
import { renderDiffMarkdown } from '../cli/diff/markdown.js';
import { pairCells, diffResults } from '../cli/diff/compare.js';
import { GITHUB_COMMENT_LIMIT, MARKDOWN_CHANGES_SHOWN } from '../cli/render/markdown-parts.js';
import { diffOverview } from '../cli/render/overview.js';
import { heatMapHtml } from '../cli/render/html-parts.js';
import { manySpeedUps } from './helpers/planted.js';

const planted = JSON.parse(fs.readFileSync(path.join(root, 'test', 'fixtures', 'planted-result.json'), 'utf8'));

const tokens = (markdown) => marked.lexer(markdown, { gfm: true });
const tables = (markdown) => tokens(markdown).filter((t) => t.type === 'table');
const cellText = (table) => table.rows.map((r) => r.map((c) => c.text));
const balancedDetails = (markdown) => {
  const lines = markdown.split('\n');
  return lines.filter((l) => l === '<details>').length === lines.filter((l) => l === '</details>').length;
};

// The planted result copied to `count` cells under new benchmark names (every copy keeps the
// measured processes), as bench/report-render.js does.
function copied(count) {
  const cells = [];
  for (let copy = 0; cells.length < count; copy++) {
    for (const cell of planted.cells) {
      if (cells.length >= count) break;
      cells.push({ ...cell, id: cells.length, suite: `suite-${copy % 10}`, benchmark: `${cell.benchmark}-${copy}` });
    }
  }
  return { ...planted, cells };
}

test('report Markdown: the decided changes first, slower then faster, with interval and verdict; the rest folded; an overview per suite', () => {
  const markdown = renderMarkdown(planted);
  const found = tables(markdown);
  const [slower, faster, rest, overview] = found;
  assert.deepEqual(slower.header.map((h) => h.text), ['ratio', 'verdict', 'benchmark', 'column', '95% interval']);
  assert.deepEqual(cellText(slower).map((r) => [r[1], r[2]]), [['slower', 'planted/slower']]);
  assert.deepEqual(cellText(faster).map((r) => [r[1], r[2]]), [['faster', 'planted/quicker']]);
  assert.ok(markdown.indexOf('**Slower** (1, largest first)') < markdown.indexOf('**Faster** (1, largest first)'));
  for (const row of [...cellText(slower), ...cellText(faster)]) assert.match(row[4], /^\[\d+\.\d+x, \d+\.\d+x\]$/);
  // The rest (steady, undecided) sits in a <details> block, after the changes.
  assert.ok(markdown.indexOf('<details>') < markdown.indexOf(rest.raw));
  assert.deepEqual(cellText(rest).map((r) => [r[1], r[2]]), [['undecided', 'planted/steady']]);
  // Overview: benchmarks x columns, decided ratios bold, undecided marked ?.
  assert.deepEqual(overview.header.map((h) => h.text), ['benchmark', '24.21.0/baseline', '24.21.0/--title=nodebench-planted']);
  const byBenchmark = new Map(cellText(overview).map((r) => [r[0], r]));
  assert.equal(byBenchmark.get('quicker')[1], 'base');
  assert.match(overview.rows.find((r) => r[0].text === 'quicker')[2].tokens[0].type, /strong/);
  assert.match(byBenchmark.get('steady')[2], /^\d+\.\d+x\?$/);
  assert.ok(balancedDetails(markdown));
  assert.ok(markdown.length < GITHUB_COMMENT_LIMIT);
  assert.doesNotMatch(markdown, /Cut to fit/);
});

// Issue 39, item 1: thirty large speed-ups and three smaller slowdowns: the slowdowns come first,
// and a group past MARKDOWN_CHANGES_SHOWN folds its rest after both groups.
test('report Markdown shows the slowdowns first when the speed-ups are more and larger, the rest of a group folded', () => {
  const markdown = renderMarkdown(manySpeedUps());
  const [slower, faster, moreFaster] = tables(markdown);
  assert.deepEqual(cellText(slower).map((r) => r[1]), ['slower', 'slower', 'slower']);
  assert.equal(faster.rows.length, MARKDOWN_CHANGES_SHOWN);
  assert.equal(moreFaster.rows.length, 30 - MARKDOWN_CHANGES_SHOWN);
  assert.match(markdown, new RegExp(`<details>\\n<summary>${30 - MARKDOWN_CHANGES_SHOWN} more decided faster</summary>`));
  assert.ok(balancedDetails(markdown));
});

test('report Markdown of 10,000 cells fits a GitHub comment, says what was cut and where the full report is', () => {
  const big = copied(10_000);
  const markdown = renderMarkdown(big, { source: 'big.json' });
  assert.ok(markdown.length <= GITHUB_COMMENT_LIMIT, `${markdown.length} characters`);
  assert.match(markdown, /\*\*Cut to fit GitHub's 65,536-character comment limit\*\*: .*rows of .*\. The full report: `nodebench report big\.json --format html`\./);
  assert.ok(balancedDetails(markdown), 'a cut block still closes its <details>');
  // What is kept is the most wanted: the summary and both groups of decided changes in view, then
  // the rest of each group folded, as far as it fits.
  const [slower, faster, moreSlower] = tables(markdown);
  assert.deepEqual([slower, faster].map((t) => [t.header[0].text, t.rows.length, t.rows[0][1].text]), [['ratio', MARKDOWN_CHANGES_SHOWN, 'slower'], ['ratio', MARKDOWN_CHANGES_SHOWN, 'faster']]);
  assert.ok(moreSlower.rows.length > 100 && moreSlower.rows.every((r) => r[1].text === 'slower'), `${moreSlower.rows.length} more slowdowns kept`);
  assert.ok(tokens(markdown).length > 0);
});

test('diff Markdown: status changes and decided changes largest first; an overview with two or more columns; within the limit', () => {
  const columns = ['24.21.0/baseline', '24.21.0/--title=nodebench-planted'];
  const rows = diffResults(pairCells(planted, planted, { from: columns[0], to: columns[1] }));
  const context = { fileA: 'r.json', fileB: 'r.json', resultA: planted, resultB: planted, failures: null };
  const markdown = renderDiffMarkdown(rows, context);
  const [slower, faster] = tables(markdown);
  assert.deepEqual([slower, faster].map((t) => cellText(t).map((r) => [r[0], r[8]])), [[['planted/slower', 'slower']], [['planted/quicker', 'faster']]]);
  assert.ok(markdown.indexOf('### Slower (1, largest first)') < markdown.indexOf('### Faster (1, largest first)'));
  assert.doesNotMatch(markdown, /### Overview/, 'one compared column: the table is the overview');
  // Two files of two columns each: the overview per suite.
  const both = diffResults(pairCells(planted, planted));
  const withOverview = renderDiffMarkdown(both, context);
  assert.match(withOverview, /### Overview/);
  assert.ok(tables(withOverview).some((t) => t.header.length === 3 && t.header[1].text === '24.21.0/baseline'));
  // 10,000 cells against themselves: cut to the limit, balanced.
  const big = copied(10_000);
  const bigMarkdown = renderDiffMarkdown(diffResults(pairCells(big, big)), { ...context, resultA: big, resultB: big });
  assert.ok(bigMarkdown.length <= GITHUB_COMMENT_LIMIT, `${bigMarkdown.length} characters`);
  assert.match(bigMarkdown, /The full report: `nodebench diff r\.json r\.json --format html`\./);
  assert.ok(balancedDetails(bigMarkdown));
});

test('report Markdown: names with markup, escape codes or 10,000 characters stay in their cell', () => {
  const names = { quicker: `quicker|<details>${'x'.repeat(10_000)}`, slower: 'slower\u001b]0;owned\u0007\n| a | b |', steady: '</details>`steady`' };
  const hostile = { ...planted, cells: planted.cells.map((c) => ({ ...c, benchmark: names[c.benchmark] })) };
  const markdown = renderMarkdown(hostile);
  assert.ok(markdown.length < GITHUB_COMMENT_LIMIT);
  // eslint-disable-next-line no-control-regex -- a raw ESC or BEL is what must not be there
  assert.doesNotMatch(markdown, /[\u001b\u0007]/);
  assert.ok(balancedDetails(markdown));
  for (const table of tables(markdown)) {
    for (const row of table.rows) assert.equal(row.length, table.header.length);
  }
  const [, faster] = tables(markdown);
  assert.ok(faster.rows.some((r) => r[2].text.startsWith('planted/quicker|') && r[2].text.endsWith('xxxx')), faster.rows.map((r) => r[2].text.slice(0, 40)).join(', '));
});

// Issue 39, item 8: the folded section said "141 undecided" where the headline said 131 (ten
// unsupported cells counted as undecided), and the full tables made every ratio bold where the
// legend says bold is decided.
test('diff Markdown counts its folded rows as its headline does; the full tables make only decided ratios bold', () => {
  const columns = ['24.21.0/baseline', '24.21.0/--title=nodebench-planted'];
  const unsupported = { ...planted, cells: planted.cells.map((c) => (c.benchmark === 'steady' && c.flagSet === 'baseline' ? { ...c, status: 'unsupported', error: 'unsupported on this runtime', summary: undefined, processes: [] } : c)) };
  const both = { ...unsupported, cells: unsupported.cells.map((c) => (c.benchmark === 'steady' ? { ...c, status: 'unsupported', error: 'unsupported on this runtime', summary: undefined, processes: [] } : c)) };
  const rows = diffResults(pairCells(both, both, { from: columns[0], to: columns[1] }));
  const markdown = renderDiffMarkdown(rows, { fileA: 'r.json', fileB: 'r.json', resultA: both, resultB: both, failures: null });
  const headline = /(\d+) undecided/.exec(markdown.split('\n').find((l) => l.startsWith('geomean')))[1];
  assert.match(markdown, new RegExp(`<summary>1 not decided faster or slower: 0 same within the band, ${headline} undecided, 1 not compared \\(unsupported on both sides\\)</summary>`));
  const full = renderMarkdown(planted);
  const fullRow = (name) => full.split('\n').find((l) => l.startsWith(`| ${name} | `) && l.includes('(base)'));
  assert.match(fullRow('quicker'), /\*\*19\.00x\*\* \[/);
  assert.match(fullRow('steady'), / 1\.00x\? \[/);
  assert.doesNotMatch(fullRow('steady'), /\*\*/);
});

// A row unsupported on both sides is "unsupported" in diff's overview ("n/s" on the page), not
// "unsupported -> unsupported", which set the width of a whole heat-map column (issue 39, item 3).
test('diff\'s overview names a status both sides share once', () => {
  const columns = ['24.21.0/baseline', '24.21.0/--title=nodebench-planted'];
  const both = { ...planted, cells: planted.cells.map((c) => (c.benchmark === 'steady' ? { ...c, status: 'unsupported', error: 'unsupported on this runtime', summary: undefined, processes: [] } : c)) };
  const overview = diffOverview(diffResults(pairCells(both, both, { from: columns[0], to: columns[1] })));
  const steady = overview.suites[0].rows.find((r) => r.benchmark === 'steady');
  assert.equal(steady.cells[0].status, 'unsupported');
  assert.match(heatMapHtml(overview.suites[0]), /data-verdict="unsupported"[^>]*>n\/s</);
});
