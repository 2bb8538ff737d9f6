// How one worker process is launched and watched (the "executor"; schedule.js decides the order).
// The worker runs in the runtime under test with the cell's flags, as an argument array, in its own
// process group so that a timeout kills everything it started. Reports arrive on fd 3; the suite's
// own stdout/stderr are kept only as a short tail for error messages.
import { execa } from 'execa';
import readline from 'node:readline';
import { workerEntry } from '../paths.js';

const TAIL_BYTES = 4096;

function keepTail(stream, limit = TAIL_BYTES) {
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

function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

const running = new Set();

// Kills every worker still running (Ctrl-C, or the host failing).
export function killAllWorkers() {
  for (const pid of running) killGroup(pid);
}

// Returns { messages, exitCode, signal, timedOut, stdoutTail, stderrTail, wallMs }.
const FULL_STDOUT_LIMIT = 64 * 1024 * 1024;

// collectStdout: keep all of stdout (bounded), for a metrics process's --trace-gc lines.
export async function launchWorker(nodePath, flags, request, { timeoutMs = 60_000, cwd, env, collectStdout = false } = {}) {
  const args = [...flags, workerEntry, JSON.stringify(request)];
  const started = Date.now();
  const child = execa(nodePath, args, {
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    detached: true,
    cleanup: true,
    reject: false,
    buffer: false,
    cwd,
    env: { ...env, NODE_OPTIONS: '' },
    extendEnv: true
  });
  running.add(child.pid);
  const stdoutTail = keepTail(child.stdout, collectStdout ? FULL_STDOUT_LIMIT : TAIL_BYTES);
  const stderrTail = keepTail(child.stderr);
  const messages = [];
  const channel = readline.createInterface({ input: child.stdio[3] });
  channel.on('line', (line) => {
    try {
      messages.push(JSON.parse(line));
    } catch {
      messages.push({ type: 'garbled', line: line.slice(0, 200) });
    }
  });
  const channelClosed = new Promise((resolve) => channel.on('close', resolve));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid);
  }, timeoutMs);
  const result = await child;
  clearTimeout(timer);
  // The worker may have left grandchildren (a suite's server, say): they share its group.
  killGroup(child.pid);
  running.delete(child.pid);
  await Promise.race([channelClosed, new Promise((resolve) => setTimeout(resolve, 1000))]);
  const stdout = stdoutTail();
  return {
    messages,
    exitCode: result.exitCode ?? null,
    signal: result.signal ?? null,
    timedOut,
    stdoutTail: stdout.slice(-TAIL_BYTES),
    stdout: collectStdout ? stdout : undefined,
    stderrTail: stderrTail(),
    wallMs: Date.now() - started
  };
}
