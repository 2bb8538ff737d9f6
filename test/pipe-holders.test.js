// A process that keeps a worker's output pipes open (a daemon, a detached child with stdio
// 'inherit', `setsid sleep &`) must never hang nodebench: the end of a command or worker is its own
// exit; what still holds its pipes is killed and named on the cell, the timeout always ends a
// process, and SIGINT/SIGTERM/SIGHUP always end the run with 130. Real runtimes, real processes,
// real signals. The only time limits are hang-guards: nodebench is killed after HANG_GUARD_MS and
// the test fails, a measure of "never finishes", not of speed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { root, cliPath } from './helpers/cli.js';
import { testRuntime } from './helpers/runtimes.js';
import { runToExit } from '../cli/process/run-to-exit.js';
import { settled } from './helpers/processes.js';

const HANG_GUARD_MS = 60_000;
const HOLDS_OUTPUT = path.join(root, 'test', 'fixtures', 'suites', 'holds-output', 'index.js');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-pipe-holders-'));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let outs = 0;
const freshOut = () => path.join(tmp, `r${++outs}.json`);
const read = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

// nodebench as a user runs it, killed (and the test failed) if it is not done within the guard.
function start(args) {
  return execa(process.execPath, [cliPath, ...args], { reject: false, stdin: 'ignore', cwd: tmp, env: { NO_COLOR: '1' }, timeout: HANG_GUARD_MS, killSignal: 'SIGKILL' });
}
async function finished(child) {
  const run = await child;
  assert.ok(!run.timedOut, `nodebench did not finish within ${HANG_GUARD_MS / 1000} s (the hang-guard killed it): ${run.stderr.slice(-600)}`);
  return run;
}

// Pids of running processes whose command line matches (zombies waiting for init are not running).
function processesMatching(pattern) {
  return fs.readdirSync('/proc').filter((pid) => /^\d+$/.test(pid)).filter((pid) => {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') return false;
      return pattern.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '));
    } catch {
      return false;
    }
  });
}
async function assertNoneLeft(pattern) {
  // SIGKILL is delivered at once, but a process leaves /proc only when its parent (init) reaps it.
  assert.deepEqual(await settled(() => processesMatching(pattern)), [], `still running: ${pattern}`);
}

let runtime16;
test.before(async () => {
  runtime16 = await testRuntime('16');
});

test('exec: a command that leaves `setsid sleep` holding its output is measured, and the sleep is killed and named', { timeout: 90_000 }, async () => {
  const out = freshOut();
  const run = await finished(start(['exec', '--node', runtime16.version, '--timeout', '15', '--processes', '2', '--max-processes', '2', '--shell', '--out', out, '--', 'setsid sleep 1888 & exit 0']));
  assert.equal(run.exitCode, 0, run.stderr);
  const [cell] = read(out).cells;
  assert.equal(cell.status, 'ok', cell.error);
  assert.equal(cell.processes.length, 2);
  assert.equal(cell.holders.length, 2);
  // Named as /proc says when nodebench looks: the forked shell becomes setsid, then sleep, and a
  // loaded host may not have run those execs yet.
  for (const holder of cell.holders) assert.match(holder.name, /^(sleep|setsid|sh)$/);
  assert.match(cell.warnings.find((w) => w.code === 'survivors').message, /outlived its worker: 2 held its output open after it exited \(pid \d+ \((sleep|setsid|sh)\), pid \d+ \((sleep|setsid|sh)\)\)[^;]*; nodebench stopped waiting for them and killed them/);
  await assertNoneLeft(/^sleep 1888/);
});

test('exec: 200 background `(sleep &)` are a measured run with their sleeps killed, not a timeout', { timeout: 90_000 }, async () => {
  const out = freshOut();
  const run = await finished(start(['exec', '--node', runtime16.version, '--timeout', '30', '--processes', '1', '--max-processes', '1', '--shell', '--out', out, '--',
    'i=0; while [ $i -lt 200 ]; do (sleep 1889 &); i=$((i+1)); done']));
  assert.equal(run.exitCode, 0, run.stderr);
  const [cell] = read(out).cells;
  assert.equal(cell.status, 'ok', cell.error);
  assert.equal(cell.holders.length, 200);
  assert.match(cell.warnings.find((w) => w.code === 'survivors').message, /outlived its worker: 200 held its output open after it exited \(pid .* and 190 more\)[^;]*; nodebench stopped waiting/);
  await assertNoneLeft(/^sleep 1889/);
});

test('exec: a loop that keeps starting setsid\'d sleeps is ended by --timeout with all its sleeps', { timeout: 90_000 }, async () => {
  const out = freshOut();
  const run = await finished(start(['exec', '--node', runtime16.version, '--timeout', '3', '--processes', '1', '--max-processes', '1', '--shell', '--out', out, '--',
    'while :; do setsid sleep 1890 & sleep 0.05; done']));
  assert.equal(run.exitCode, 1, run.stderr);
  const [cell] = read(out).cells;
  assert.equal(cell.status, 'timeout', cell.error);
  await assertNoneLeft(/^sleep 1890/);
});

