// The runtime cache: <cache>/runtimes/<version>-<platform>-<arch>/bin/node plus a record
// (nodebench-runtime.json) of its exact version, V8 version, source and binary sha256.
// Installs are assembled in a temporary directory and renamed into place, so a reader never sees a
// half-installed runtime and two processes installing the same version at once cannot collide:
// the first rename wins and the other process uses the winner's copy.
import fs from 'node:fs/promises';
import path from 'node:path';
import { runtimesDir, tmpDir } from '../paths.js';
import { readJsonIfExists } from '../fs-atomic.js';
import { cacheKey } from './platform.js';
import { inspectBinary } from './inspect.js';

export const RECORD = 'nodebench-runtime.json';

export function runtimePath(version, env) {
  return path.join(runtimesDir(env), cacheKey(version));
}

export async function cachedRuntime(version, env) {
  const dir = runtimePath(version, env);
  const record = await readJsonIfExists(path.join(dir, RECORD));
  if (!record) return null;
  return { ...record, path: path.join(dir, 'bin', 'node') };
}

export async function listCached(env) {
  let names;
  try {
    names = await fs.readdir(runtimesDir(env));
  } catch (err) {
    if (err.code === 'ENOENT') return [];
    throw err;
  }
  const records = [];
  for (const name of names) {
    const record = await readJsonIfExists(path.join(runtimesDir(env), name, RECORD));
    if (record) records.push({ ...record, dir: path.join(runtimesDir(env), name), path: path.join(runtimesDir(env), name, 'bin', 'node') });
  }
  return records;
}

export async function makeStagingDir(env) {
  await fs.mkdir(tmpDir(env), { recursive: true });
  return fs.mkdtemp(path.join(tmpDir(env), 'install-'));
}

// `staged` holds bin/node. Verifies the binary is the version asked for, writes the record, then
// renames the whole directory into the cache.
export async function commitInstall(staged, version, provenance, env) {
  const binary = path.join(staged, 'bin', 'node');
  const info = await inspectBinary(binary);
  if (info.version !== version) {
    throw new Error(`the downloaded binary reports Node ${info.version}, not ${version}`);
  }
  const record = { ...info, ...provenance, installedAt: new Date().toISOString() };
  await fs.writeFile(path.join(staged, RECORD), JSON.stringify(record, null, 2));
  const final = runtimePath(version, env);
  await fs.mkdir(path.dirname(final), { recursive: true });
  try {
    await fs.rename(staged, final);
  } catch (err) {
    if (!['ENOTEMPTY', 'EEXIST', 'ENOTDIR'].includes(err.code)) throw err;
    // Another nodebench finished the same install first; keep theirs.
    await fs.rm(staged, { recursive: true, force: true });
  }
  return cachedRuntime(version, env);
}

export async function removeCached(dir) {
  // Rename first so a concurrent reader never sees a half-deleted runtime.
  const doomed = `${dir}.removing-${process.pid}`;
  await fs.rename(dir, doomed);
  await fs.rm(doomed, { recursive: true, force: true });
}
