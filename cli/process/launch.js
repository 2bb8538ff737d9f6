// How a process nodebench starts is launched and watched to its own exit: a timing or metrics worker
// (the "executor"; runner/schedule.js decides the order), in the runtime under test with the
// cell's flags as an argument array; a command's probe (runner/command.js); and every short
// question put to a binary (runToExit, outputOf: runtimes/, flags/, matrix/plan.js).
import { workerEntry } from '../paths.js';
import { spawnWorker, sendRequest, killGroup, killWorker, forget, keepTail, readChannel, killLeftovers, workerEnded, TAIL_BYTES } from './process-group.js';

// Watches a spawned worker (process-group.js spawnWorker) to its end, which is its own exit, not the
// end of its output (process-group.js watchEnd): its fd-3 messages, bounded tails of stdout and
// stderr, a kill of its whole group at timeoutMs, and after it exits the kill of whatever it left
// behind. Returns { messages, arrivalsMs, exitCode, signal, timedOut, stdout(), stderrTail,
// survivors, holders, spawnError? } (arrivalsMs[i]: ms from the spawn to messages[i]; survivors:
// pids of the processes that outlived it and were killed; holders: [{ pid, name }] of those that
// held its output open after it exited; spawnError: why it never started).
export async function superviseWorker(child, { timeoutMs, stdoutLimit = TAIL_BYTES, stderrLimit = TAIL_BYTES }) {
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

const FULL_STDOUT_LIMIT = 64 * 1024 * 1024;

// Returns { messages, arrivalsMs, exitCode, signal, timedOut, stdoutTail, stderrTail, stdout?, wallMs, survivors,
// cpu (the core it was pinned to, or null) }
// (survivors: pids of detached children that outlived the worker and were killed).
// collectStdout: keep all of stdout (bounded), for a metrics process's --trace-gc lines.
// prefix: a program and its arguments that run the runtime (valgrind for an instruction count,
// process/valgrind.js), as an argument array: [file, ...args] in front of nodePath.
export async function launchWorker(nodePath, flags, request, { timeoutMs = 60_000, cwd, env, collectStdout = false, cpu, prefix = [] } = {}) {
  const started = performance.now();
  const [file, ...args] = [...prefix, nodePath, ...flags, workerEntry];
  const child = spawnWorker(file, args, { stdin: 'pipe', cwd, env, cpu });
  sendRequest(child, request);
  const { stdout: stdoutOf, ...watched } = await superviseWorker(child, { timeoutMs, stdoutLimit: collectStdout ? FULL_STDOUT_LIMIT : TAIL_BYTES });
  const stdout = stdoutOf();
  return { ...watched, stdoutTail: stdout.slice(-TAIL_BYTES), stdout: collectStdout ? stdout : undefined, wallMs: performance.now() - started, cpu: child.nodebenchCpu };
}

// A short run of a program whose output the host reads (a runtime's version probe, its V8 flag
// listing), ended by its exit like a worker: a wrapper script that leaves a process holding its
// stdout cannot keep the host waiting (execa waits for the pipes to close), and what it left is
// killed. Every probe of a binary goes through here. Returns { stdout, stderr, exitCode, signal,
// timedOut, holders } or throws the spawn error (ENOENT, EACCES).
export async function runToExit(file, args, { timeoutMs = 30_000, cwd, env } = {}) {
  const child = spawnWorker(file, args, { cwd, env });
  const watched = await superviseWorker(child, { timeoutMs, stdoutLimit: FULL_STDOUT_LIMIT, stderrLimit: FULL_STDOUT_LIMIT });
  if (watched.spawnError) throw watched.spawnError;
  return { stdout: watched.stdout(), stderr: watched.stderrTail, exitCode: watched.exitCode, signal: watched.signal, timedOut: watched.timedOut, holders: watched.holders, timeoutMs };
}

// Why a runToExit run did not succeed, as a fragment for a sentence ("timed out after 30 s"), or
// null when it exited with status 0.
export function exitProblem({ exitCode, signal, timedOut, timeoutMs, stderr }) {
  if (timedOut) return `did not answer within ${timeoutMs / 1000} s`;
  if (signal) return `was killed by ${signal}`;
  if (exitCode === 0) return null;
  const said = String(stderr || '').trim().split('\n').filter((line) => line.trim()).pop();
  return `exited with status ${exitCode}${said ? `: ${said.trim().slice(0, 200)}` : ''}`;
}

// A probe whose only answer is its stdout: resolves it when the program exits with status 0, else
// rejects with an Error whose message says why as a verb phrase ("exited with status 9: ...",
// "could not be started (EACCES)"), for the caller's sentence.
export async function outputOf(file, args, options) {
  let ran;
  try {
    ran = await runToExit(file, args, options);
  } catch (err) {
    throw new Error(`could not be started (${err.code || err.message})`, { cause: err });
  }
  const problem = exitProblem(ran);
  if (problem) throw new Error(problem);
  return ran.stdout;
}
