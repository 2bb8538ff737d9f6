// Talks to the npm registry through the user's own npm, so registry mirrors, proxies, auth and
// certificates configured for npm apply to nodebench too. npm runs through run-to-exit.js, owned to
// its exit like every program nodebench runs for its output.
import { runToExit, exitProblem } from '../process/run-to-exit.js';
import { UserError } from '../errors.js';

const NPM = process.env.NODEBENCH_NPM || 'npm';

// Resolves npm's JSON answer (null for none); rejects with an Error that carries npm's stdout and
// stderr (npmErrorSummary reads them), or a UserError when there is no npm.
export async function npm(args, { cwd, timeout = 300_000, env = process.env } = {}) {
  let ran;
  try {
    ran = await runToExit(NPM, [...args, '--json', '--loglevel=error'], { cwd, timeoutMs: timeout, env, extendEnv: false });
  } catch (err) {
    if (err.code === 'ENOENT') {
      throw new UserError(`npm was not found on PATH; install npm or set NODEBENCH_NPM to its path.`);
    }
    throw err;
  }
  const problem = exitProblem(ran);
  if (problem) throw Object.assign(new Error(`npm ${args[0]} ${problem}`), { stdout: ran.stdout, stderr: ran.stderr, exitCode: ran.exitCode, timedOut: ran.timedOut });
  return ran.stdout.trim() ? JSON.parse(ran.stdout) : null;
}

// npm prints a JSON error body on stdout when --json is given; pull its one-line summary out.
export function npmErrorSummary(err) {
  try {
    const body = JSON.parse(err.stdout);
    if (body && body.error) return body.error.summary || body.error.code;
  } catch {
    // Not JSON: fall back to stderr.
  }
  const lines = String(err.stderr || err.shortMessage || err.message).split('\n').filter((l) => l.trim());
  return (lines.find((l) => /ERR!/.test(l) && !/A complete log/.test(l)) || lines[0] || 'unknown npm error').replace(/^npm (error|ERR!)\s*/, '');
}
