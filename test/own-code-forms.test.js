// The forms nodebench times other than by its batch of calls, and files that run only as a program,
// through the real CLI on two real runtimes (Node 16.20.2, which has no module.register, and
// 24.21.0): tinybench beforeEach/afterEach (timed call by call), mitata computed parameters, the
// iterator form and gc('inner'), bench-node's managed timer, main-module guards and benches run one
// after another; and the same forms misused, each failing only its own cells with a sentence.
// Budgets are tiny: these check what runs and what is said, never how fast.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodebench, root } from './helpers/cli.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-own-forms-'));
const fixture = (name) => path.join(root, 'test', 'fixtures', 'own-code', name);
const example = (name) => path.join(root, 'examples', name);
const RUNTIMES = '16.20.2,24.21.0';
const TINY_FLAGS = ['--processes', '1', '--max-processes', '1', '--samples', '3', '--seed', '3'];

async function run(file, name, expectedExit = 0, runtimes = RUNTIMES) {
  const out = path.join(tmp, `${name}.json`);
  const done = await nodebench(['run', file, '--node', runtimes, '--out', out, ...TINY_FLAGS]);
  assert.equal(done.exitCode, expectedExit, done.stderr);
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  const cells = (benchmark) => result.cells.filter((c) => c.benchmark === benchmark);
  return { result, stdout: done.stdout, cells, names: result.suites[0].benchmarks.map((b) => b.name) };
}

function assertOk(cells, label) {
  assert.equal(cells.length, 2, `${label}: a cell per runtime`);
  for (const cell of cells) assert.equal(cell.status, 'ok', `${label} on ${cell.runtime}: ${cell.error}`);
}

test('the examples of the new forms: every cell ok on Node 16.20.2 and 24.21.0, and the result file says how each is timed', { timeout: 600_000 }, async () => {
  const tiny = await run(example('tinybench-each.mjs'), 'tinybench-each');
  assert.deepEqual(tiny.names, ['sort 2000 numbers', 'sort 2000 numbers (copy inside)', 'sum a 5000-entry Map']);
  for (const name of tiny.names) assertOk(tiny.cells(name), name);
  assert.equal(tiny.result.suites[0].benchmarks.find((b) => b.name === 'sort 2000 numbers').timing, 'per-call');

  const mitata = await run(example('mitata-params.mjs'), 'mitata-params');
  assert.deepEqual(mitata.names, ['sort 16', 'sort 128', 'sort 1024', 'join 100 strings', 'allocate 1000 objects']);
  for (const name of mitata.names) assertOk(mitata.cells(name), name);
  assert.equal(mitata.result.suites[0].benchmarks.find((b) => b.name === 'allocate 1000 objects').gcBeforeSample, true);

  const timer = await run(example('bench-node-timer.cjs'), 'bench-node-timer');
  assert.deepEqual(timer.names, ['Map lookups (managed)', 'Object lookups (managed)']);
  for (const name of timer.names) assertOk(timer.cells(name), name);
  assert.equal(timer.result.suites[0].benchmarks[0].timing, 'managed');
});

test('files that run only as the program, and benches built and run one after another: every bench measured', { timeout: 600_000 }, async () => {
  const tiny = await run(fixture('tinybench-guarded.mjs'), 'tinybench-guarded');
  assert.deepEqual(tiny.names, ['sum 10', 'sum 100']);
  for (const name of tiny.names) assertOk(tiny.cells(name), name);
  const mitata = await run(fixture('mitata-guarded.mjs'), 'mitata-guarded');
  assert.deepEqual(mitata.names, ['first', 'after the first run']);
  for (const name of mitata.names) assertOk(mitata.cells(name), name);
  // The second suite's benchmark needs the server the file starts after the first run() and closes
  // after the second: measured while the file holds it open.
  const main = await run(fixture('bench-node-main.cjs'), 'bench-node-main');
  assert.deepEqual(main.names, ['managed', 'server listening']);
  for (const name of main.names) assertOk(main.cells(name), name);
});

test('misused forms fail only their own cells, each with a sentence: a throwing beforeEach, a call too short to time alone, a timer never ended or ended with 0, a string fn that does not compile', { timeout: 600_000 }, async () => {
  const perCall = await run(fixture('per-call-hostile.mjs'), 'per-call-hostile', 1);
  assertOk(perCall.cells('long enough'), 'long enough');
  assertOk(perCall.cells('async hooks'), 'async hooks');
  for (const cell of perCall.cells('too short')) {
    assert.equal(cell.status, 'failed');
    assert.match(cell.error, /tinybench task "too short" uses beforeEach, which run between calls outside the timing, so nodebench times each call alone; reading the clock \(process\.hrtime\.bigint\) costs [\d.]+ ns here, and a call must last at least [\d.]+ (ns|µs) for that to stay within 2% of it, but a timed call measures [\d.]+ ns/);
  }
  for (const cell of perCall.cells('hook throws')) assert.match(cell.error, /beforeEach broke on purpose/);
  for (const cell of perCall.cells('hook throws later')) assert.match(cell.error, /beforeEach broke on call 50/);

  const timer = await run(fixture('timer-hostile.mjs'), 'timer-hostile', 1);
  assertOk(timer.cells('well formed'), 'well formed');
  for (const cell of timer.cells('never ends')) assert.match(cell.error, /returned without calling timer\.end\(count\)/);
  for (const cell of timer.cells('never starts')) assert.match(cell.error, /returned without calling timer\.start\(\)/);
  for (const cell of timer.cells('ends with 0')) assert.match(cell.error, /"iterations" is out of range/);
  for (const cell of timer.cells('throws')) assert.match(cell.error, /timer benchmark broke on purpose/);

  const strings = await run(fixture('benchmark-bad-string.cjs'), 'benchmark-bad-string', 1);
  assertOk(strings.cells('compiles'), 'compiles');
  assertOk(strings.cells('function'), 'function');
  for (const cell of strings.cells('does not compile')) {
    assert.equal(cell.status, 'failed');
    assert.match(cell.error, /benchmark\.js benchmark "does not compile" has a string fn that does not compile \(SyntaxError: /);
  }
});

test('per-call timing on Node 4.9.1 (process.hrtime, no hrtime.bigint) and the host: a long call is measured, a short one refused naming that clock', { timeout: 300_000 }, async () => {
  const node4 = await run(fixture('per-call-node4.cjs'), 'per-call-node4', 1, '4.9.1,system');
  assertOk(node4.cells('long enough'), 'long enough');
  const [old, current] = ['4.9.1', process.version.slice(1)].map((v) => node4.cells('too short').find((c) => c.runtime === v));
  assert.match(old.error, /reading the clock \(process\.hrtime\) costs [\d.]+ ns here, and a call must last at least/);
  assert.match(current.error, /reading the clock \(process\.hrtime\.bigint\) costs/);
});
