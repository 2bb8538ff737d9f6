// A spawned process watched to its own exit (superviseWorker): its fd-3 messages, tails of its
// output, its timeout, and the kill of whatever it left. launchWorker starts a timing or metrics
// worker in the runtime under test (the order is policy/schedule.js's) with the cell's flags as an
// argument array and supervises it; run-to-exit.js asks a binary a short question the same way.
import { workerEntry } from '../paths.js';
import { spawnWorker, keepTail, workerEnded, TAIL_BYTES } from './spawn.js';
import { sendRequest, readChannel } from './channel.js';
import { killGroup, killWorker, forget, killLeftovers } from './groups.js';

// Watches a spawned worker (spawn.js spawnWorker) to its end, which is its own exit, not the
// end of its output (pipe-holders.js watchEnd): its fd-3 messages, bounded tails of stdout and
// stderr, a kill of its whole group at timeoutMs, and after it exits the kill of whatever it left
// behind. Returns { messages, arrivalsMs, exitCode, signal, timedOut, stdout(), stderrTail,
// survivors, holders, spawnError? } (arrivalsMs[i]: ms from the spawn to messages[i]; survivors:
// pids of the processes that outlived it and were killed; holders: [{ pid, name }] of those that
// held its output open after it exited; spawnError: why it never started). onMessage: called with each
// message as it arrives, for a caller that acts while the worker runs.
export async function superviseWorker(child, { timeoutMs, stdoutLimit = TAIL_BYTES, stderrLimit = TAIL_BYTES, onMessage }) {
  const { spawnError } = child.pid === undefined ? await workerEnded(child) : {};
  if (spawnError) {
    return { messages: [], arrivalsMs: [], exitCode: null, signal: null, timedOut: false, stdout: () => '', stderrTail: '', survivors: [], holders: [], spawnError };
  }
  const spawnedAt = performance.now();
  const stdoutTail = keepTail(child.stdout, stdoutLimit, { plain: true });
  const stderrTail = keepTail(child.stderr, stderrLimit, { plain: true });
  const messages = [];
  const arrivalsMs = [];
  const channelClosed = readChannel(child, (message) => {
    messages.push(message);
    arrivalsMs.push(performance.now() - spawnedAt);
    onMessage?.(message);
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid);
    killWorker(child);
  }, timeoutMs);
  const { exitCode, signal, holders } = await workerEnded(child);
  clearTimeout(timer);
  // The worker may have left grandchildren (a suite's server, say): they share its group.
  killGroup(child.pid);
  forget(child.pid);
  const survivors = [...new Set([...holders.map((h) => h.pid), ...killLeftovers(child)])];
  await Promise.race([channelClosed, new Promise((resolve) => setTimeout(resolve, 1000))]);
  return { messages, arrivalsMs, exitCode: exitCode ?? null, signal: signal ?? null, timedOut, stdout: stdoutTail, stderrTail: stderrTail(), survivors, holders };
}

export const FULL_STDOUT_LIMIT = 64 * 1024 * 1024;

// Returns { messages, arrivalsMs, exitCode, signal, timedOut, stdoutTail, stderrTail, stdout?, wallMs, survivors,
// cpu (the core it was pinned to, or null) }
// (survivors: pids of detached children that outlived the worker and were killed).
// collectStdout: keep all of stdout (bounded), for a metrics process's --trace-gc lines.
// prefix: a program and its arguments that run the runtime (valgrind for an instruction count,
// process/valgrind.js), as an argument array: [file, ...args] in front of nodePath.
// onSpawn(child): called right after the spawn, before the request is sent, and onMessage(message)
// as each message arrives: for a host that works with the worker while it runs (explain's inspector,
// explain/inspect-port.js).
export async function launchWorker(nodePath, flags, request, { timeoutMs = 60_000, cwd, env, collectStdout = false, cpu, prefix = [], onSpawn, onMessage } = {}) {
  const started = performance.now();
  const [file, ...args] = [...prefix, nodePath, ...flags, workerEntry];
  const child = spawnWorker(file, args, { stdin: 'pipe', cwd, env, cpu });
  onSpawn?.(child);
  sendRequest(child, request);
  const { stdout: stdoutOf, ...watched } = await superviseWorker(child, { timeoutMs, stdoutLimit: collectStdout ? FULL_STDOUT_LIMIT : TAIL_BYTES, onMessage });
  const stdout = stdoutOf();
  return { ...watched, stdoutTail: stdout.slice(-TAIL_BYTES), stdout: collectStdout ? stdout : undefined, wallMs: performance.now() - started, cpu: child.nodebenchCpu };
}
