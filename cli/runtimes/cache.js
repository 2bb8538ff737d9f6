// The runtime cache: <cache>/runtimes/<version>-<platform>-<arch>/bin/node plus a record
// (nodebench-runtime.json) of its exact version, V8 version, source and binary sha256.
// Installs are assembled in a temporary directory and renamed into place, so a reader never sees a
// half-installed runtime and two processes installing the same version at once cannot collide:
// the first rename wins and the other process uses the winner's copy.
import fs from 'node:fs/promises';
import path from 'node:path';
import { cacheDir, runtimesDir, tmpDir } from '../paths.js';
import { readJsonIfExists, writeFileAtomic } from '../fs-atomic.js';
import { cacheKey } from './platform.js';
import { inspectBinary, askVersions, labelMismatch, runtimeInfo, sha256File } from './inspect.js';
import { UserError } from '../errors.js';

export const RECORD = 'nodebench-runtime.json';

export function runtimePath(version, env) {
  return path.join(runtimesDir(env), cacheKey(version));
}

async function readRecord(dir) {
  try {
    return await readJsonIfExists(path.join(dir, RECORD));
  } catch {
    return { corrupt: true };
  }
}

// The state of one cache entry: ok, incomplete (no or unreadable record: an install that never
// finished, or a damaged record) or damaged (the binary is not the one the record describes).
// Every command that names a runtime takes this path (through ensureRuntime or listCached). The
// binary is asked its version and V8 version each time, so an entry moved under another version's
// name with its record and stamp edited is caught by what the binary says. Its sha256 is compared
// with the record's, which costs a read of the whole binary; what the binary was when it last
// passed (size, mtime, ctime, inode, device, with the record's version and sha256) is kept beside
// the record, so that read is skipped unless the file or the record changed: a binary patched in
// place with its mtime put back still has a new ctime, which no user can set.
export const VERIFIED = 'nodebench-verified.json';

// The first bytes of every Node release's binary, by platform: ELF, Mach-O (64-bit, or universal),
// PE. What the cache holds is only ever such a binary, unpacked from a release; a script (#!) there
// is a wrapper, whose answers to nodebench's questions are whatever it chooses to print.
const NATIVE_MAGIC = { linux: ['7f454c46'], darwin: ['cffaedfe', 'cafebabe'], win32: ['4d5a'] };

async function notNativeReason(binary) {
  const magic = NATIVE_MAGIC[process.platform];
  if (!magic) return null;
  const head = Buffer.alloc(4);
  const handle = await fs.open(binary, 'r');
  let read;
  try {
    ({ bytesRead: read } = await handle.read(head, 0, 4, 0));
  } finally {
    await handle.close();
  }
  const hex = head.subarray(0, read).toString('hex');
  if (magic.some((m) => hex.startsWith(m))) return null;
  return hex.startsWith('2321') ? 'its bin/node is a script (it starts with #!), not the binary of a Node release'
    : 'its bin/node is not a native executable of this platform, not the binary of a Node release';
}

export async function checkEntry(dir, expectedVersion) {
  const binary = path.join(dir, 'bin', 'node');
  const record = await readRecord(dir);
  if (!record || record.corrupt || typeof record.version !== 'string' || typeof record.sha256 !== 'string') {
    return { state: 'incomplete', reason: record?.corrupt ? `its record ${RECORD} is not valid JSON` : `it has no complete record (${RECORD})`, dir };
  }
  if (expectedVersion && record.version !== expectedVersion) {
    return { state: 'damaged', reason: `its record says Node ${record.version}, but it is the cache entry of ${expectedVersion}`, record, dir };
  }
  let stat;
  try {
    stat = await fs.stat(binary);
  } catch {
    return { state: 'damaged', reason: 'its bin/node is missing', record, dir };
  }
  if (!stat.isFile()) return { state: 'damaged', reason: 'its bin/node is not a file', record, dir };
  const stamp = [record.version, record.sha256, stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino, stat.dev].join(':');
  const stampFile = path.join(dir, VERIFIED);
  const verified = await readJsonIfExists(stampFile).catch(() => null);
  if (verified?.stamp !== stamp) {
    const actual = await sha256File(binary);
    if (actual !== record.sha256) return { state: 'damaged', reason: `its bin/node changed since it was installed (sha256 ${actual.slice(0, 12)}…, recorded ${record.sha256.slice(0, 12)}…)`, record, dir };
  }
  // Replaced together with its record's sha256 (and stamp), the binary is still asked to be one.
  const notNative = await notNativeReason(binary).catch((err) => `its bin/node cannot be read (${err.code || err.message})`);
  if (notNative) return { state: 'damaged', reason: notNative, record, dir };
  // The binary is the one installed (its sha256, or its unchanged inode and ctime, say so), and it
  // is asked with NODE_OPTIONS cleared and no flags: nothing can preload a script into it, so its
  // answer is its own (a wrapper or a preload is the concern of binaries nodebench did not
  // install, which are also asked --version: binary.js, nvm.js).
  let answer;
  try {
    answer = await askVersions(binary);
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    return { state: 'damaged', reason: 'its bin/node does not run as Node', record, dir };
  }
  const problem = labelMismatch(record.version, answer.version, 'record')
    || (record.v8 === answer.v8 ? null : `its record says V8 ${record.v8}, but its bin/node has V8 ${answer.v8}`);
  if (problem) return { state: 'damaged', reason: problem, record, dir };
  // Another nodebench may be checking the same entry: the stamp is replaced whole, never torn. A
  // read-only cache keeps no stamp and reads the binary each time.
  if (verified?.stamp !== stamp) await writeFileAtomic(stampFile, JSON.stringify({ stamp })).catch(() => {});
  return { state: 'ok', record, dir };
}

