// Short questions put to a binary (a runtime's version, its V8 flag listing, whether it takes
// flags from NODE_OPTIONS): runtimes/, flags/, matrix/plan.js and valgrind.js ask through here;
// and the tools a runtime's install runs (npm, tar, nvm), so that they too are owned to their exit.
// No program nodebench runs for its output uses execa directly.
import { spawnWorker } from './spawn.js';
import { superviseWorker, FULL_STDOUT_LIMIT } from './supervise.js';

// A short run of a program whose output the host reads (a runtime's version probe, its V8 flag
// listing), ended by its exit like a worker: a wrapper script that leaves a process holding its
// stdout cannot keep the host waiting (execa waits for the pipes to close), and what it left is
// killed. Every probe of a binary goes through here. Returns { stdout, stderr, exitCode, signal,
// timedOut, holders } or throws the spawn error (ENOENT, EACCES).
export async function runToExit(file, args, { timeoutMs = 30_000, cwd, env, extendEnv } = {}) {
  const child = spawnWorker(file, args, { cwd, env, extendEnv });
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
