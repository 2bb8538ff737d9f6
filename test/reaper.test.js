import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { root, cliPath } from './helpers/cli.js';
import { workersOf, running, settled } from './helpers/processes.js';

const HANG = path.join(root, 'test', 'fixtures', 'suites', 'hang', 'index.js');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Starts a run whose benchmark hangs; returns once its worker is hanging, with the worker's pid.
async function startHanging(out) {
  const child = execa(process.execPath, [cliPath, 'run', HANG, '--node', 'system', '--processes', '1', '--timeout', '600', '--out', out], { reject: false, stdin: 'ignore' });
  const deadline = Date.now() + 30_000;
  // The suite is described by a worker first; the hanging one is the one still there a second later.
  while (!workersOf(child.pid).length || !fs.existsSync(out)) {
    assert.ok(Date.now() < deadline, 'the hanging worker did not start within 30 s');
    await sleep(200);
  }
  await sleep(1000);
  const workers = workersOf(child.pid);
  assert.ok(workers.length, 'no worker is hanging');
  // Wrapped: an execa child is a promise, and returning it from an async function would wait for it.
  return { child, workers };
}

async function assertWorkersGone(workers, within) {
  const deadline = Date.now() + within;
  for (;;) {
    const left = workers.filter(running);
    if (!left.length) return;
    assert.ok(Date.now() < deadline, `workers still running ${within} ms after nodebench died: ${left.join(', ')}`);
    await sleep(100);
  }
}

test('kill -9 of nodebench during a hanging benchmark leaves no worker behind within 5 s', { timeout: 60_000 }, async () => {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-reaper-')), 'r.json');
  const { child, workers } = await startHanging(out);
  child.kill('SIGKILL');
  await child;
  await assertWorkersGone(workers, 5000);
});

for (const signal of ['SIGHUP', 'SIGTERM']) {
  test(`${signal} is handled like Ctrl-C: the run is kept as interrupted, exit 130, no worker left`, { timeout: 60_000 }, async () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-reaper-')), 'r.json');
    const { child, workers } = await startHanging(out);
    child.kill(signal);
    const run = await child;
    assert.equal(run.exitCode, 130, run.stderr);
    assert.match(run.stderr, new RegExp(`${signal}: stopping`));
    assert.equal(JSON.parse(fs.readFileSync(out, 'utf8')).status, 'interrupted');
    await assertWorkersGone(workers, 5000);
  });
}

test('a detached process a benchmark starts does not outlive the run: it is killed and named on the cell', { timeout: 60_000 }, async () => {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-reaper-')), 'r.json');
  const run = await execa(process.execPath, [cliPath, 'run', path.join(root, 'test', 'fixtures', 'suites', 'detaches', 'index.js'), '--node', 'system', '--processes', '2', '--out', out], { reject: false, stdin: 'ignore' });
  assert.equal(run.exitCode, 0, run.stderr);
  // A killed process is listed until the scheduler runs its exit: given a moment on a loaded host.
  const detachedLeft = async () => (await execa('ps', ['-ww', '-eo', 'pid,stat,args'], { reject: false })).stdout.split('\n')
    .filter((line) => /nodebench-detached-fixture/.test(line) && !/^\s*\d+\s+Z/.test(line));
  assert.deepEqual(await settled(detachedLeft), []);
  const [cell] = JSON.parse(fs.readFileSync(out, 'utf8')).cells;
  assert.equal(cell.status, 'ok');
  assert.ok(cell.survivors.length >= 2, `survivors ${cell.survivors}`);
  assert.match(cell.warnings.find((w) => w.code === 'survivors').message, /outlived its worker in their own session .* nodebench killed them/);
});

test('kill -9 of nodebench also takes a benchmark\'s detached child with it', { timeout: 60_000 }, async () => {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-reaper-')), 'r.json');
  // The detaches fixture starts a detached child in every process's setup; nodebench is killed while one lives.
  const child = execa(process.execPath, [cliPath, 'run', path.join(root, 'test', 'fixtures', 'suites', 'detaches', 'index.js'), '--node', 'system', '--processes', '50', '--out', out], { reject: false, stdin: 'ignore' });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ps = await execa('ps', ['-ww', '-eo', 'pid,args'], { reject: false });
    if (/nodebench-detached-fixture/.test(ps.stdout)) break;
    assert.ok(Date.now() < deadline, 'the detached child did not start within 30 s');
    await sleep(100);
  }
  child.kill('SIGKILL');
  await child;
  const gone = Date.now() + 5000;
  for (;;) {
    const ps = await execa('ps', ['-ww', '-eo', 'pid,args'], { reject: false });
    if (!/nodebench-detached-fixture/.test(ps.stdout)) return;
    assert.ok(Date.now() < gone, 'the detached child outlived nodebench by 5 s');
    await sleep(100);
  }
});
