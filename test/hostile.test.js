// A benchmark that attacks the harness from inside its worker fails its own cell with a sentence
// that says what happened; it never ends the run or passes as a measurement.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { nodebench, root, cliPath } from './helpers/cli.js';
import { workersOf, running, settled } from './helpers/processes.js';
import { schemaErrors } from './helpers/schema.js';

const HOSTILE = path.join(root, 'test', 'fixtures', 'suites', 'hostile', 'index.js');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-hostile-'));

test('a benchmark that forges or breaks the worker\'s reports, ends the process or replaces JSON.stringify fails only its cell, saying what happened', { timeout: 120_000 }, async () => {
  const out = path.join(tmp, 'attacks.json');
  const attacks = ['honest', 'malformed-result', 'forged-result', 'writes-null', 'exits-zero', 'replaces-stringify', 'closes-channel', 'junk-then-exits', 'junk-line'];
  const run = await nodebench(['run', HOSTILE, '--node', `system,4.9.1`, '--benchmarks', attacks.join(','), '--quick', '--out', out]);
  assert.equal(run.exitCode, 1, run.stderr);
  assert.doesNotMatch(run.stderr, /internal error/);
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.deepEqual(schemaErrors(result), []);
  for (const runtime of [...new Set(result.cells.map((c) => c.runtime))]) {
    const cell = (name) => result.cells.find((c) => c.benchmark === name && c.runtime === runtime);
    assert.equal(cell('honest').status, 'ok');
    // Not the worker's messages: they lack the nonce the host gave the worker on stdin.
    for (const name of ['malformed-result', 'forged-result']) {
      assert.equal(cell(name).status, 'failed', `${name} on ${runtime}`);
      assert.match(cell(name).error, /^something in the benchmark wrote 1 message\(s\) \(result\) to file descriptor 3, which nodebench keeps for its worker/);
    }
    assert.match(cell('writes-null').error, /^something in the benchmark wrote \d+ message\(s\) \(null\) to file descriptor 3/);
    assert.match(cell('exits-zero').error, /^the suite called process\.exit\(0\) while it was measured, so the worker could not report/);
    // The channel uses JSON.stringify as it was before the suite loaded: the result is real.
    assert.equal(cell('replaces-stringify').status, 'ok', cell('replaces-stringify').error);
    assert.match(cell('closes-channel').error, /^the benchmark closed file descriptor 3, which nodebench keeps for its worker's reports/);
    // Junk then exit(0) was told "the benchmark's promise never settled"; a junk line beside a
    // result cannot fake one, and the result counts.
    assert.match(cell('junk-then-exits').error, /^exited without a report nodebench could read: something in the benchmark wrote 1 line\(s\) that are not JSON \(the first: "\\u0000ÿjunk\{.*\) to file descriptor 3/);
    assert.equal(cell('junk-line').status, 'ok', cell('junk-line').error);
  }
});

test('suite parameters of any size reach the worker (they travel on stdin, not the command line)', async () => {
  const out = path.join(tmp, 'big-params.json');
  // Over the 128 KiB a single argument may have on Linux (MAX_ARG_STRLEN).
  const matrix = path.join(tmp, 'big-params.yaml');
  fs.writeFileSync(matrix, `runtimes: [system]\nsuites:\n  - name: ${HOSTILE}\n    benchmarks: [honest]\n    params: {blob: ${'x'.repeat(200 * 1024)}}\nrun: {processes: 1, maxProcesses: 1, metrics: false}\n`);
  const run = await nodebench(['matrix', '--matrix', matrix, '--out', out]);
  assert.equal(run.exitCode, 0, run.stderr);
  const [cell] = JSON.parse(fs.readFileSync(out, 'utf8')).cells;
  assert.equal(cell.status, 'ok');
});

test('a hang after its cell\'s other processes took under a second costs seconds, not run.timeoutSec: once is run again, twice fails the cell', { timeout: 300_000 }, async () => {
  const out = path.join(tmp, 'hang.json');
  const started = Date.now();
  const run = await nodebench(['run', HOSTILE, '--node', 'system', '--benchmarks', 'hangs-third-process,hangs-from-third-process', '--processes', '4', '--max-processes', '4', '--samples', '3', '--timeout', '120', '--out', out]);
  const elapsed = Date.now() - started;
  assert.equal(run.exitCode, 1, run.stderr);
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.deepEqual(schemaErrors(result), []);
  const cell = (name) => result.cells.find((c) => c.benchmark === name);
  const once = cell('hangs-third-process');
  assert.equal(once.status, 'ok');
  assert.equal(once.processes.filter((p) => !p.rerun).length, 4);
  assert.equal(once.hangs.length, 1);
  assert.match(once.warnings.find((w) => w.code === 'hung').message, /^one process hung and was run again: it did not finish within \d+ s while its cell's other processes took \d+\.\d s/);
  const twice = cell('hangs-from-third-process');
  assert.equal(twice.status, 'timeout');
  // 10 s, or five times the other processes' median when load made that longer (policy/policy.js).
  assert.match(twice.error, /^did not finish within \d+ s while its cell's other processes took \d+\.\d s, so it was taken for a hang/);
  // A hang guard, not a timing: three hangs at the 10 s limit plus eight short processes, which CI's
  // parallel test files on 2 cores can make several times slower; three at run.timeoutSec cost 360 s.
  assert.ok(elapsed < 180_000, `three hangs cost ${elapsed} ms`);
});

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const processesMatching = (pattern) => fs.readdirSync('/proc').filter((pid) => /^\d+$/.test(pid)).filter((pid) => {
  try {
    return pattern.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '));
  } catch {
    return false;
  }
});
// The cgroups left by the nodebench process `pid` (other runs on the machine have their own).
const cgroupsOf = (pid) => ['/sys/fs/cgroup/unified', '/sys/fs/cgroup/pids', '/sys/fs/cgroup'].filter((dir) => fs.existsSync(path.join(dir, `nodebench-${pid}`)));

test('processes a benchmark starts with a new session and an empty environment do not outlive the run, and are named', { timeout: 60_000 }, async () => {
  const out = path.join(tmp, 'escapes.json');
  const child = execa(process.execPath, [cliPath, 'run', HOSTILE, '--node', 'system', '--benchmarks', 'escapes', '--processes', '2', '--max-processes', '2', '--samples', '3', '--out', out], { reject: false, stdin: 'ignore' });
  const run = await child;
  assert.equal(run.exitCode, 0, run.stderr);
  assert.deepEqual(await settled(() => processesMatching(/^sleep 417/)), [], 'a sleep the benchmark started is still running');
  const [cell] = JSON.parse(fs.readFileSync(out, 'utf8')).cells;
  assert.ok(cell.survivors.length >= 2 * 3, `survivors ${cell.survivors}`);
  assert.deepEqual(await settled(() => cgroupsOf(child.pid), 30_000), [], 'a cgroup was left behind');
});

test('under duet pairing too (two workers at once), what each escaped worker left is killed and no cgroup is left', { timeout: 120_000 }, async () => {
  const out = path.join(tmp, 'escapes-duet.json');
  const child = execa(process.execPath, [cliPath, 'run', HOSTILE, '--node', 'system,16', '--pairing', 'duet', '--benchmarks', 'escapes', '--processes', '2', '--max-processes', '2', '--samples', '3', '--out', out], { reject: false, stdin: 'ignore' });
  const run = await child;
  assert.equal(run.exitCode, 0, run.stderr);
  const cells = JSON.parse(fs.readFileSync(out, 'utf8')).cells;
  assert.ok(cells.every((c) => c.processes.every((p) => p.duetWith !== undefined)), 'the processes ran as duet pairs');
  for (const cell of cells) assert.ok(cell.survivors.length >= 2 * 3, `survivors ${cell.survivors}`);
  assert.deepEqual(await settled(() => processesMatching(/^sleep 417/)), [], 'a sleep the benchmark started is still running');
  assert.deepEqual(await settled(() => cgroupsOf(child.pid), 30_000), [], 'a cgroup was left behind');
});

test('a benchmark that kills the reaper and hangs is still taken down by kill -9 of nodebench', { timeout: 60_000 }, async () => {
  const out = path.join(tmp, 'reaper-killed.json');
  const child = execa(process.execPath, [cliPath, 'run', HOSTILE, '--node', 'system', '--benchmarks', 'kills-reaper-then-hangs', '--timeout', '120', '--out', out], { reject: false, stdin: 'ignore' });
  // The worker is hanging in its benchmark once its setup has killed the first reaper.
  const deadline = Date.now() + 30_000;
  while (!fs.existsSync(out) || !workersOf(child.pid).length) {
    assert.ok(Date.now() < deadline, 'the worker did not start');
    await sleep(100);
  }
  await sleep(1500);
  const workers = workersOf(child.pid);
  assert.ok(workers.length, 'no worker is hanging');
  child.kill('SIGKILL');
  await child;
  // The second reaper is a fresh Node process: on a loaded machine it may take seconds to start.
  const gone = Date.now() + 20_000;
  while (workers.some(running)) {
    assert.ok(Date.now() < gone, 'the hanging worker outlived nodebench by 20 s');
    await sleep(100);
  }
  assert.deepEqual(await settled(() => cgroupsOf(child.pid), 30_000), [], 'a cgroup was left behind');
});
