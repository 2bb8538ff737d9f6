// The backbone end to end: matrix.yaml -> real Node 4.9.1 and 16.x (installed by nodebench) ->
// worker processes -> result file -> tables. Asserts on the result file, validated by the schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodebench, root } from './helpers/cli.js';
import { schemaErrors } from './helpers/schema.js';
import { taggedBy } from './helpers/processes.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-it-'));
const out = path.join(tmp, 'result.json');
let run;
let runPid;

test('nodebench matrix runs the smoke matrix on Node 4.9.1 and 16.x', { timeout: 600_000 }, async () => {
  const subprocess = nodebench(['matrix', '--matrix', path.join(root, 'test', 'fixtures', 'smoke-matrix.yaml'), '--out', out]);
  runPid = subprocess.pid;
  run = await subprocess;
  // Failing and hanging cells make the exit code 1; everything else still ran.
  assert.equal(run.exitCode, 1, run.stderr);
  assert.ok(fs.existsSync(out));
});

test('the result file validates against the shipped schema', () => {
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.deepEqual(schemaErrors(result), []);
  assert.equal(result.status, 'complete');
  assert.equal(result.schedule.seed, 12345);
});

test('both runtimes are recorded with exact versions, V8 versions and checksums', () => {
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  const versions = result.runtimes.map((r) => r.version);
  assert.equal(versions[0], '4.9.1');
  assert.match(versions[1], /^16\.\d+\.\d+$/);
  assert.equal(result.runtimes[0].v8, '4.5.103.53');
  assert.match(result.runtimes[1].v8, /^9\.\d+/);
  for (const r of result.runtimes) assert.match(r.sha256, /^[0-9a-f]{64}$/);
});

test('honest cells are ok with positive rates, two processes each, on both runtimes and flag sets', () => {
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  for (const name of ['sum-loop', 'promise-chain', 'noisy-output']) {
    const cells = result.cells.filter((c) => c.benchmark === name);
    assert.equal(cells.length, 4);
    for (const cell of cells) {
      assert.equal(cell.status, 'ok', `${name} on ${cell.runtime}/${cell.flagSet}: ${cell.error}`);
      assert.ok(cell.summary.opsPerSec > 0);
      // Two rounds; processes set aside as disturbed stay in the file beside their replacements.
      assert.deepEqual([...new Set(cell.processes.map((p) => p.round))].sort(), [0, 1]);
      assert.ok(cell.summary.processes >= 2);
      assert.ok(cell.processes.every((p) => p.samplesNsPerOp.length === 4));
    }
  }
  const promise = result.cells.find((c) => c.benchmark === 'promise-chain');
  assert.equal(promise.benchmarkType, 'promise');
});

test('a throwing benchmark fails, a hanging one times out, each with its reason', () => {
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  for (const cell of result.cells.filter((c) => c.benchmark === 'throws')) {
    assert.equal(cell.status, 'failed');
    assert.match(cell.error, /deliberate failure in the smoke suite/);
  }
  for (const cell of result.cells.filter((c) => c.benchmark === 'hangs')) {
    assert.equal(cell.status, 'timeout');
    assert.match(cell.error, /did not finish within 10 s/);
  }
});

test('a benchmark needing a newer runtime is unsupported on 4.9.1 and runs on 16', () => {
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  const cells = result.cells.filter((c) => c.benchmark === 'needs-async-await');
  for (const cell of cells.filter((c) => c.runtime === '4.9.1')) {
    assert.equal(cell.status, 'unsupported');
    assert.equal(cell.error, 'unsupported on Node 4.9.1 (needs >= 7.6.0): async functions');
  }
  for (const cell of cells.filter((c) => c.runtime !== '4.9.1')) assert.equal(cell.status, 'ok');
});

