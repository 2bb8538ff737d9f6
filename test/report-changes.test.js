// The terminal's "what changed" (cli/report/changes.js): the end of `report`, `matrix` and `run`,
// and all that --summary prints: the verdict counts, the decided changes slower then faster, each
// largest first (at most CHANGES_SHOWN lines each), the geometric mean per column; names shown escaped. On test/fixtures/planted-result.json,
// a real run with a decided faster and a decided slower benchmark.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { root, nodebench } from './helpers/cli.js';
import { renderTerminal, renderChanges } from '../cli/report/table.js';
import { CHANGES_SHOWN } from '../cli/report/changes.js';
import { reportOverview } from '../cli/render/overview.js';
import { manySpeedUps } from './helpers/planted.js';
import { summaryHtml } from '../cli/render/html-parts.js';
import { cellWarningLines, reportWarningLines } from '../cli/render/run-warnings.js';
import { renderMarkdown } from '../cli/report/markdown.js';
import { renderHtml } from '../cli/report/html.js';
import { renderDiffMarkdown } from '../cli/diff/markdown.js';
import { renderDiffPage } from '../cli/diff/html.js';
import { compareResults } from '../cli/diff/compare.js';
import { DIFF_FORMATS } from '../cli/diff/formats.js';

const planted = JSON.parse(fs.readFileSync(path.join(root, 'test', 'fixtures', 'planted-result.json'), 'utf8'));
// eslint-disable-next-line no-control-regex -- a raw control character is what must not be there
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

test('the terminal report ends with what changed, slower then faster, each largest first; summary prints only that', () => {
  const full = renderTerminal(planted);
  const changes = renderChanges(planted);
  // Under what changed, the run's own warnings about its machine (the fixture's load at start and end).
  const warned = 'warning: the load average at the start was 1.16 (1 min) on 2 cores, above 0.5 per core: other programs compete for the CPU and show up as noise; stop them (see top) or expect wider intervals.\n' +
    'warning: the load average at the end was 2.15 (1 min) on 2 cores, above 0.5 per core: other programs compete for the CPU and show up as noise; stop them (see top) or expect wider intervals.\n';
  assert.ok(full.endsWith(`\n${changes}${warned}`), 'the last lines of the report');
  assert.ok(renderTerminal(planted, { runWarnings: false }).endsWith(`\n${changes}`), 'the end of a run says its warnings on stderr instead');
  const lines = changes.trimEnd().split('\n');
  assert.match(lines[0], /^What changed against 24\.21\.0\/baseline: 1 faster, 1 slower, 0 same within ±2%, 1 undecided of 3 ratios$/);
  assert.equal(lines[1], '  slower (1, largest first):');
  assert.equal(lines[3], '  faster (1, largest first):');
  const rows = [lines[2], lines[4]].map((line) => line.trim().split(/\s{2,}/));
  const decided = reportOverview(planted).changes;
  assert.deepEqual(rows.map((r) => r[3]), decided.map((c) => `planted/${c.benchmark}`));
  assert.deepEqual(rows.map((r) => r[2]), ['slower', 'faster']);
  for (const r of rows) assert.match(r[1], /^\[\d+\.\d+x, \d+\.\d+x\]$/);
  assert.match(lines.at(-1), /geometric mean of the ratios per column: 24\.21\.0\/--title=nodebench-planted \d+\.\d+x$/);
  // Without the tables, the summary counts the cells' warnings once (the tables do it per suite).
  const cellWarned = 'warning: 4 cells had far-outlier samples (other programs competing for the CPU); ' +
    '2 cells had processes disagreeing by more than 5% (noisy machine: use more processes); ' +
    '5 cells had processes set aside because the machine was disturbed while they ran (replaced)\n';
  assert.equal(renderTerminal(planted, { summary: true }), `${changes}${cellWarned}${warned}`);
});

