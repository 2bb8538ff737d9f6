// Talks to the npm registry through the user's own npm, so registry mirrors, proxies, auth and
// certificates configured for npm apply to nodebench too.
import { execa } from 'execa';
import { UserError } from '../errors.js';

const NPM = process.env.NODEBENCH_NPM || 'npm';

export async function npm(args, { cwd, timeout = 300_000, env = process.env } = {}) {
  try {
    const { stdout } = await execa(NPM, [...args, '--json', '--loglevel=error'], { cwd, timeout, stdin: 'ignore', env, extendEnv: false });
    return stdout.trim() ? JSON.parse(stdout) : null;
  } catch (err) {
    if (err.code === 'ENOENT') {
      throw new UserError(`npm was not found on PATH; install npm or set NODEBENCH_NPM to its path.`);
    }
    throw err;
  }
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
