// Run options as the user gave them, and where a run writes (issue 39, item 10): `--processes 3`
// kept 8 processes per cell (the matrix's maxProcesses topped cells up past it), `--quick` inherited
// the matrix's 18.5-minute time budget ("time budget ends in 18m30s"), and `run` and `exec` made
// ./results/ in the user's project without a word. Real runs of the smoke suite on this Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { nodebench, root } from './helpers/cli.js';

const SMOKE = path.join(root, 'test', 'fixtures', 'suites', 'smoke', 'index.js');
const SHORT = ['--samples', '3', '--benchmarks', 'sum-loop'];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-defaults-'));
const read = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

test('--processes N alone is the processes a cell keeps: no top-ups past it', { timeout: 240_000 }, async () => {
  const out = path.join(dir, 'three.json');
  // A target no cell meets, so that a ceiling above 3 would be used.
  const run = await nodebench(['run', SMOKE, ...SHORT, '--processes', '3', '--target-rme', '0.1', '--out', out]);
  assert.equal(run.exitCode, 0, run.stderr);
  const result = read(out);
  assert.equal(result.run.maxProcesses, 3);
  for (const cell of result.cells) assert.ok(cell.processes.filter((p) => !p.rerun).length <= 3, `${cell.benchmark}: ${cell.processes.length} processes`);
  // With --max-processes, top-ups go on as asked.
  const more = path.join(dir, 'more.json');
  const topped = await nodebench(['run', SMOKE, ...SHORT, '--processes', '2', '--max-processes', '3', '--target-rme', '0.1', '--out', more]);
  assert.equal(topped.exitCode, 0, topped.stderr);
  assert.equal(read(more).run.maxProcesses, 3);
});

test('--quick does not take the matrix file\'s time budget; --time-budget keeps one', { timeout: 240_000 }, async () => {
  const matrix = path.join(dir, 'budget.yaml');
  fs.writeFileSync(matrix, YAML.stringify({ runtimes: ['system'], suites: [{ name: SMOKE, benchmarks: ['sum-loop'] }], run: { timeBudgetMin: 18.5, samples: 3 } }));
  const out = path.join(dir, 'quick.json');
  const quick = await nodebench(['matrix', '--matrix', matrix, '--quick', '--out', out]);
  assert.equal(quick.exitCode, 0, quick.stderr);
  assert.doesNotMatch(quick.stderr, /time budget/);
  assert.equal(read(out).run.timeBudgetMin, undefined);
  const kept = path.join(dir, 'kept.json');
  const asked = await nodebench(['matrix', '--matrix', matrix, '--quick', '--time-budget', '5', '--out', kept]);
  assert.equal(asked.exitCode, 0, asked.stderr);
  assert.equal(read(kept).run.timeBudgetMin, 5);
});

test('run says where it writes when it makes ./results/ in the current folder', { timeout: 240_000 }, async () => {
  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-project-'));
  const first = await nodebench(['run', SMOKE, ...SHORT, '--quick'], { cwd: project });
  assert.equal(first.exitCode, 0, first.stderr);
  const [file] = fs.readdirSync(path.join(project, 'results'));
  assert.match(first.stderr, new RegExp(`^writing the result to results/${file.replace(/\./g, '\\.')}: a new folder results/ in ${project}; --out FILE writes elsewhere$`, 'm'));
  // The folder is there now: said once, not on every run.
  const second = await nodebench(['run', SMOKE, ...SHORT, '--quick'], { cwd: project });
  assert.equal(second.exitCode, 0, second.stderr);
  assert.doesNotMatch(second.stderr, /a new folder/);
});

// Issue 39, item 13: a file whose operation took 16 s spent 95 s in one --quick process (a
// calibration call, a warm-up call, then at least three samples). --quick takes one sample once
// maxSampleMs (1 s under --quick) runs out; without --quick a process still takes three.
test('--quick takes one sample of an operation longer than its sampling cap; a full run takes three', { timeout: 240_000 }, async () => {
  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-slow-op-'));
  const suite = path.join(project, 'slow.js');
  fs.writeFileSync(suite, [
    "'use strict';",
    'module.exports = { name: \'slow-op\', benchmarks: { second: function () {',
    '  var end = Date.now() + 1100; var n = 0;',
    '  while (Date.now() < end) n++;',
    '  return n;',
    '} } };',
    ''
  ].join('\n'));
  const samplesOf = async (args, name) => {
    const out = path.join(project, `${name}.json`);
    const run = await nodebench(['run', suite, '--processes', '1', '--out', out, ...args], { cwd: project });
    assert.equal(run.exitCode, 0, run.stderr);
    const cell = read(out).cells[0];
    assert.equal(cell.status, 'ok', cell.error);
    return cell.processes[0].samplesNsPerOp.length;
  };
  assert.equal(await samplesOf(['--quick'], 'quick'), 1);
  assert.equal(await samplesOf(['--samples', '5'], 'full'), 3);
});
