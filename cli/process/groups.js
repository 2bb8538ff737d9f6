// Who owns the processes nodebench starts, and how they are ended: every worker leads its own
// process group, carries a tag in its environment and, where Linux allows, sits in a cgroup of its
// own (cgroup.js); the reaper (reaper.js) is told each group and cgroup, so that none outlives
// nodebench. The only ids this module signals are the ones its registry recorded.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { adopt, empty } from './cgroup.js';

// The workers this process started, each the leader of its own group, from their spawn until
// forget(): the only ids killGroup and killWorker will signal. A spawn that failed has no pid; an id
// from anywhere else (a stale field, a file, arithmetic on undefined) is never signalled, since
// kill(0) or kill(-N) of a stranger's id takes a whole group that is not nodebench's.
const running = new Set();
export const isProcessId = (pid) => Number.isInteger(pid) && pid > 1;
const cgroups = new Set();
const reaperEntry = path.join(path.dirname(fileURLToPath(import.meta.url)), 'reaper.js');
let reaper = null;

function startReaper() {
  const started = spawn(process.execPath, [reaperEntry], { stdio: ['pipe', 'ignore', 'ignore'], detached: true, env: { ...process.env, NODE_OPTIONS: '' } });
  started.on('error', () => { if (reaper === started) reaper = null; });
  // A benchmark can kill the reaper (it is a process of this user like any other): it is started
  // again at once and told every group and cgroup still registered.
  started.on('exit', () => {
    if (reaper !== started) return;
    reaper = null;
    if (running.size || cgroups.size) rearm();
  });
  started.stdin.on('error', () => {});
  started.unref();
  started.stdin.unref?.();
  return started;
}

function rearm() {
  reaper = startReaper();
  for (const pid of running) reaper.stdin.write(`+${pid}\n`);
  for (const dir of cgroups) reaper.stdin.write(`c${dir}\n`);
}

// Tells the reaper (reaper.js) about a group or a cgroup; started with the first worker. Detached and
// unref'd: it neither keeps nodebench alive nor dies with the terminal's foreground group.
function tellReaper(line) {
  if (!reaper) reaper = startReaper();
  reaper.stdin.write(`${line}\n`);
}

// A worker that has just been spawned (its pid known): recorded as nodebench's, told to the
// reaper, moved into a cgroup of its own where one can be made (child.nodebenchCgroup, else null).
export function own(child) {
  running.add(child.pid);
  tellReaper(`+${child.pid}`);
  child.nodebenchCgroup = adopt(child.pid);
  if (child.nodebenchCgroup) {
    cgroups.add(child.nodebenchCgroup);
    tellReaper(`c${child.nodebenchCgroup}`);
  }
}

// owned: the registry that recorded the group (the reaper keeps its own). Returns whether a signal
// was sent.
export function killGroup(pid, owned = running) {
  if (!isProcessId(pid) || !owned.has(pid)) return false;
  try {
    process.kill(-pid, 'SIGKILL');
    return true;
  } catch {
    return false; // Already gone.
  }
}

// The worker itself, should it have left its group (setsid); only while it is registered.
export function killWorker(child) {
  if (!isProcessId(child.pid) || !running.has(child.pid)) return false;
  try {
    process.kill(child.pid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}

// Kills every worker still running (Ctrl-C, or the host failing).
export function killAllGroups() {
  for (const pid of running) killGroup(pid);
}

// Every worker carries a tag in its environment, which its children inherit. A child that left the
// worker's process group (detached: its own session) is still found by the tag after the worker is
// gone, on Linux by reading /proc/<pid>/environ; it is killed and named. Where the worker has a
// cgroup (cgroup.js), its members are found whatever they did to their environment.
export const TAG_NAME = 'NODEBENCH_WORKER_TAG';
let tagCounter = 0;

// A tag for the next worker: this nodebench's pid, then a counter (killTaggedBy finds them all).
export const newTag = () => `${process.pid}-${++tagCounter}`;

// Kills every process whose environment contains `text`; returns their pids.
export function killByEnvironment(text) {
  const killed = [];
  let pids;
  try {
    pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return killed; // No /proc (not Linux): the process group is all the OS tells.
  }
  for (const pid of pids) {
    if (Number(pid) === process.pid) continue;
    try {
      if (!fs.readFileSync(`/proc/${pid}/environ`, 'latin1').includes(text)) continue;
      process.kill(Number(pid), 'SIGKILL');
      killed.push(Number(pid));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return killed;
}

export const killTagged = (tag) => killByEnvironment(`${TAG_NAME}=${tag}\0`);

// After a worker has ended and its group was killed: kills what it started elsewhere (its cgroup's
// members, else the processes that still carry its tag) and returns their pids (every one killed so
// far, when called more than once).
export function killLeftovers(child) {
  const found = (child.nodebenchLeftovers ||= new Set());
  if (child.nodebenchCgroup) {
    for (const pid of empty(child.nodebenchCgroup, { except: [child.pid] })) found.add(pid);
    cgroups.delete(child.nodebenchCgroup);
    if (reaper) tellReaper(`x${child.nodebenchCgroup}`);
  }
  for (const pid of killTagged(child.nodebenchTag)) found.add(pid);
  return [...found];
}
// Every worker this nodebench process (pid) started, and whatever they started.
export const killTaggedBy = (pid) => killByEnvironment(`${TAG_NAME}=${pid}-`);

export function forget(pid) {
  if (running.delete(pid) && reaper) tellReaper(`-${pid}`);
}