test('run: a benchmark whose detached child keeps the worker\'s stdio (with or without its environment) is measured, the child killed and named', { timeout: 120_000 }, async () => {
  const out = freshOut();
  const run = await finished(start(['run', HOLDS_OUTPUT, '--node', runtime16.version, '--processes', '2', '--max-processes', '2', '--samples', '3', '--timeout', '15', '--out', out]));
  assert.equal(run.exitCode, 0, run.stderr);
  const cells = read(out).cells;
  for (const name of ['detached-inherit', 'setsid-env-i']) {
    const cell = cells.find((c) => c.benchmark === name);
    assert.equal(cell.status, 'ok', `${name}: ${cell.error}`);
    assert.ok(cell.holders.length >= 2 && cell.holders.every((h) => h.name === 'sleep'), `${name}: ${JSON.stringify(cell.holders)}`);
  }
  assert.equal(cells.find((c) => c.benchmark === 'honest').holders, undefined);
  await assertNoneLeft(/^sleep 189[12]/);
});

for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  test(`${signal} ends a run whose command hangs with a setsid'd child holding its output: exit 130, nothing left`, { timeout: 90_000 }, async () => {
    const out = freshOut();
    const marker = `${1900 + ['SIGTERM', 'SIGINT', 'SIGHUP'].indexOf(signal)}`;
    const child = start(['exec', '--node', runtime16.version, '--timeout', '600', '--processes', '1', '--max-processes', '1', '--shell', '--out', out, '--',
      `setsid sleep ${marker}1 & sleep ${marker}2`]);
    for (const until = Date.now() + 30_000; processesMatching(new RegExp(`^sleep ${marker}2`)).length === 0;) {
      assert.ok(Date.now() < until, 'the command did not start within 30 s');
      await sleep(100);
    }
    child.kill(signal);
    const run = await finished(child);
    assert.equal(run.exitCode, 130, run.stderr);
    assert.match(run.stderr, new RegExp(`${signal}: stopping`));
    assert.equal(read(out).status, 'interrupted');
    await assertNoneLeft(new RegExp(`^sleep ${marker}`));
  });
}

test('exec: a failing command\'s stderr tail has no colour codes left in the cell\'s error', { timeout: 60_000 }, async () => {
  const out = freshOut();
  const run = await finished(start(['exec', '--node', runtime16.version, '--processes', '1', '--max-processes', '1', '--shell', '--out', out, '--',
    'printf "\\033[90mnot ok\\033[39m 1 - \\033[1mboom\\033[0m\\n" >&2; exit 3']));
  assert.equal(run.exitCode, 1, run.stderr);
  const [cell] = read(out).cells;
  assert.equal(cell.status, 'failed');
  assert.match(cell.error, /exited with status 3: not ok 1 - boom$/);
  assert.ok(!run.stderr.includes('\\x1b') && !run.stderr.includes('\u001b'), run.stderr);
});

test('runToExit: a program that leaves a process holding its stdout returns at its exit with its output, the holder killed and named', { timeout: HANG_GUARD_MS }, async () => {
  // A node wrapper of the kind `--node ./wrapper` names: it starts a daemon, then runs node.
  const wrapper = path.join(tmp, 'node-wrapper');
  fs.writeFileSync(wrapper, `#!/bin/sh\nsetsid sleep 1903 &\nexec '${runtime16.path}' "$@"\n`, { mode: 0o755 });
  // The test's own timeout is the hang-guard here.
  const ran = await runToExit(wrapper, ['-p', 'process.version']);
  assert.equal(ran.exitCode, 0, ran.stderr);
  assert.equal(ran.stdout.trim(), `v${runtime16.version}`);
  assert.deepEqual(ran.holders.map((h) => h.name), ['sleep']);
  await assertNoneLeft(/^sleep 1903/);
  await assert.rejects(runToExit(path.join(tmp, 'no-such-binary'), []), { code: 'ENOENT' });
});

test('a --node wrapper that leaves `setsid sleep` holding its output: run, flags and exec (flags asked through NODE_OPTIONS) finish, the sleeps killed', { timeout: 4 * HANG_GUARD_MS }, async () => {
  // Every probe of the binary (its version both ways, its V8 flags, whether it takes flags from
  // NODE_OPTIONS, whether it starts with them) goes through the wrapper. The comment makes the
  // wrapper's sha256 new, so that no V8 flag listing cached for an earlier run answers for it.
  const wrapper = path.join(tmp, 'daemon-wrapper');
  fs.writeFileSync(wrapper, `#!/bin/sh\n# ${tmp}\nsetsid sleep 1904 &\nexec '${runtime16.path}' "$@"\n`, { mode: 0o755 });
  const suite = path.join(root, 'test', 'fixtures', 'suites', 'hostile', 'index.js');
  const run = await finished(start(['run', suite, '--benchmarks', 'honest', '--node', wrapper, '--processes', '1', '--max-processes', '1', '--samples', '3', '--out', freshOut()]));
  assert.equal(run.exitCode, 0, run.stderr);
  await assertNoneLeft(/^sleep 1904/);
  const flags = await finished(start(['flags', wrapper, '--grep', 'max-old-space-size']));
  assert.equal(flags.exitCode, 0, flags.stderr);
  assert.match(flags.stdout, new RegExp(`^Node ${runtime16.version.replace(/\./g, '\\.')} \\(V8 [\\d.]+\\): 1 V8 flag`));
  await assertNoneLeft(/^sleep 1904/);
  const out = freshOut();
  const exec = await finished(start(['exec', '--node', wrapper, '--flags', '--max-old-space-size=200', '--processes', '1', '--max-processes', '1', '--out', out, '--', 'node', '-e', '0']));
  assert.equal(exec.exitCode, 0, exec.stderr);
  const [cell] = read(out).cells;
  assert.equal(cell.status, 'ok', cell.error);
  await assertNoneLeft(/^sleep 1904/);
});
