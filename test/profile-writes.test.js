// explain's .cpuprofile files have predictable names in a folder the user names (issue 40, item 4):
// a link planted at one (a-20.20.2_baseline-1.cpuprofile -> victim.txt) had the victim overwritten
// with profile JSON, on Node 8+ (written by the worker, worker/profile.js) and on Node 6 (written by
// the host over --inspect, cli/explain/inspect-port.js) alike. Each is now written to a fresh name
// and renamed over the predictable one: a link or a FIFO there is replaced, never written through.
// Real runtimes: 20.20.2 on side A, 6.17.1 on side B, one short profiled process each.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { nodebench, root } from './helpers/cli.js';
import { testRuntime } from './helpers/runtimes.js';
import { workersOf, running, settled } from './helpers/processes.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-profile-writes-'));
const suite = path.join(root, 'test', 'fixtures', 'suites', 'planted', 'index.js');

test('explain replaces a link or a FIFO at a profile\'s name instead of writing through it, on Node 20 and on Node 6', { timeout: 300_000 }, async () => {
  await Promise.all([testRuntime('20.20.2'), testRuntime('6.17.1')]);
  const profiles = path.join(dir, 'profiles');
  fs.mkdirSync(profiles);
  const victim = path.join(dir, 'victim.txt');
  fs.writeFileSync(victim, 'precious\n');
  const names = { a: 'a-20.20.2_baseline-1.cpuprofile', b: 'b-6.17.1_baseline-1.cpuprofile', b2: 'b-6.17.1_baseline-2.cpuprofile' };
  fs.symlinkSync(victim, path.join(profiles, names.a));
  fs.symlinkSync(victim, path.join(profiles, names.b));
  // A FIFO nobody reads: a write into it would wait for ever.
  await execa('mkfifo', [path.join(profiles, names.b2)]);
  const run = await nodebench(['explain', '--suite', suite, '--from', '20.20.2', '--to', '6.17.1', '--benchmark', 'slower',
    '--processes', '2', '--metrics-processes', '0', '--duration', '0.3', '--profile-dir', profiles, '--format', 'json'], { cwd: dir });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(fs.readFileSync(victim, 'utf8'), 'precious\n', 'the file a planted link named was written');
  const doc = JSON.parse(run.stdout);
  for (const side of ['a', 'b']) {
    const { profiling } = doc.sides[side];
    assert.equal(profiling.unavailable, null, `side ${side}: ${profiling.unavailable}`);
    assert.deepEqual(profiling.processes.map((p) => p.error ?? null), [null, null], `side ${side}`);
  }
  for (const name of Object.values(names)) {
    const stat = fs.lstatSync(path.join(profiles, name));
    assert.ok(stat.isFile(), `${name} is still ${stat.isFIFO() ? 'a FIFO' : 'a link'}`);
    assert.ok(Array.isArray(JSON.parse(fs.readFileSync(path.join(profiles, name), 'utf8')).nodes), `${name} is a profile`);
  }
  // No temporary file is left beside them.
  assert.deepEqual(fs.readdirSync(profiles).filter((f) => !f.endsWith('.cpuprofile')), []);
});

// Issue 40, item 5: with a FIFO at a profile's name the Node 6 path hung in the host's own
// writeFileSync, where neither --timeout nor SIGTERM could reach it (only SIGKILL ended it). A FIFO
// at every name of both sides: the Node 20 worker's and the Node 6 host's writes replace them all.
test('explain with a FIFO at every profile name of both sides finishes within --timeout, on Node 20 and on Node 6', { timeout: 300_000 }, async () => {
  await Promise.all([testRuntime('20.20.2'), testRuntime('6.17.1')]);
  const profiles = path.join(dir, 'fifos');
  fs.mkdirSync(profiles);
  const names = ['a-20.20.2_baseline-1', 'a-20.20.2_baseline-2', 'b-6.17.1_baseline-1', 'b-6.17.1_baseline-2'].map((n) => `${n}.cpuprofile`);
  for (const name of names) await execa('mkfifo', [path.join(profiles, name)]);
  const run = await nodebench(['explain', '--suite', suite, '--from', '20.20.2', '--to', '6.17.1', '--benchmark', 'slower', '--timeout', '30',
    '--processes', '2', '--metrics-processes', '0', '--duration', '0.3', '--profile-dir', profiles, '--format', 'json'], { cwd: dir, timeout: 240_000 });
  assert.equal(run.timedOut, false, 'explain hung on a FIFO');
  assert.equal(run.exitCode, 0, run.stderr);
  const doc = JSON.parse(run.stdout);
  for (const side of ['a', 'b']) assert.equal(doc.sides[side].profiling.unavailable, null, `side ${side}`);
  for (const name of names) assert.ok(fs.lstatSync(path.join(profiles, name)).isFile(), `${name} is still a FIFO`);
});

// SIGTERM while the Node 6 side is being profiled over its --inspect port ends explain with 130 and
// the sentence; its worker goes with it.
test('SIGTERM while the Node 6 side is profiled ends explain with 130, its worker gone', { timeout: 300_000 }, async () => {
  await Promise.all([testRuntime('20.20.2'), testRuntime('6.17.1')]);
  const profiles = path.join(dir, 'sigterm');
  fs.mkdirSync(profiles);
  await execa('mkfifo', [path.join(profiles, 'b-6.17.1_baseline-1.cpuprofile')]);
  const child = nodebench(['explain', '--suite', suite, '--from', '20.20.2', '--to', '6.17.1', '--benchmark', 'slower',
    '--processes', '2', '--metrics-processes', '0', '--duration', '5', '--profile-dir', profiles, '--format', 'json'], { cwd: dir, timeout: 240_000 });
  let stderr = '';
  await new Promise((resolve) => child.stderr.on('data', (chunk) => {
    stderr += chunk;
    if (/profiling 6\.17\.1\/baseline, process 1/.test(stderr)) resolve();
  }));
  // Progress is said before the process starts: signalled once it runs.
  while (!workersOf(child.pid).length) await new Promise((resolve) => setTimeout(resolve, 50));
  const workers = workersOf(child.pid);
  child.kill('SIGTERM');
  const run = await child;
  assert.equal(run.timedOut, false, 'explain ignored SIGTERM');
  assert.equal(run.exitCode, 130, run.stderr);
  assert.match(run.stderr, /explain was interrupted \(SIGTERM\); the profiles written so far are in /);
  assert.deepEqual(await settled(() => workers.filter(running)), [], 'a worker outlived explain');
});
