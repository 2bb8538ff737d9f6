// The end of a worker is its own exit (the 'exit' event: waitpid), never the end of its output: a
// process it started may hold stdout, stderr or fd 3 open for ever (a daemon, a detached child with
// stdio 'inherit', `setsid sleep &`). After the exit, what is already in the pipes has
// DRAIN_GRACE_MS to arrive; then whatever still holds them (found through /proc by the pipes
// themselves, its process group, its cgroup and its tag) is killed and named, and if the pipes are
// still open after that (a holder nodebench cannot kill), they are no longer read.
import fs from 'node:fs';
import { killGroup, killLeftovers } from './groups.js';

// How long what is left in the output pipes after a worker's exit may take to arrive.
export const DRAIN_GRACE_MS = 300;

// The child's ends of its stdout, stderr and fd-3 pipes ("socket:[inode]": libuv makes socket
// pairs), read from /proc right after the spawn (the exec has happened by then), so that whatever
// inherits them later is found by the pipe itself, whatever session, environment or cgroup it is in.
function childPipeEnds(pid) {
  const ends = new Set();
  for (const fd of [1, 2, 3]) {
    try {
      const link = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (/^(?:socket|pipe):\[\d+\]$/.test(link)) ends.add(link);
    } catch {
      // Not Linux, or the child is already gone: its cgroup and tag still find what it left.
    }
  }
  return ends;
}

function commandName(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return null;
  }
}

// The processes (other than this one) with one of `ends` open: [{ pid, name }].
function pipeHolders(ends) {
  const holders = [];
  if (!ends.size) return holders;
  let pids;
  try {
    pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid);
  } catch {
    return holders;
  }
  for (const pid of pids) {
    let fds;
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // Gone meanwhile, or not ours to read.
    }
    for (const fd of fds) {
      let link;
      try {
        link = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      if (ends.has(link)) {
        holders.push({ pid: Number(pid), name: commandName(pid) });
        break;
      }
    }
  }
  return holders;
}

function closedWithin(streams, ms) {
  const open = streams.filter((stream) => !stream.closed && !stream.destroyed);
  if (!open.length) return Promise.resolve(true);
  return new Promise((resolve) => {
    let left = open.length;
    const timer = setTimeout(() => resolve(false), ms);
    for (const stream of open) {
      stream.once('close', () => {
        if (--left === 0) {
          clearTimeout(timer);
          resolve(true);
        }
      });
    }
  });
}

// Resolves { exitCode, signal, holders: [{ pid, name }] } once the child (just spawned) has
// exited and its pipes are closed or given up on.
export function watchEnd(child) {
  const ends = childPipeEnds(child.pid);
  const streams = [child.stdout, child.stderr, child.stdio[3]].filter(Boolean);
  // execa's own promise settles when the pipes close; the end is read from 'exit' instead.
  child.catch?.(() => {});
  return new Promise((resolve) => {
    child.once('exit', async (exitCode, signal) => {
      resolve({ exitCode, signal, holders: await releasePipes(child, streams, ends) });
    });
  });
}

async function releasePipes(child, streams, ends) {
  if (await closedWithin(streams, DRAIN_GRACE_MS)) return [];
  const holders = new Map();
  for (let attempt = 0; attempt < 5; attempt++) {
    for (const holder of pipeHolders(ends)) {
      holders.set(holder.pid, holder);
      try {
        process.kill(holder.pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
    // A holder /proc does not show (another user's, say) may still be in the worker's group,
    // cgroup or environment: they are killed after the worker anyway, here a little earlier.
    if (attempt > 0) {
      killGroup(child.pid);
      killLeftovers(child);
    }
    if (await closedWithin(streams, 200)) return [...holders.values()];
  }
  for (const stream of streams) stream.destroy();
  return [...holders.values()];
}
