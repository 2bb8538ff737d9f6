// The V8 flags of one runtime binary, asked from the binary (`--v8-options`) once and then kept in
// <cache>/v8-flags/<sha256>.json: the listing only changes when the binary does.
import path from 'node:path';
import { cacheDir } from '../paths.js';
import { outputOf } from '../process/run-to-exit.js';
import { readJsonIfExists, writeFileAtomic } from '../fs-atomic.js';
import { sha256File } from '../runtimes/inspect.js';
import { UserError, isUserError } from '../errors.js';
import { parseV8Options } from './parse.js';

const CACHE_FORMAT = 1;

export function v8Short(v8) {
  return String(v8).split('.').slice(0, 2).join('.');
}

export function describeRuntime(runtime) {
  return `Node ${runtime.version} (V8 ${v8Short(runtime.v8)})`;
}

// A listing as this version of nodebench writes it, for this binary: anything else in the cache (cut
// short, edited, an older format) is asked from the binary again and replaced.
function isListing(cached, sha256) {
  return Boolean(cached) && cached.format === CACHE_FORMAT && cached.sha256 === sha256 && Array.isArray(cached.flags)
    && cached.flags.every((f) => f && typeof f.name === 'string' && typeof f.printed === 'string' && typeof f.type === 'string' && typeof f.description === 'string');
}

export async function runtimeFlags(runtime, { env = process.env } = {}) {
  const sha256 = runtime.sha256 || (await sha256File(runtime.path));
  const file = path.join(cacheDir(env), 'v8-flags', `${sha256}.json`);
  const cached = await readJsonIfExists(file).catch(() => null);
  if (isListing(cached, sha256)) return cached;
  let stdout;
  try {
    stdout = await outputOf(runtime.path, ['--v8-options']);
  } catch (err) {
    throw new UserError(`${describeRuntime(runtime)} did not list its V8 flags (it ${err.message}); check that ${runtime.path} is a working node binary.`, { cause: err });
  }
  const listing = { format: CACHE_FORMAT, version: runtime.version, v8: runtime.v8, sha256, flags: parseV8Options(stdout) };
  // A cache that cannot be written (a read-only restored CI cache) only means asking again next time.
  await writeFileAtomic(file, `${JSON.stringify(listing)}\n`).catch(() => {});
  return listing;
}

// The listing, or null with the reason as a warning when the runtime cannot give one (its cells
// still run; only what needs its flag defaults goes without).
export async function runtimeFlagsOrNull(runtime, log) {
  try {
    return await runtimeFlags(runtime);
  } catch (err) {
    if (!isUserError(err)) throw err;
    log(`warning: ${err.message}`);
    return null;
  }
}