test('what changed ends with the smallest change the run could detect, when the run recorded it', async () => {
  const { detectableChange } = await import('../cli/stats/detectable.js');
  const { grid } = await import('../cli/results/grid.js');
  const withDetectable = { ...planted, schedule: { ...planted.schedule, detectableChange: detectableChange(grid(planted), planted.cells) } };
  const last = renderChanges(withDetectable).trimEnd().split('\n').at(-1);
  assert.match(last, /^ {2}smallest change this run detects 80% of the time .*: a ratio to the baseline column changed by \d+\.\d% \(median over 3;/);
});

test('what changed stays short on a large result and says how many more there are', () => {
  const cells = [];
  for (let copy = 0; copy < 100; copy++) for (const cell of planted.cells) cells.push({ ...cell, id: cells.length, benchmark: `${cell.benchmark}-${copy}` });
  const lines = renderChanges({ ...planted, cells }).trimEnd().split('\n');
  // The title, per group its heading, CHANGES_SHOWN rows and how many more; where every one is; the means.
  assert.equal(lines.length, 1 + 2 * (1 + CHANGES_SHOWN + 1) + 2);
  assert.equal(lines[2 + CHANGES_SHOWN], `    … and ${100 - CHANGES_SHOWN} more slower`);
  assert.equal(lines.at(-3), `    … and ${100 - CHANGES_SHOWN} more faster`);
  assert.match(lines.at(-2), /^ {2}every decided change: nodebench report <file> --format markdown or html$/);
});

// Issue 39, item 1: every slowdown in view, first, though the speed-ups are more and larger.
test('what changed shows the slowdowns first when the speed-ups are more and larger (issue 39, item 1)', () => {
  const result = manySpeedUps();
  const overview = reportOverview(result);
  assert.deepEqual(overview.changes.slice(0, 3).map((c) => c.verdict), ['slower', 'slower', 'slower']);
  assert.ok(overview.changes.slice(0, 3).every((c) => c.ratio > 0.4 && c.ratio < 0.7), 'the slowdowns are smaller than the speed-ups');
  const lines = renderChanges(result).trimEnd().split('\n');
  assert.equal(lines[1], '  slower (3, largest first):');
  assert.deepEqual(lines.slice(2, 5).map((line) => line.trim().split(/\s{2,}/)[3]).sort(), ['planted/slower-0', 'planted/slower-1', 'planted/slower-2']);
  assert.equal(lines[5], '  faster (30, largest first):');
  assert.equal(lines[6 + CHANGES_SHOWN], `    … and ${30 - CHANGES_SHOWN} more faster`);
});

test('what changed shows names with their control characters escaped, and nothing for one column', () => {
  const hostile = { ...planted, cells: planted.cells.map((c) => ({ ...c, benchmark: `${c.benchmark}\u001b]0;owned\u0007\n` })) };
  const text = renderChanges(hostile, { color: true });
  assert.match(text, /planted\/quicker\\x1b\]0;owned\\x07\\n/);
  // eslint-disable-next-line no-control-regex -- nodebench's own colour codes are taken out first
  assert.doesNotMatch(text.replace(/\u001b\[[0-9;]*m/g, '').replace(/\n/g, ''), RAW_CONTROL);
  // Its cells without their own warnings: what is left to say is the run's.
  const oneColumn = { ...planted, flagSets: planted.flagSets.slice(0, 1), cells: planted.cells.filter((c) => c.flagSet === 'baseline').map((c) => ({ ...c, warnings: [] })) };
  assert.equal(renderChanges(oneColumn), '');
  assert.match(renderTerminal({ ...oneColumn, warnings: [] }, { summary: true }), /^No ratio to show[^\n]*\n$/);
  const governor = { code: 'governor', message: 'the CPU frequency governor is "\u001b[2Jx", not "performance"' };
  assert.match(renderTerminal({ ...oneColumn, warnings: [governor] }, { summary: true }), /^No ratio to show[^\n]*\nwarning: the CPU frequency governor is "\\x1b\[2Jx", not "performance"\n$/);
});

test('nodebench report --summary prints only what changed', async () => {
  const file = path.join(root, 'test', 'fixtures', 'planted-result.json');
  const run = await nodebench(['report', file, '--summary']);
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout.trimEnd(), `${renderChanges(planted)}${cellWarningLines(planted.cells).join('\n')}\n${planted.warnings.map((w) => `warning: ${w.message}`).join('\n')}`);
});

