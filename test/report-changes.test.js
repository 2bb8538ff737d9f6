// The terminal's "what changed" (cli/report/changes.js): the end of `report`, `matrix` and `run`,
// and all that --summary prints: the verdict counts, the decided changes largest first (at most 15
// lines), the geometric mean per column; names shown escaped. On test/fixtures/planted-result.json,
// a real run with a decided faster and a decided slower benchmark.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { root, nodebench } from './helpers/cli.js';
import { renderTerminal, renderChanges } from '../cli/report/terminal.js';
import { CHANGES_SHOWN } from '../cli/report/changes.js';
import { reportOverview } from '../cli/render/overview.js';

const planted = JSON.parse(fs.readFileSync(path.join(root, 'test', 'fixtures', 'planted-result.json'), 'utf8'));
// eslint-disable-next-line no-control-regex -- a raw control character is what must not be there
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

test('the terminal report ends with what changed, largest first; summary prints only that', () => {
  const full = renderTerminal(planted);
  const changes = renderChanges(planted);
  // Under what changed, the run's own warnings about its machine (the fixture's load at start and end).
  const warned = 'warning: the load average at the start was 1.16 (1 min) on 2 cores, above 0.5 per core: other programs compete for the CPU and show up as noise; stop them (see top) or expect wider intervals.\n' +
    'warning: the load average at the end was 2.15 (1 min) on 2 cores, above 0.5 per core: other programs compete for the CPU and show up as noise; stop them (see top) or expect wider intervals.\n';
  assert.ok(full.endsWith(`\n${changes}${warned}`), 'the last lines of the report');
  assert.ok(renderTerminal(planted, { runWarnings: false }).endsWith(`\n${changes}`), 'the end of a run says its warnings on stderr instead');
  const lines = changes.trimEnd().split('\n');
  assert.match(lines[0], /^What changed against 24\.21\.0\/baseline: 1 faster, 1 slower, 0 same within ±2%, 1 undecided of 3 ratios$/);
  const rows = lines.slice(1, 3).map((line) => line.trim().split(/\s{2,}/));
  // Largest first by the ratio itself (the printed one is rounded: 0.053x shows as 0.05x).
  const decided = reportOverview(planted).changes;
  assert.deepEqual(rows.map((r) => r[3]), decided.map((c) => `planted/${c.benchmark}`));
  const sizes = decided.map((c) => Math.abs(Math.log(c.ratio)));
  assert.deepEqual(sizes, [...sizes].sort((a, b) => b - a));
  assert.deepEqual(rows.map((r) => r[2]).sort(), ['faster', 'slower']);
  for (const r of rows) assert.match(r[1], /^\[\d+\.\d+x, \d+\.\d+x\]$/);
  assert.match(lines.at(-1), /geometric mean of the ratios per column: 24\.21\.0\/--title=nodebench-planted \d+\.\d+x$/);
  assert.equal(renderTerminal(planted, { summary: true }), `${changes}${warned}`);
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
  assert.equal(lines.length, 1 + CHANGES_SHOWN + 2);
  assert.match(lines.at(-2), /^ {2}… and 185 more decided; every one: nodebench report <file> --format markdown or html$/);
});

test('what changed shows names with their control characters escaped, and nothing for one column', () => {
  const hostile = { ...planted, cells: planted.cells.map((c) => ({ ...c, benchmark: `${c.benchmark}\u001b]0;owned\u0007\n` })) };
  const text = renderChanges(hostile, { color: true });
  assert.match(text, /planted\/quicker\\x1b\]0;owned\\x07\\n/);
  // eslint-disable-next-line no-control-regex -- nodebench's own colour codes are taken out first
  assert.doesNotMatch(text.replace(/\u001b\[[0-9;]*m/g, '').replace(/\n/g, ''), RAW_CONTROL);
  const oneColumn = { ...planted, flagSets: planted.flagSets.slice(0, 1), cells: planted.cells.filter((c) => c.flagSet === 'baseline') };
  assert.equal(renderChanges(oneColumn), '');
  assert.match(renderTerminal({ ...oneColumn, warnings: [] }, { summary: true }), /^No ratio to show[^\n]*\n$/);
  const governor = { code: 'governor', message: 'the CPU frequency governor is "\u001b[2Jx", not "performance"' };
  assert.match(renderTerminal({ ...oneColumn, warnings: [governor] }, { summary: true }), /^No ratio to show[^\n]*\nwarning: the CPU frequency governor is "\\x1b\[2Jx", not "performance"\n$/);
});

test('nodebench report --summary prints only what changed', async () => {
  const file = path.join(root, 'test', 'fixtures', 'planted-result.json');
  const run = await nodebench(['report', file, '--summary']);
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout.trimEnd(), `${renderChanges(planted)}${planted.warnings.map((w) => `warning: ${w.message}`).join('\n')}`);
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
