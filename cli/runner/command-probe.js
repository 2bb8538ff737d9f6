// The probe around one run of a user's whole command (`nodebench exec`, matrix.yaml `commands:`):
// started by command.js in the host's Node, in its own process group, it runs the command and
// reports on fd 3 what the command and every process it waited for cost:
//   wall time     hrtime from just before spawn to the exit (the probe's own start-up is outside);
//   CPU           user and system time of the command and its waited-for descendants: the probe's
//                 cutime/cstime in /proc/self/stat grow by exactly that when it reaps the command
//                 (clock ticks, usually 10 ms); the probe waits for nothing else;
//   peak RSS      the largest VmHWM (high-water resident set) of any process of the command's tree,
//                 read every POLL_MS from /proc while it runs (a process that lives shorter than
//                 that may be missed; the method says so);
//   exit          code or signal.
// Without /proc (not Linux) CPU and RSS are null and the method says why.
// Its messages (hello, command, error) are described with the worker's in worker/protocol.js.
// Run as: node cli/runner/command-probe.js, its request on stdin as one line { request, nonce }
// (process/channel.js sendRequest; by command.js; it is not a command).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { spawnFailure } from '../process/arg-limits.js';

const POLL_MS = 20;
let nonce;

function send(message) {
  fs.writeSync(3, `${JSON.stringify({ ...message, nonce })}\n`);
}

async function readRequest() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const line = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  nonce = line.nonce;
  return line.request;
}

function childTimesTicks() {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // cutime and cstime are fields 16 and 17 of the whole line, 14 and 15 after "pid (comm) ".
    return { user: Number(fields[13]), system: Number(fields[14]) };
  } catch {
    return null;
  }
}

// Every pid in the tree under `root`, through /proc/<pid>/task/<tid>/children.
function tree(root) {
  const pids = [root];
  for (let i = 0; i < pids.length; i++) {
    let tasks;
    try {
      tasks = fs.readdirSync(`/proc/${pids[i]}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      try {
        for (const child of fs.readFileSync(`/proc/${pids[i]}/task/${tid}/children`, 'utf8').split(' ')) {
          if (child.trim()) pids.push(Number(child));
        }
      } catch {
        // The task ended meanwhile.
      }
    }
  }
  return pids;
}

function highWaterBytes(pid) {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function runOnce(request, { measure }) {
  return new Promise((resolve) => {
    const before = measure ? childTimesTicks() : null;
    const start = process.hrtime.bigint();
    // The command carries the probe's worker tag, so that what it starts in a session of its own is
    // still found and killed (process/groups.js).
    const env = { ...request.env, NODEBENCH_WORKER_TAG: process.env.NODEBENCH_WORKER_TAG };
    let child;
    try {
      child = spawn(request.argv[0], request.argv.slice(1), {
        cwd: request.cwd, env, stdio: ['ignore', 'inherit', 'inherit'], shell: request.shell || false
      });
    } catch (err) {
      // Node throws rather than emits some spawn failures (E2BIG among them).
      resolve({ spawnError: err, env });
      return;
    }
    let peak = 0;
    const hasProc = fs.existsSync('/proc/self/status');
    const poll = measure && hasProc ? setInterval(() => {
      for (const pid of tree(child.pid)) peak = Math.max(peak, highWaterBytes(pid));
    }, POLL_MS) : null;
    child.on('error', (err) => {
      if (poll) clearInterval(poll);
      resolve({ spawnError: err, env });
    });
    child.on('exit', (code, signal) => {
      const wallNs = Number(process.hrtime.bigint() - start);
      if (poll) clearInterval(poll);
      // The exit event comes after libuv reaped the command, so its times are in ours now.
      const after = measure ? childTimesTicks() : null;
      resolve({ wallNs, code, signal, before, after, peak, hasProc });
    });
  });
}

async function main() {
  const request = await readRequest();
  send({ type: 'hello', runtime: null, probe: process.version });
  for (let i = 0; i < (request.warmupRuns || 0); i++) {
    const warm = await runOnce(request, { measure: false });
    if (warm.spawnError || warm.code !== 0) {
      send({ type: 'command', phase: 'warmup', ...report(warm, request) });
      return;
    }
  }
  const measured = await runOnce(request, { measure: true });
  send({ type: 'command', phase: 'measured', ...report(measured, request) });
}

function report(run, request) {
  if (run.spawnError) {
    const notFound = run.spawnError.code === 'ENOENT';
    const argv = request.shell ? ['/bin/sh', '-c', ...request.argv] : request.argv;
    const what = run.spawnError.code === 'E2BIG' ? 'the command' : request.argv[0];
    return { error: notFound ? `${request.argv[0]} was not found (from ${request.cwd}, with the runtime under test first on PATH)` : `${what} could not be started: ${spawnFailure(run.spawnError, { argv, env: run.env })}` };
  }
  const tick = 1e9 / 100;  // USER_HZ is 100 on every Linux nodebench installs runtimes for
  const cpu = run.before && run.after
    ? { userNs: (run.after.user - run.before.user) * tick, systemNs: (run.after.system - run.before.system) * tick, method: '/proc/self/stat cutime + cstime of the probe around one run (the command and the processes it waited for; 10 ms ticks)' }
    : { userNs: null, systemNs: null, method: 'n/a: no /proc on this system' };
  return {
    wallNs: run.wallNs,
    exitCode: run.code,
    signal: run.signal,
    cpu,
    peakRssBytes: run.hasProc ? run.peak : null,
    peakRssMethod: run.hasProc ? `largest VmHWM of the command's processes, read from /proc every ${POLL_MS} ms` : 'n/a: no /proc on this system'
  };
}

main().catch((err) => {
  send({ type: 'error', phase: 'probe', message: String(err?.message || err) });
  process.exitCode = 1;
});