// A library file's benchmarks that nodebench timed otherwise than in batches, or with a collection
// before each sample (mitata gc('inner')), are named under the suite's terminal table.
test('the terminal table says which benchmarks were timed by their own loop, call by call, or after a collection', () => {
  const suite = planted.suites[0];
  const benchmarks = [{ name: 'quicker', timing: 'managed' }, { name: 'slower', timing: 'per-call' }, { name: 'steady', gcBeforeSample: true }];
  const text = renderTerminal({ ...planted, suites: [{ ...suite, benchmarks }, ...planted.suites.slice(1)] });
  assert.match(text, /\n {2}timed by their own loop on nodebench's clock: quicker\n/);
  assert.match(text, /\n {2}timed call by call, the clock's cost subtracted: slower\n/);
  assert.match(text, /\n {2}a garbage collection before each sample, outside the timing \(gc\('inner'\)\): steady\n/);
  assert.doesNotMatch(renderTerminal(planted), /timed by their own loop|garbage collection before each sample/);
});

test('the HTML overview lists the slowdowns first, each group largest first, the rest of a group one click away (issue 39, item 1)', () => {
  const html = summaryHtml(reportOverview(manySpeedUps()));
  const groups = [...html.matchAll(/<h4 class="changes (\w+)">(\w+) \((\d+), largest first\)<\/h4><table class="changes"><tbody>(.*?)<\/tbody><\/table>(<details class="changes"><summary>([^<]*)<\/summary><table class="changes"><tbody>(.*?)<\/tbody>)?/g)]
    .map((m) => ({ verdict: m[1], count: Number(m[3]), inView: m[4].split('<tr>').length - 1, more: m[6] ?? null, folded: m[7] ? m[7].split('<tr>').length - 1 : 0 }));
  assert.deepEqual(groups, [
    { verdict: 'slower', count: 3, inView: 3, more: null, folded: 0 },
    { verdict: 'faster', count: 30, inView: 10, more: '20 more faster', folded: 20 }
  ]);
});

// Issue 39, item 2: the terminal said "16 cells had processes disagreeing by more than 5%", "20 cells
// stayed above the target margin" and the smallest change the run detects; the Markdown for a PR and
// the HTML report said only the load average. Every format now says the same lines.
test('the cells\' warnings, the smallest detectable change and the run\'s warnings are in the terminal, Markdown and HTML of report and diff (issue 39, item 2)', async () => {
  const { detectableChange } = await import('../cli/stats/detectable.js');
  const { grid } = await import('../cli/results/grid.js');
  const result = { ...planted, schedule: { ...planted.schedule, detectableChange: detectableChange(grid(planted), planted.cells) } };
  const lines = reportWarningLines(result);
  const wanted = [/^warning: .*2 cells had processes disagreeing by more than 5%.*; 5 cells had processes set aside because the machine was disturbed/,
    /^smallest change this run detects 80% of the time/, /^warning: the load average at the start was 1\.16/];
  for (const re of wanted) assert.ok(lines.some((line) => re.test(line)), `${re} in ${lines.join(' | ')}`);
  const terminal = renderTerminal(result);
  const markdown = renderMarkdown(result);
  const html = renderHtml(result).replace(/&#39;/g, "'").replace(/&quot;/g, '"');
  for (const line of lines) {
    // The terminal says the cells' warnings under their suite's table ("  warnings: ...").
    assert.ok(terminal.includes(line.replace(/^warning: (\d+ cells? )/, '  warnings: $1')), `terminal: ${line}`);
    assert.ok(markdown.includes(line.replace(/\*/g, '\\*')), `Markdown: ${line}`);
    assert.ok(html.includes(`<p>${line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</p>`), `HTML: ${line}`);
  }
  // diff: each side's cells counted, in its Markdown and on its page.
  const rows = compareResults(result, result, { from: '24.21.0/baseline', to: '24.21.0/--title=nodebench-planted', fileA: 'r.json', fileB: 'r.json' });
  const context = { fileA: 'r.json', fileB: 'r.json', resultA: result, resultB: result };
  const diffMarkdown = renderDiffMarkdown(rows, context);
  const diffHtml = renderDiffPage(rows, context);
  for (const re of [/warning \(A\): [^\n]*\d+ cells? had processes disagreeing/, /warning \(B\): \d+ cells? had far-outlier samples/, /warning: the load average at the start/]) {
    assert.match(diffMarkdown, re);
    assert.match(diffHtml, re);
  }
});

test('diff\'s JSON carries each side\'s cells\' warnings as its other formats say them (issue 39, item 2)', () => {
  const rows = compareResults(planted, planted, { from: '24.21.0/baseline', to: '24.21.0/--title=nodebench-planted', fileA: 'r.json', fileB: 'r.json' });
  const json = JSON.parse(DIFF_FORMATS.json({ rows, context: { fileA: 'r.json', fileB: 'r.json', resultA: planted, resultB: planted } }, {}));
  assert.equal(json.cellWarnings.length, 2);
  assert.match(json.cellWarnings[0], /^warning \(A\): \d+ cells? had far-outlier samples/);
  assert.match(json.cellWarnings[1], /^warning \(B\): /);
  for (const line of json.cellWarnings) assert.ok(renderDiffMarkdown(rows, { fileA: 'r.json', fileB: 'r.json', resultA: planted, resultB: planted }).includes(line), line);
});
