// How one timing or metrics worker is launched and watched (the "executor"; schedule.js decides the
// order). The worker runs in the runtime under test with the cell's flags, as an argument array.
import { workerEntry } from '../paths.js';
import { spawnWorker, killGroup, forget, keepTail, readChannel, killTagged, TAIL_BYTES } from './process-group.js';

const FULL_STDOUT_LIMIT = 64 * 1024 * 1024;

// Returns { messages, exitCode, signal, timedOut, stdoutTail, stderrTail, stdout?, wallMs, survivors }
// (survivors: pids of detached children that outlived the worker and were killed).
// collectStdout: keep all of stdout (bounded), for a metrics process's --trace-gc lines.
export async function launchWorker(nodePath, flags, request, { timeoutMs = 60_000, cwd, env, collectStdout = false } = {}) {
  const started = Date.now();
  const child = spawnWorker(nodePath, [...flags, workerEntry, JSON.stringify(request)], { cwd, env });
  const stdoutTail = keepTail(child.stdout, collectStdout ? FULL_STDOUT_LIMIT : TAIL_BYTES);
  const stderrTail = keepTail(child.stderr);
  const messages = [];
  const channelClosed = readChannel(child, (message) => messages.push(message));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid);
  }, timeoutMs);
  const result = await child;
  clearTimeout(timer);
  // The worker may have left grandchildren (a suite's server, say): they share its group.
  killGroup(child.pid);
  forget(child.pid);
  const survivors = killTagged(child.nodebenchTag);
  await Promise.race([channelClosed, new Promise((resolve) => setTimeout(resolve, 1000))]);
  const stdout = stdoutTail();
  return {
    messages,
    exitCode: result.exitCode ?? null,
    signal: result.signal ?? null,
    timedOut,
    stdoutTail: stdout.slice(-TAIL_BYTES),
    stderrTail: stderrTail(),
    stdout: collectStdout ? stdout : undefined,
    wallMs: Date.now() - started,
    survivors
  };
}