// The cached runtime of `version`, verified; null when there is none. An incomplete entry is removed
// (the caller installs again); a damaged one is refused, so that a result is never labelled with a
// runtime it did not run.
export async function cachedRuntime(version, env) {
  const dir = runtimePath(version, env);
  try {
    await fs.access(dir);
  } catch {
    return null;
  }
  const entry = await checkEntry(dir, version);
  if (entry.state === 'incomplete') {
    await removeCached(dir);
    return null;
  }
  if (entry.state === 'damaged') {
    throw new UserError(`The cached Node ${version} in ${dir} is damaged: ${entry.reason}; reinstall it with nodebench runtimes install ${version} --repair.`);
  }
  return { ...entry.record, path: path.join(dir, 'bin', 'node') };
}

export async function listCached(env) {
  let names;
  try {
    names = await fs.readdir(runtimesDir(env));
  } catch (err) {
    if (err.code === 'ENOENT') return [];
    throw err;
  }
  // Each entry's binary is asked its version: in parallel, as the entries are independent.
  return Promise.all(names.filter((n) => !n.includes('.removing-')).map(async (name) => {
    const dir = path.join(runtimesDir(env), name);
    const version = name.replace(/-[^-]+-[^-]+$/, '');
    const entry = await checkEntry(dir, version);
    return { version, ...(entry.record || {}), state: entry.state, problem: entry.reason, dir, path: path.join(dir, 'bin', 'node') };
  }));
}

// Staging directories older than this belong to an install that was interrupted (Ctrl-C, a kill):
// no install takes this long, so they are removed.
const STALE_STAGING_MS = 60 * 60 * 1000;

export async function makeStagingDir(env) {
  try {
    await fs.mkdir(tmpDir(env), { recursive: true });
    await fs.access(tmpDir(env), fs.constants.W_OK);
  } catch (err) {
    // A restored CI cache may be read-only: runtimes already in it still run, new ones need a place.
    throw new UserError(`Cannot install into the nodebench cache ${cacheDir(env)} (${err.code === 'ENOENT' ? 'it cannot be created or written; a read-only file system?' : err.code || err.message}); set NODEBENCH_CACHE to a writable folder, or make that one writable.`, { cause: err });
  }
  for (const name of await fs.readdir(tmpDir(env)).catch(() => [])) {
    const dir = path.join(tmpDir(env), name);
    const stat = await fs.stat(dir).catch(() => null);
    if (name.startsWith('install-') && stat && Date.now() - stat.mtimeMs > STALE_STAGING_MS) await fs.rm(dir, { recursive: true, force: true });
  }
  return fs.mkdtemp(path.join(tmpDir(env), 'install-'));
}

// `staged` holds bin/node. Verifies the binary is the version asked for, writes the record, then
// renames the whole directory into the cache.
export async function commitInstall(staged, version, provenance, env) {
  const binary = path.join(staged, 'bin', 'node');
  const answer = await inspectBinary(binary);
  if (answer.version !== version || answer.versionFlag !== version) {
    throw new UserError(`The downloaded binary reports Node ${answer.versionFlag === version ? answer.version : answer.versionFlag}, not ${version}; the package or mirror is wrong: check NODE_MIRROR or your npm registry.`);
  }
  const record = { ...runtimeInfo(answer), ...provenance, installedAt: new Date().toISOString() };
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

// What a folder takes on disk, as du counts it: allocated blocks of every file and folder, a file
// with several links once; 0 for what cannot be read (an entry being removed).
export async function diskUsage(dir) {
  const seen = new Set();
  const walk = async (file) => {
    const stat = await fs.lstat(file).catch(() => null);
    if (!stat || seen.has(`${stat.dev}:${stat.ino}`)) return 0;
    seen.add(`${stat.dev}:${stat.ino}`);
    let bytes = stat.blocks * 512;
    if (stat.isDirectory()) {
      for (const name of await fs.readdir(file).catch(() => [])) bytes += await walk(path.join(file, name));
    }
    return bytes;
  };
  return walk(dir);
}

export async function removeCached(dir) {
  // Rename first so a concurrent reader never sees a half-deleted runtime.
  const doomed = `${dir}.removing-${process.pid}`;
  await fs.rename(dir, doomed);
  await fs.rm(doomed, { recursive: true, force: true });
}

// What every provider that installs into this cache shares (npm-registry.js, mirror.js): its
// runtimes are cache entries, labelled by their record and repaired by reinstalling.
export const cacheEntries = {
  choosable: false,
  kind: 'cache',
  installed: (version, { env }) => cachedRuntime(version, env),
  labelSays: (runtime) => `its cache entry says ${runtime.version}`,
  repairAdvice: (runtime) => `reinstall it with nodebench runtimes install ${runtime.version} --repair`
};