test('the tables show rates, ratios and reasons', () => {
  assert.match(run.stdout, /smoke(?: \[baseline\])? {2}\(ops\/s ±95% margin, ratio to 4\.9\.1\/baseline \[95% interval\]; a flag set's column against the same runtime's baseline column\)/);
  assert.match(run.stdout, /sum-loop\s+\S+ (?:±[\d.]+%|\(no estimate\)) \(base\)/);
  assert.match(run.stdout, /throws\s+FAILED/);
  assert.match(run.stdout, /hangs\s+TIMEOUT/);
  assert.match(run.stdout, /needs-async-await on 4\.9\.1: unsupported on Node 4\.9\.1 \(needs >= 7\.6\.0\): async functions/);
  assert.match(run.stdout, /throws on 4\.9\.1: failed: threw: deliberate failure in the smoke suite/);
  // Data on stdout, progress on stderr.
  assert.doesNotMatch(run.stdout, /cells \(/);
  assert.match(run.stderr, /cells \(\d+ to run, \d+ unsupported\)/);
});

// By the tag every worker of that nodebench process carries in its environment (other tests run
// the smoke suite at the same time, so a look at `ps` alone would see their workers).
test('no worker process is left behind', () => {
  assert.ok(runPid > 0);
  assert.deepEqual(taggedBy(runPid), []);
});

test('every ok cell has runtime metrics from a separate process, each with its method', () => {
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  for (const cell of result.cells.filter((c) => c.status === 'ok')) {
    const m = cell.metrics;
    assert.ok(m && !m.error, `${cell.benchmark} on ${cell.runtime}: ${m && m.error}`);
    assert.match(m.gc.method, /--trace-gc/);
    assert.ok(m.gc.windowMs > 0 && m.gc.gcShare >= 0 && m.gc.gcShare < 1);
    assert.ok(m.cpuNsPerOp > 0 && m.wallNsPerOp > 0);
    assert.ok(m.memory.peakRssBytes > 0);
    assert.match(m.memory.peakRssMethod, cell.runtime === '4.9.1' ? /VmHWM/ : /resourceUsage/);
    if (cell.benchmarkType === 'promise') assert.ok(m.eventLoopDelay.p99Ms >= 0);
    else assert.match(m.eventLoopDelay.method, /^n\/a: /);
  }
  // The promise chain allocates: scavenges are seen on both runtimes.
  for (const cell of result.cells.filter((c) => c.benchmark === 'promise-chain')) assert.ok(cell.metrics.gc.scavenges > 0);
});

test('a time budget that the first rounds use up runs no top-ups or replacements, and says so', { timeout: 120_000 }, async () => {
  const limited = path.join(tmp, 'budget.json');
  const run = await nodebench(['run', path.join(root, 'test', 'fixtures', 'suites', 'smoke', 'index.js'), '--node', 'system',
    '--benchmarks', 'sum-loop', '--processes', '2', '--max-processes', '6', '--target-rme', '0.1', '--samples', '3',
    '--time-budget', '0.01', '--out', limited]);
  assert.equal(run.exitCode, 0, run.stderr);
  const result = JSON.parse(fs.readFileSync(limited, 'utf8'));
  const [cell] = result.cells;
  // The first rounds and the metrics process run whatever the budget; nothing else fits in 0.6 s.
  assert.deepEqual(cell.processes.map((p) => p.round).sort(), [0, 1]);
  assert.ok(cell.metrics && !cell.metrics.error);
  assert.equal(result.run.timeBudgetMin, 0.01);
  assert.equal(result.schedule.timeBudget.minutes, 0.01);
  if (cell.summary.rme > 0.1) {
    assert.equal(result.schedule.timeBudget.reached, true);
    assert.ok(result.schedule.timeBudget.skipped.topUps >= 1);
    assert.match(run.stderr, /time budget of 0\.01 min \(run\.timeBudgetMin\) reached/);
    assert.match(cell.warnings.map((w) => w.message).join('\n'), /time budget \(run\.timeBudgetMin\) left no room/);
  }
  assert.deepEqual(schemaErrors(result), []);
});

test('cells whose margin is above the target get more processes, up to maxProcesses, and say so', { timeout: 120_000 }, async () => {
  const topUp = path.join(tmp, 'top-up.json');
  const run = await nodebench(['run', path.join(root, 'test', 'fixtures', 'suites', 'smoke', 'index.js'), '--node', 'system',
    '--benchmarks', 'sum-loop', '--processes', '2', '--max-processes', '4', '--target-rme', '0.1', '--samples', '3', '--out', topUp]);
  assert.equal(run.exitCode, 0, run.stderr);
  const result = JSON.parse(fs.readFileSync(topUp, 'utf8'));
  const [cell] = result.cells;
  // Rounds were added for the target (up to maxProcesses); processes set aside as disturbed (a busy
  // machine) stay in the file beside their replacements.
  assert.ok(cell.processes.length > 2, 'more processes than the first 2 ran (top-up rounds or replacements)');
  assert.ok(cell.processes.every((p) => p.round <= 3), 'no round past maxProcesses');
  const quiet = cell.processes.filter((p) => !p.setAside).length;
  assert.equal(cell.summary.processes, quiet >= 2 ? quiet : cell.processes.length);
  // A replaced process judged quiet again later (the quiet reference moves as processes come in)
  // counts again, so only the rounds are bounded by maxProcesses.
  assert.ok(cell.processes.filter((p) => !p.rerun).length <= 4, 'at most maxProcesses rounds');
  // A quiet machine can bring four processes within ±0.1%; the warning must say so exactly when not.
  if (cell.summary.rme > 0.1) assert.match(cell.warnings.map((w) => w.message).join('\n'), new RegExp(`above the 0\\.1% target after ${cell.summary.processes} processes`));
  else assert.doesNotMatch(cell.warnings.map((w) => w.message).join('\n'), /target after/);
  assert.equal(result.schedule.maxProcessesPerCell, 4);
  assert.deepEqual(schemaErrors(result), []);
});
