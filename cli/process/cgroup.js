// Process ownership by cgroup, where the system lets nodebench make one (Linux, as root or with a
// delegated cgroup): every worker is moved into a cgroup of its own right after it starts, and
// whatever it starts stays in that cgroup however it leaves the worker's process group, session or
// environment (setsid, env -i, a double fork). When the worker ends, its cgroup is emptied with
// SIGKILL and removed; the reaper does the same for the cgroups still registered when nodebench
// dies. Where no cgroup can be made, groups.js falls back to process groups and the
// environment tag. cgroup v2 (with cgroup.kill where the kernel has it) is preferred, else the v1
// pids hierarchy.
import fs from 'node:fs';
import path from 'node:path';
import { processAlive } from '../results/lock.js';

let runRoot;   // undefined: not probed yet; null: no cgroup can be made here

// [{ dir: the mount point + this process's own cgroup, version }] for the hierarchies that can hold
// processes without a controller in the way: the unified one (v2), then v1's pids.
function candidates() {
  let mounts;
  let own;
  try {
    mounts = fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\n');
    own = fs.readFileSync('/proc/self/cgroup', 'utf8').split('\n');
  } catch {
    return [];
  }
  const found = [];
  for (const line of mounts) {
    const [left, right] = line.split(' - ');
    if (!right) continue;
    const mountPoint = left.split(' ')[4];
    const [type, , options] = right.split(' ');
    if (type === 'cgroup2') {
      const mine = own.find((l) => l.startsWith('0::'));
      if (mine) found.push({ dir: path.join(mountPoint, mine.slice(3)), version: 2 });
    } else if (type === 'cgroup' && options.split(',').includes('pids')) {
      const mine = own.find((l) => /^\d+:pids:/.test(l));
      if (mine) found.push({ dir: path.join(mountPoint, mine.replace(/^\d+:pids:/, '')), version: 1 });
    }
  }
  return found.sort((a, b) => b.version - a.version);
}

// The cgroups of a nodebench that died without its reaper (both killed): emptied and removed.
function sweepOrphans(parent) {
  let names;
  try {
    names = fs.readdirSync(parent).filter((name) => /^nodebench-\d+$/.test(name));
  } catch {
    return;
  }
  for (const name of names) {
    if (processAlive({ pid: Number(name.slice('nodebench-'.length)) })) continue;
    const dir = path.join(parent, name);
    try {
      for (const worker of fs.readdirSync(dir).filter((n) => /^w\d+$/.test(n))) empty(path.join(dir, worker));
      fs.rmdirSync(dir);
    } catch {
      // Another nodebench is sweeping it, or it is not ours to remove.
    }
  }
}

// The cgroup under which this nodebench process puts its workers, made on first use; null where
// none can be made.
function root() {
  if (runRoot !== undefined) return runRoot;
  runRoot = null;
  for (const candidate of candidates()) {
    const dir = path.join(candidate.dir, `nodebench-${process.pid}`);
    try {
      sweepOrphans(candidate.dir);
      fs.mkdirSync(dir);
      runRoot = { dir, version: candidate.version };
      process.once('exit', () => {
        try {
          fs.rmdirSync(dir);
        } catch {
          // A worker's cgroup is still there; the reaper removes both.
        }
      });
      break;
    } catch {
      // Read-only, not ours, or not delegated: try the next, else fall back.
    }
  }
  return runRoot;
}

// Moves `pid` into a cgroup of its own; returns its directory, or null where that cannot be done.
export function adopt(pid) {
  const base = root();
  if (!base) return null;
  const dir = path.join(base.dir, `w${pid}`);
  try {
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'cgroup.procs'), String(pid));
    return dir;
  } catch {
    try {
      fs.rmdirSync(dir);
    } catch {
      // Never made.
    }
    return null;
  }
}

export function members(dir) {
  try {
    // A member outside this process's pid namespace reads as 0, which kill() would take for
    // nodebench's own group.
    return fs.readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').map(Number).filter((pid) => Number.isInteger(pid) && pid > 1);
  } catch {
    return [];
  }
}

// A synchronous sleep: the reaper and exit handlers cannot wait on the event loop.
export const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

// Kills every process in the cgroup, waits (at most ~1 s) until it is empty and removes it.
// Returns the pids it found there. Synchronous, so that the reaper and an exit handler can use it.
export function empty(dir, { except = [] } = {}) {
  const found = new Set();
  for (let attempt = 0; attempt < 50; attempt++) {
    const pids = members(dir);
    if (!pids.length) break;
    for (const pid of pids) {
      found.add(pid);
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
    pause(20);
  }
  try {
    fs.rmdirSync(dir);
  } catch {
    // Not empty yet (a process in uninterruptible sleep) or already gone: the reaper tries again.
  }
  return [...found].filter((pid) => !except.includes(pid));
}
