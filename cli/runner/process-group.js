// Spawning worker processes of the runtime under test: each in its own process group (so a timeout
// or Ctrl-C kills everything it started), with a report channel on fd 3 read line by line, and
// only a bounded tail of its stdout/stderr kept for error messages. Shared by launch.js (timing and
// metrics workers) and service.js (service workers).
import { execa } from 'execa';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

export const TAIL_BYTES = 4096;

const running = new Set();
const reaperEntry = path.join(path.dirname(fileURLToPath(import.meta.url)), 'reaper.js');
let reaper = null;

// Tells the reaper (reaper.js) about a group; started with the first worker. Detached and unref'd:
// it neither keeps nodebench alive nor dies with the terminal's foreground group.
function tellReaper(line) {
  if (!reaper) {
    reaper = spawn(process.execPath, [reaperEntry], { stdio: ['pipe', 'ignore', 'ignore'], detached: true, env: { ...process.env, NODE_OPTIONS: '' } });
    reaper.on('error', () => { reaper = null; });
    reaper.stdin.on('error', () => {});
    reaper.unref();
    reaper.stdin.unref?.();
  }
  reaper.stdin.write(`${line}\n`);
}

export function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
    return true;
  } catch {
    return false; // Already gone.
  }
}

// Kills every worker still running (Ctrl-C, or the host failing).
export function killAllGroups() {
  for (const pid of running) killGroup(pid);
}

// Every worker carries a tag in its environment, which its children inherit. A child that left the
// worker's process group (detached: its own session) is still found by the tag after the worker is
// gone, on Linux by reading /proc/<pid>/environ; it is killed and named.
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
// Every worker this nodebench process (pid) started, and whatever they started.
export const killTaggedBy = (pid) => killByEnvironment(`${TAG_NAME}=${pid}-`);

export function forget(pid) {
  if (running.delete(pid) && reaper) tellReaper(`-${pid}`);
}

// stdin: 'ignore' for timing workers, 'pipe' for service workers that take commands.
export function spawnWorker(nodePath, args, { stdin = 'ignore', cwd, env } = {}) {
  const tag = `${process.pid}-${++tagCounter}`;
  const child = execa(nodePath, args, {
    stdio: [stdin, 'pipe', 'pipe', 'pipe'],
    detached: true,
    cleanup: true,
    reject: false,
    buffer: false,
    cwd,
    // NODE_OPTIONS of the host must not leak into the runtime under test (Node 4 rejects most).
    env: { ...env, NODE_OPTIONS: '', [TAG_NAME]: tag },
    extendEnv: true
  });
  running.add(child.pid);
  tellReaper(`+${child.pid}`);
  child.nodebenchTag = tag;
  return child;
}

export function keepTail(stream, limit = TAIL_BYTES) {
  const chunks = [];
  let size = 0;
  stream?.on('data', (chunk) => {
    chunks.push(chunk);
    size += chunk.length;
    while (size - chunks[0].length > limit) size -= chunks.shift().length;
  });
  return () => {
    const text = Buffer.concat(chunks).toString('utf8');
    return text.length > limit ? text.slice(-limit) : text;
  };
}

// Calls onMessage for each JSON line on the child's fd 3; resolves the returned promise when the
// channel closes (the worker exited).
export function readChannel(child, onMessage) {
  const channel = readline.createInterface({ input: child.stdio[3] });
  channel.on('line', (line) => {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      message = { type: 'garbled', line: line.slice(0, 200) };
    }
    onMessage(message);
  });
  return new Promise((resolve) => channel.on('close', resolve));
}
