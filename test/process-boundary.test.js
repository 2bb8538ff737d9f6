// Where nodebench's hold on a benchmark's processes ends (issue 40, item 9; docs/reliability.md's threat model).
// Inside: the workers die with nodebench even when a benchmark keeps killing the reaper and
// nodebench is then killed with kill -9 (the kernel's parent-death signal, set through setpriv); what
// the benchmark left in their cgroups goes when the next nodebench starts. Outside, documented: as
// root, a process that leaves its cgroup as well as its session, environment and pipes outlives the
// run. These tests fail when either side of that line moves, so that docs/reliability.md moves with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { nodebench, root, cliPath } from './helpers/cli.js';
import { workersOf, running, settled } from './helpers/processes.js';

const BOUNDARY = path.join(root, 'test', 'fixtures', 'suites', 'boundary', 'index.js');
const SMOKE = path.join(root, 'test', 'fixtures', 'suites', 'smoke', 'index.js');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-boundary-'));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The fixture's processes of this test (their command line carries the tag), by what they do.
function probes(tag, kind) {
  return fs.readdirSync('/proc').filter((pid) => /^\d+$/.test(pid)).filter((pid) => {
    try {
      const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return running(pid) && argv.includes('nodebench-boundary-probe') && argv.includes(tag) && (!kind || argv.includes(kind));
    } catch {
      return false;
    }
  }).map(Number);
}

const killAll = (pids) => pids.forEach((pid) => {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Gone.
  }
});

// Whether this nodebench can put workers in cgroups here (root, or a delegated cgroup).
const cgroupsHere = () => process.getuid?.() === 0 && fs.existsSync('/sys/fs/cgroup');

test('kill -9 of nodebench while a benchmark\'s helper kills every reaper: the hanging worker dies with nodebench; the helper goes when the next nodebench starts', { timeout: 180_000 }, async (t) => {
  const tag = `hunt-${process.pid}`;
  t.after(() => killAll(probes(tag)));
  const child = execa(process.execPath, [cliPath, 'run', BOUNDARY, '--node', 'system', '--benchmarks', 'hunts-reaper-then-hangs', '--timeout', '120', '--out', path.join(tmp, 'hunted.json')],
    { reject: false, stdin: 'ignore', env: { BOUNDARY_TAG: tag } });
  const deadline = Date.now() + 60_000;
  while (!workersOf(child.pid).length || !probes(tag).length) {
    assert.ok(Date.now() < deadline, 'the worker or its helper did not start');
    await sleep(100);
  }
  // A few of the helper's rounds: the reapers nodebench starts again are killed as they come.
  await sleep(1500);
  const workers = workersOf(child.pid);
  // A worker left hanging by a failure here would spin for ever.
  t.after(() => killAll(workers));
  child.kill('SIGKILL');
  await child;
  assert.deepEqual(await settled(() => workers.filter(running)), [], 'the hanging worker outlived nodebench');
  if (!cgroupsHere()) return t.skip('no cgroups here: the helper lives on (docs/reliability.md: the limit without cgroups)');
  // The next nodebench that starts a worker empties the cgroups of runs that are gone.
  const next = await nodebench(['run', SMOKE, '--node', 'system', '--quick', '--benchmarks', 'sum-loop', '--out', path.join(tmp, 'next.json')]);
  assert.equal(next.exitCode, 0, next.stderr);
  assert.deepEqual(await settled(() => probes(tag), 30_000), [], 'the helper outlived the next run');
});

test('as root, a process that leaves its cgroup, session, environment and pipes outlives the run (the documented limit); one that stays in its cgroup does not', { timeout: 180_000 }, async (t) => {
  if (!cgroupsHere()) return t.skip('not root with cgroups: nothing here can leave one');
  const tag = `leave-${process.pid}`;
  t.after(() => killAll(probes(tag)));
  const run = await nodebench(['run', BOUNDARY, '--node', 'system', '--benchmarks', 'leaves-cgroup', '--processes', '1', '--max-processes', '1', '--samples', '3',
    '--out', path.join(tmp, 'left.json')], { env: { BOUNDARY_TAG: tag } });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.deepEqual(await settled(() => probes(tag, 'stay')), [], 'the daemon that stayed in its cgroup outlived the run');
  // Beyond reach: no group, tag, pipe or cgroup of the worker's leads to it any more.
  await sleep(2000);
  assert.ok(probes(tag, 'leave').length >= 1, 'the daemon that left its cgroup was caught: docs/reliability.md says it is not');
});
