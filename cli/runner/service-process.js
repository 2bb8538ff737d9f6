// The process side of a service launch: worker/serve.js started in the runtime under test in its own
// process group, a handle to await its reports and send it commands, and a check that its port is
// closed afterwards. The load driver is load-driver.js; the launch as a whole is service.js.
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { projectRoot } from '../paths.js';
import { spawnWorker, keepTail } from '../process/spawn.js';
import { sendRequest, readChannel } from '../process/channel.js';
import { killGroup, forget, killLeftovers } from '../process/groups.js';
import { taskset } from '../process/host-tools.js';

export const serveEntry = path.join(projectRoot, 'worker', 'serve.js');
export const HOST = '127.0.0.1';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Resolves with the promise's value, or undefined after ms (or when it rejects).
export function bounded(promise, ms) {
  let timer;
  return Promise.race([
    promise.then((v) => v, () => undefined),
    new Promise((resolve) => { timer = setTimeout(resolve, ms); })
  ]).finally(() => clearTimeout(timer));
}

// The worker ended (reported an error or unsupported, or exited) before sending what we waited for.
export class WorkerEnded extends Error {}
export class TimedOut extends Error {}

// Starts worker/serve.js and returns a handle:
//   { pid, messages, next(type) -> Promise<message>, send(command), kill(), exited, stdoutTail(), stderrTail() }
// next(type) rejects with WorkerEnded if the worker reports an error or unsupported, or exits first.
// The caller must call kill() (runServiceLaunch does, in a finally).
export function startService(nodePath, flags, request, { cwd, env, cpu } = {}) {
  const child = spawnWorker(nodePath, [...flags, serveEntry], { stdin: 'pipe', cwd, env, cpu });
  const pid = child.pid;
  sendRequest(child, request, { keepOpen: true });
  const stdoutTail = keepTail(child.stdout);
  const stderrTail = keepTail(child.stderr);
  const messages = [];
  const waiters = [];
  let ended = false;

  const rejectAll = () => {
    for (const w of waiters.splice(0)) w.reject(new WorkerEnded('the service worker ended'));
  };
  const channelClosed = readChannel(child, (message) => {
    messages.push(message);
    for (const w of [...waiters]) {
      if (w.type === message.type) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(message);
      }
    }
    if (message.type === 'error' || message.type === 'unsupported') rejectAll();
  });
  const exited = child.then((r) => ({ exitCode: r.exitCode ?? null, signal: r.signal ?? null }));
  // Ended = exited and every report read (the channel closes with the process).
  exited.then(() => bounded(channelClosed, 1000)).then(() => {
    ended = true;
    // What it started in its group goes with it, while the group is still registered as its own.
    killGroup(pid);
    forget(pid);
    killLeftovers(child);
    rejectAll();
  });

  return {
    pid,
    cpu: child.nodebenchCpu,
    messages,
    exited,
    stdoutTail,
    stderrTail,
    next(type) {
      const found = messages.find((m) => m.type === type);
      if (found) return Promise.resolve(found);
      if (ended || messages.some((m) => m.type === 'error' || m.type === 'unsupported')) {
        return Promise.reject(new WorkerEnded('the service worker ended'));
      }
      return new Promise((resolve, reject) => waiters.push({ type, resolve, reject }));
    },
    send(command) {
      if (!ended && child.stdin.writable) child.stdin.write(`${command}\n`);
    },
    kill() {
      return killGroup(pid);
    }
  };
}

// Resolves true once nothing accepts connections on 127.0.0.1:port (within waitMs).
export async function portClosed(port, waitMs = 2000) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const accepted = await new Promise((resolve) => {
      const socket = net.connect({ host: HOST, port });
      socket.setTimeout(500);
      socket.once('connect', () => { socket.destroy(); resolve(true); });
      socket.once('timeout', () => { socket.destroy(); resolve(true); });
      socket.once('error', () => resolve(false));
    });
    if (!accepted) return true;
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
}

// The server under test and the load generator (autocannon, in this process) each on a core of
// their own. Unpinned, the scheduler sometimes put both on one core of a 2-core machine, and a
// cell's processes fell in two clusters (16.20.2: 15-16 µs per request in four processes, 27-33 µs
// in three). On a busy host it does the opposite: a pinned server cannot move away from the other
// programs on its core, and bench/service-pinning.js measured pinned cells wider than unpinned ones
// at a load of 3-10 on 2 cores (docs/precision.md), so on a host whose 1-minute load is above its
// core count (more runnable work than cores, beyond a run's own 1-2) nothing is pinned.
// Returns { server, load, restore() } with the cores used, or { server: null, load: null, reason,
// restore() } when pinning is not possible or not wise here (not Linux, fewer than two cores
// allowed, no taskset, taskset refused, a busy host).
// loadAverage: the 1-minute load average (a parameter for tests).
export function pinServiceCores({ loadAverage = os.loadavg()[0] } = {}) {
  const none = (reason) => ({ server: null, load: null, reason, restore() {} });
  // Measurement hooks, not settings: bench/service-pinning.js compares pinned (always) with unpinned (off).
  if (process.env.NODEBENCH_SERVICE_PINNING === 'off') return none('not pinned: NODEBENCH_SERVICE_PINNING=off');
  if (process.platform !== 'linux') return none(`not pinned: taskset is Linux-only (${process.platform})`);
  const allowed = allowedCores();
  if (!allowed) return none('not pinned: /proc/self/status has no Cpus_allowed_list');
  if (allowed.length < 2) return none(`not pinned: this process may use only ${allowed.length} core`);
  if (loadAverage > allowed.length && process.env.NODEBENCH_SERVICE_PINNING !== 'always') {
    return none(`not pinned: the host is busy (1-minute load ${loadAverage.toFixed(1)} on ${allowed.length} cores), and a pinned server could not move away from other programs`);
  }
  const [server, load] = [allowed[0], allowed[1]];
  const list = allowed.join(',');
  // Found where the workers' taskset is found (host-tools.js), so both pin with the same program.
  const tasksetFile = taskset();
  if (!tasksetFile) return none('not pinned: taskset (util-linux) is not on PATH');
  const set = (cores) => execFileSync(tasksetFile, ['-a', '-p', '-c', cores, String(process.pid)], { stdio: 'ignore', timeout: 5000 });
  try {
    set(String(load));
  } catch (err) {
    return none(`not pinned: taskset failed (${err.message.split('\n')[0]})`);
  }
  return {
    server,
    load,
    restore() {
      try {
        set(list);
      } catch {
        // The host keeps one core; later launches of the run still pin their own.
      }
    }
  };
}

// The cores this process may run on (Linux), in order; null when unknown.
export function allowedCores(status = readStatus()) {
  const line = status?.split('\n').find((l) => l.startsWith('Cpus_allowed_list:'));
  if (!line) return null;
  const cores = [];
  for (const part of line.slice('Cpus_allowed_list:'.length).trim().split(',')) {
    const [from, to = from] = part.split('-').map(Number);
    if (!Number.isInteger(from) || !Number.isInteger(to)) return null;
    for (let c = from; c <= to; c++) cores.push(c);
  }
  return cores;
}

function readStatus() {
  try {
    return fs.readFileSync('/proc/self/status', 'utf8');
  } catch {
    return null;
  }
}
