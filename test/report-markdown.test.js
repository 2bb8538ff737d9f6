// The Markdown a pull request shows (report and diff), read back as GitHub-flavoured Markdown with
// marked: the decided changes first, largest first; the rest folded; an overview table per suite
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
import { reportOverview } from '../cli/render/overview.js';
import { renderDiffMarkdown } from '../cli/diff/render.js';
import { pairCells, diffResults } from '../cli/diff/compare.js';
import { GITHUB_COMMENT_LIMIT } from '../cli/render/markdown-parts.js';

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

test('report Markdown: the decided changes first, largest first, with interval and verdict; the rest folded; an overview per suite', () => {
  const markdown = renderMarkdown(planted);
  const found = tables(markdown);
  const [changes, rest, overview] = found;
  assert.deepEqual(changes.header.map((h) => h.text), ['ratio', 'verdict', 'benchmark', 'column', '95% interval']);
  const decided = reportOverview(planted).changes;
  assert.deepEqual(decided.map((c) => c.verdict).sort(), ['faster', 'slower']);
  assert.deepEqual(cellText(changes).map((r) => r[2]), decided.map((c) => `planted/${c.benchmark}`));
  const sizes = decided.map((c) => Math.abs(Math.log(c.ratio)));
  assert.deepEqual(sizes, [...sizes].sort((a, b) => b - a), 'largest first');
  for (const row of cellText(changes)) assert.match(row[4], /^\[\d+\.\d+x, \d+\.\d+x\]$/);
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

test('report Markdown of 10,000 cells fits a GitHub comment, says what was cut and where the full report is', () => {
  const big = copied(10_000);
  const markdown = renderMarkdown(big, { source: 'big.json' });
  assert.ok(markdown.length <= GITHUB_COMMENT_LIMIT, `${markdown.length} characters`);
  assert.match(markdown, /\*\*Cut to fit GitHub's 65,536-character comment limit\*\*: .*rows of .*\. The full report: `nodebench report big\.json --format html`\./);
  assert.ok(balancedDetails(markdown), 'a cut block still closes its <details>');
  // What is kept is the most wanted: the summary and the decided changes, largest first.
  const [changes] = tables(markdown);
  assert.equal(changes.header[0].text, 'ratio');
  assert.ok(changes.rows.length > 100, `${changes.rows.length} changes kept`);
  assert.ok(tokens(markdown).length > 0);
});

test('diff Markdown: status changes and decided changes largest first; an overview with two or more columns; within the limit', () => {
  const columns = ['24.21.0/baseline', '24.21.0/--title=nodebench-planted'];
  const rows = diffResults(pairCells(planted, planted, { from: columns[0], to: columns[1] }));
  const context = { fileA: 'r.json', fileB: 'r.json', resultA: planted, resultB: planted, failures: null };
  const markdown = renderDiffMarkdown(rows, context);
  const [notable] = tables(markdown);
  const sizes = cellText(notable).map((r) => Math.abs(Math.log(1 + parseFloat(r[4]) / 100)));
  assert.equal(sizes.length, 2);
  assert.deepEqual(sizes, [...sizes].sort((a, b) => b - a));
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
  const [changes] = tables(markdown);
  assert.ok(changes.rows.some((r) => r[2].text.startsWith('planted/quicker|') && r[2].text.endsWith('xxxx')), changes.rows.map((r) => r[2].text.slice(0, 40)).join(', '));
});
