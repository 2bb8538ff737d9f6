// Spawning worker processes of the runtime under test: each in its own process group (so a timeout
// or Ctrl-C kills everything it started), with a report channel on fd 3 read line by line, and
// only a bounded tail of its stdout/stderr kept for error messages. Shared by launch.js (timing and
// metrics workers, commands, and every probe of a binary: runToExit) and runner/service.js (service
// workers).
import { execa } from 'execa';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { adopt, empty } from './cgroup.js';

export const TAIL_BYTES = 4096;

// The workers this process started, each the leader of its own group, from their spawn until
// forget(): the only ids killGroup and killWorker will signal. A spawn that failed has no pid; an id
// from anywhere else (a stale field, a file, arithmetic on undefined) is never signalled, since
// kill(0) or kill(-N) of a stranger's id takes a whole group that is not nodebench's.
const running = new Set();
const isProcessId = (pid) => Number.isInteger(pid) && pid > 1;
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
const TAG_NAME = 'NODEBENCH_WORKER_TAG';
let tagCounter = 0;

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

// The executable `name` on PATH, or null (taskset here; valgrind and setarch in valgrind.js).
export function onPath(name, env = process.env) {
  return (env.PATH || '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, name)).find((file) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  }) ?? null;
}

// taskset (util-linux) pins a process to one core; where it is missing, pinning is not done and
// the process record says so (cpu: null).
let tasksetPath;
function taskset() {
  if (tasksetPath === undefined) tasksetPath = onPath('taskset');
  return tasksetPath;
}

// The kernel's parent-death signal (PR_SET_PDEATHSIG), which Node cannot set: setpriv (util-linux)
// sets it and then execs the program in place, so the worker keeps the pid nodebench spawned and
// everything else about it. A worker then dies with nodebench however nodebench dies: the reaper
// is a process of the same user, which a benchmark can kill every few milliseconds until nodebench
// is killed with kill -9, and then nothing was left to end a hanging worker. What the worker
// started is still the reaper's, the cgroup's and the next nodebench's (cgroup.js sweepOrphans).
// Probed once: util-linux before 2.33 has no --pdeathsig; without setpriv the reaper is all there is.
let setprivPath;
function setpriv() {
  if (setprivPath === undefined) {
    const found = onPath('setpriv');
    const works = found && spawnSync(found, ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore', timeout: 10_000 }).status === 0;
    setprivPath = works ? found : null;
  }
  return setprivPath;
}

// What to exec for `file`: through setpriv where it works, so that the child dies with nodebench; a
// file that is not there or cannot be run is spawned as it is, so that its spawn fails as before
// (ENOENT, EACCES) instead of setpriv's exit status. Both exec with execvp, so a script without a
// #! line runs through sh either way.
function diesWithNodebench(file, args) {
  let runnable = path.isAbsolute(file);
  try {
    if (runnable) fs.accessSync(file, fs.constants.X_OK);
  } catch {
    runnable = false;
  }
  return runnable && setpriv() ? [setpriv(), ['--pdeathsig', 'KILL', '--', file, ...args]] : [file, args];
}

// stdin: 'ignore' for timing workers, 'pipe' for service workers that take commands.
// cpu: the core to pin the worker to (run.pairing), where taskset exists; child.nodebenchCpu says
// whether it was done.
export function spawnWorker(nodePath, args, { stdin = 'ignore', cwd, env, cpu } = {}) {
  const tag = `${process.pid}-${++tagCounter}`;
  const pinned = cpu !== undefined && taskset() !== null;
  const [file, argv] = diesWithNodebench(...(pinned ? [taskset(), ['-c', String(cpu), nodePath, ...args]] : [nodePath, args]));
  const child = execa(file, argv, {
    stdio: [stdin, 'pipe', 'pipe', 'pipe'],
    detached: true,
    cleanup: true,
    reject: false,
    buffer: false,
    cwd,
    // NODE_OPTIONS of the host must not leak into the runtime under test (Node 4 rejects most); a
    // caller that means some for it (whether a runtime takes flags from there) names them in env.
    env: { NODE_OPTIONS: '', ...env, [TAG_NAME]: tag },
    extendEnv: true
  });
  child.nodebenchTag = tag;
  child.nodebenchCpu = pinned ? cpu : null;
  if (!isProcessId(child.pid)) {
    // The spawn failed: at once (E2BIG, which execa answers with a stand-in child that never emits
    // an event) or on the next tick (ENOENT, EACCES). There is no process to own, kill or wait for;
    // execa's result carries the error.
    child.nodebenchCgroup = null;
    child.nodebenchEnded = child.then((failed) => ({ exitCode: null, signal: null, holders: [], spawnError: failed.cause ?? failed }));
    return child;
  }
  running.add(child.pid);
  tellReaper(`+${child.pid}`);
  child.nodebenchCgroup = adopt(child.pid);
  if (child.nodebenchCgroup) {
    cgroups.add(child.nodebenchCgroup);
    tellReaper(`c${child.nodebenchCgroup}`);
  }
  child.nodebenchEnded = watchEnd(child);
  return child;
}

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

// The end of a worker is its own exit (the 'exit' event: waitpid), never the end of its output: a
// process it started may hold stdout, stderr or fd 3 open for ever (a daemon, a detached child with
// stdio 'inherit', `setsid sleep &`). After the exit, what is already in the pipes has
// DRAIN_GRACE_MS to arrive; then whatever still holds them (found by the pipes themselves, its
// process group, its cgroup and its tag) is killed and named, and if the pipes are still open after
// that (a holder nodebench cannot kill), they are no longer read.
// Resolves { exitCode, signal, holders: [{ pid, name }] }.
function watchEnd(child) {
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

// Waits for the worker's end (watchEnd); the result of a spawnWorker child.
export const workerEnded = (child) => child.nodebenchEnded;

// The worker's first line on stdin: its request and a nonce its every message must carry, so that
// what a benchmark writes to fd 3 is never taken for the worker's (worker/channel.js). keepOpen: a
// service worker reads commands from stdin afterwards.
export function sendRequest(child, request, { keepOpen = false } = {}) {
  child.nodebenchNonce = randomBytes(16).toString('hex');
  child.stdin.on('error', () => {}); // EPIPE when the worker is already gone (or never started)
  let line;
  try {
    line = `${JSON.stringify({ request, nonce: child.nodebenchNonce })}\n`;
  } catch (err) {
    // A worker left waiting for its request would never exit, and its open stdin would keep
    // nodebench alive after the throw.
    killGroup(child.pid);
    killWorker(child);
    // Forgotten only once it has exited, as superviseWorker does: its id is not reused before.
    child.nodebenchEnded?.then(() => {
      forget(child.pid);
      killLeftovers(child);
    });
    throw err;
  }
  child.stdin.write(line);
  if (!keepOpen) child.stdin.end();
}

// plain: without terminal control sequences (a tool's colours), for a tail that becomes a message.
export function keepTail(stream, limit = TAIL_BYTES, { plain = false } = {}) {
  const chunks = [];
  let size = 0;
  stream?.on('data', (chunk) => {
    chunks.push(chunk);
    size += chunk.length;
    while (size - chunks[0].length > limit) size -= chunks.shift().length;
  });
  return () => {
    const whole = Buffer.concat(chunks).toString('utf8');
    const text = plain ? stripVTControlCharacters(whole) : whole;
    return text.length > limit ? text.slice(-limit) : text;
  };
}

// Calls onMessage for each JSON line on the child's fd 3; resolves the returned promise when the
// channel closes (the worker exited). A line without the worker's nonce (sendRequest) is not the
// worker's: it arrives as { type: 'forged', claimed } (claimed: the type it gave itself).
export function readChannel(child, onMessage) {
  const channel = readline.createInterface({ input: child.stdio[3] });
  channel.on('line', (line) => {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      onMessage({ type: 'garbled', line: line.slice(0, 200) });
      return;
    }
    // Whatever parses must carry the nonce, whatever type it claims (even "garbled"); JSON that is
    // not an object (null, a number) is no message of the worker's either.
    const isObject = message !== null && typeof message === 'object' && !Array.isArray(message);
    if (!isObject) {
      message = { type: 'forged', claimed: message === null ? 'null' : typeof message };
    } else if (child.nodebenchNonce && message.nonce !== child.nodebenchNonce) {
      message = { type: 'forged', claimed: String(message.type).slice(0, 40) };
    } else if (child.nodebenchNonce) {
      delete message.nonce;
    }
    onMessage(message);
  });
  return new Promise((resolve) => channel.on('close', resolve));
}
