// Which Node versions exist, from the npm registry package (or a nodejs.org-layout mirror's
// index.json). Cached on disk for a day so that running the same matrix again asks no server.
import path from 'node:path';
import { indexDir } from '../paths.js';
import { readJsonIfExists, writeFileAtomic } from '../fs-atomic.js';
import { UserError } from '../errors.js';
import { npm, npmErrorSummary } from './npm-cli.js';

export const INDEX_TTL_MS = 24 * 3600 * 1000;

async function fetchNpmVersions(packageName, env) {
  try {
    const versions = await npm(['view', packageName, 'versions'], { timeout: 60_000, env });
    return Array.isArray(versions) ? versions : [versions];
  } catch (err) {
    if (err instanceof UserError) throw err;
    const detail = npmErrorSummary(err).replace(/^FetchError: /, '');
    const failure = new UserError(`Could not list Node versions from the npm registry package ${packageName} (${detail}); check the network or npm's registry setting, or use runtimes already in the cache.`, { cause: err });
    failure.detail = detail;
    throw failure;
  }
}

async function fetchMirrorVersions(mirror) {
  const url = `${mirror.replace(/\/$/, '')}/index.json`;
  let response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(60_000) });
  } catch (err) {
    const failure = new UserError(`Could not reach the Node mirror ${url} (${err.cause?.code || err.message}); check NODE_MIRROR or the network.`, { cause: err });
    failure.detail = `${url}: ${err.cause?.code || err.message}`;
    throw failure;
  }
  if (!response.ok) throw new UserError(`The Node mirror ${url} answered HTTP ${response.status}; check NODE_MIRROR.`);
  const list = await response.json();
  return list.map((entry) => entry.version.replace(/^v/, ''));
}

// source: { kind: 'npm', packageName } or { kind: 'mirror', mirror }.
export async function availableVersions(source, { env = process.env, refresh = false, now = Date.now() } = {}) {
  const name = source.kind === 'npm' ? source.packageName : `mirror-${Buffer.from(source.mirror).toString('hex').slice(0, 40)}`;
  const file = path.join(indexDir(env), `${name}.json`);
  const cached = await readJsonIfExists(file);
  if (!refresh && cached && now - cached.fetchedAt < INDEX_TTL_MS) return { versions: cached.versions, fromCache: true };
  try {
    const versions = source.kind === 'npm' ? await fetchNpmVersions(source.packageName, env) : await fetchMirrorVersions(source.mirror);
    await writeFileAtomic(file, JSON.stringify({ fetchedAt: now, source, versions }));
    return { versions, fromCache: false };
  } catch (err) {
    // Offline with an old list: an old list still resolves, and says so.
    if (cached) return { versions: cached.versions, fromCache: true, stale: true, staleReason: err.message };
    throw err;
  }
}
