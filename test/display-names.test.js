// A name of any length is shown cut (issue 40, item 14): a benchmark named with 50 MB made `report`
// write 262 MB to the terminal and an HTML report of 367 MB, a copy of the name in every place it
// is shown. Every view of report, diff, history and explain now shows at most DISPLAY_NAME_CHARS
// of a name (its start and its end around an ellipsis, so names that differ at the end stay
// apart); the result file, JSON and CSV keep it whole. Here a name of 1 MB: every human format of
// every command stays far below one copy of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodebench } from './helpers/cli.js';
import { writeResultFile, okCell, runtimeRecord } from './helpers/result-file.js';
import { displayName, DISPLAY_NAME_CHARS } from '../cli/text/format.js';
import { testRuntime } from './helpers/runtimes.js';
import { explainComparison } from '../cli/explain/index.js';
import { EXPLAIN_FORMATS } from '../cli/explain/formats.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-display-names-'));
const BIG = 1_000_000;
const huge = (tag) => `${tag}-${'x'.repeat(BIG)}-END`;
// Not one copy of a name anywhere (an HTML page's own script is 200 KB), and no long piece of one:
// a name shows DISPLAY_NAME_CHARS at most, a bisect command to copy 1000 (history/render.js).
function small(text, what) {
  assert.ok(text.length < BIG, `${what}: ${text.length} characters`);
  assert.doesNotMatch(text, /x{1000}/, `${what}: shows 1000 characters of a name or more`);
  assert.match(text, /…/, `${what}: no name was cut`);
}

test('displayName keeps a short name, cuts a long one to its start and end around an ellipsis, never inside a surrogate pair', () => {
  assert.equal(displayName('promises/chain-native'), 'promises/chain-native');
  const long = `start-${'y'.repeat(500)}-end`;
  const shown = displayName(long);
  assert.equal(shown.length, DISPLAY_NAME_CHARS);
  assert.ok(shown.startsWith('start-y') && shown.endsWith('y-end') && shown.includes('…'));
  assert.notEqual(displayName(`${long}1`), displayName(`${long}2`), 'names that differ at the end stay apart');
  // As a callback of map, whose index is no limit.
  assert.deepEqual(['s/b', long].map(displayName), ['s/b', shown]);
  const emoji = displayName('😀'.repeat(400));
  assert.doesNotMatch(emoji, /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/, 'a lone surrogate');
});

test('a benchmark, suite, runtime label and flag set of 1 MB each are cut in every human format of report, diff and history; the file, JSON and CSV keep them', { timeout: 600_000 }, async () => {
  const [bench, suite, flagSet] = [huge('bench'), huge('suite'), huge('flags')];
  // Given to diff's --to: one argument of Linux's at most 128 KiB.
  const label = `runtime-${'x'.repeat(100_000)}-END`;
  const cells = [
    okCell(bench, 'ok', { suite, runtimeLabel: '16.20.2', opsPerSec: 1e7 }),
    { ...okCell(bench, 'ok', { suite, runtimeLabel: label, opsPerSec: 5e6 }), runtime: '20.20.2' },
    { ...okCell(bench, 'ok', { suite, runtimeLabel: '16.20.2', opsPerSec: 2e7 }), flagSet },
    okCell(huge('failed'), 'failed', { suite, runtimeLabel: '16.20.2' })
  ];
  cells[3].error = 'it threw';
  // Twice as slow on the second runtime: a decided change, a gate that fails and a change point name it too.
  for (const p of cells[1].processes) p.samplesNsPerOp = p.samplesNsPerOp.map((x) => x * 2);
  const file = writeResultFile(cells, { runtimes: [runtimeRecord('16.20.2'), { ...runtimeRecord(label, '20.20.2') }] });
  const data = JSON.parse(fs.readFileSync(file, 'utf8'));
  data.suites[0].name = suite;
  data.flagSets.push({ name: flagSet, flags: ['--no-opt'] });
  fs.writeFileSync(file, JSON.stringify(data));

  for (const format of ['table', 'markdown', 'html']) {
    const report = await nodebench(['report', file, '--format', format]);
    assert.equal(report.exitCode, 0, report.stderr.slice(0, 2000));
    small(report.stdout + report.stderr, `report --format ${format}`);
  }
  const summary = await nodebench(['report', file, '--summary']);
  small(summary.stdout + summary.stderr, 'report --summary');
  for (const format of ['table', 'markdown', 'html']) {
    const diff = await nodebench(['diff', file, '--from', '16.20.2/baseline', '--to', `${label}/baseline`, '--format', format, '--fail-on-regression', '5']);
    assert.equal(diff.exitCode, 1, diff.stderr.slice(0, 2000));
    small(diff.stdout + diff.stderr, `diff --format ${format}`);
  }
  const store = path.join(dir, 'store');
  const added = await nodebench(['history', 'add', file, '--store', store]);
  assert.equal(added.exitCode, 0, added.stderr.slice(0, 2000));
  for (const format of ['text', 'markdown', 'html']) {
    const shown = await nodebench(['history', 'show', '--store', store, '--format', format]);
    assert.equal(shown.exitCode, 0, shown.stderr.slice(0, 2000));
    small(shown.stdout + shown.stderr, `history show --format ${format}`);
  }
  // Sentences that name what a file holds: the names listed for a benchmark not found.
  const notFound = await nodebench(['explain', file, '--from', '16.20.2/baseline', '--to', '16.20.2/baseline', '--benchmark', 'nope']);
  assert.equal(notFound.exitCode, 2);
  small(notFound.stderr, 'explain\'s sentence for an unknown benchmark');
  // Data formats keep every name whole.
  const csv = await nodebench(['report', file, '--format', 'csv']);
  assert.ok(csv.stdout.includes(bench), 'CSV keeps the name');
  const json = await nodebench(['diff', file, '--from', '16.20.2/baseline', '--to', `${label}/baseline`, '--format', 'json']);
  assert.ok(json.stdout.includes(bench), 'JSON keeps the name');
  assert.ok(fs.readFileSync(file, 'utf8').includes(bench), 'the result file keeps the name');
});

test('explain shows a benchmark named with 1 MB cut in every human format', { timeout: 300_000 }, async () => {
  await testRuntime('20.20.2');
  const suiteFile = path.join(dir, 'long-name.js');
  fs.writeFileSync(suiteFile, `'use strict';
var benchmarks = {};
benchmarks['bench-' + new Array(${BIG + 1}).join('x') + '-END'] = function () { var x = 0; for (var i = 0; i < 2000; i++) x = (x * 31 + i) | 0; return x; };
module.exports = { name: 'long', benchmarks: benchmarks };
`);
  const document = await explainComparison({ suite: suiteFile, from: '20.20.2', to: '20.20.2', benchmark: huge('bench') },
    { processes: 1, metricsProcesses: 0, windowMs: 200, profileDir: path.join(dir, 'profiles') }, { command: ['explain'] });
  for (const format of ['table', 'markdown', 'html']) small(EXPLAIN_FORMATS[format](document, {}), `explain --format ${format}`);
});

// The refusals that name a cell of the file: merge's conflict (the same cell in two files) and
// read's keptSamples check. One sentence, not a copy of a 1 MB name.
test('merge\'s conflict and the keptSamples refusal name a benchmark of 1 MB cut', { timeout: 120_000 }, async () => {
  const bench = huge('bench');
  const file = writeResultFile([okCell(bench, 'ok', { suite: 's' })]);
  const merged = await nodebench(['merge', file, file, '--allow-partial', '--out', path.join(dir, 'merged.json')]);
  assert.equal(merged.exitCode, 2, merged.stderr.slice(0, 2000));
  assert.match(merged.stderr, /is in both/);
  small(merged.stderr, 'merge\'s sentence for a cell in two files');
  const data = JSON.parse(fs.readFileSync(file, 'utf8'));
  data.cells[0].processes[0].keptSamples = [0, 99];
  fs.writeFileSync(file, JSON.stringify(data));
  const report = await nodebench(['report', file]);
  assert.equal(report.exitCode, 2, report.stderr.slice(0, 2000));
  assert.match(report.stderr, /keptSamples/);
  small(report.stderr, 'the keptSamples refusal');
});

// The progress line of a run, in CI a line per failed cell: a suite's 1 MB benchmark name was written
// whole into the log each time.
test('the progress line names a cell of 1 MB names cut', async () => {
  const { createProgress } = await import('../cli/progress.js');
  const lines = [];
  const progress = createProgress({ stream: { isTTY: false, write: (text) => lines.push(text) }, live: false, clock: () => 0 });
  const cell = { runtimeLabel: huge('runtime'), flagSet: huge('flags'), suite: huge('suite'), benchmark: huge('bench') };
  progress.update({ done: 1, total: 1, cell, outcome: { status: 'failed', error: 'it threw' } });
  small(lines.join(''), 'the progress line');
});
