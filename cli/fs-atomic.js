// Files written so that a failed write never loses what was on disk: the new text goes to a temporary
// file in the same folder (so the rename cannot cross file systems), is synced to the disk, and only
// then replaces the old file in one rename; a reader, a kill or a full disk mid-write leaves the
// previous complete version in place. A failure the user can fix (a full disk, a folder given as the
// file, a file in the middle of the path, no permission) is one sentence naming their path.
import fs from 'node:fs/promises';
import fsSync from 'node:fs';
import path from 'node:path';
import { UserError } from './errors.js';
import { formatBytes } from './report/format.js';

let counter = 0;

// The first existing part of `dir`'s path that is not a folder (a file where a folder should be).
export function fileInPath(dir) {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    let stat = null;
    try {
      stat = fsSync.statSync(at);
    } catch {
      // Not there yet: mkdir would create it; look further up.
    }
    if (stat) return stat.isDirectory() ? null : at;
    if (path.dirname(at) === at) return null;
  }
}

async function freeBytes(dir) {
  try {
    const stats = await fs.statfs(dir);
    return stats.bavail * stats.bsize;
  } catch {
    return null;
  }
}

// The sentence for a write of `file` that failed with `err`, or null when it is not the user's to
// fix (then the caller rethrows it as the bug it is). `kept`: an earlier version is still there.
export async function describeWriteFailure(err, file, { kept = false } = {}) {
  const dir = path.dirname(file);
  const keeps = kept ? `; the previous version of ${file} is kept as it was` : '';
  switch (err?.code) {
    case 'ENOSPC':
    case 'EDQUOT': {
      const free = await freeBytes(dir);
      return `Cannot write ${file}: its file system is full (${free === null ? 'free space unknown' : `${formatBytes(free)} free`} in ${dir})${keeps}; free some space or write it elsewhere.`;
    }
    case 'EISDIR':
      return `${file} is a folder; give the path of a file inside it instead.`;
    case 'EEXIST':
    case 'ENOTDIR': {
      const blocker = fileInPath(dir);
      return blocker ? `Cannot write ${file}: ${blocker} is a file, not a folder; choose another path.` : null;
    }
    case 'EACCES':
    case 'EPERM':
      return `Cannot write ${file} (permission denied in ${dir}); choose another path or fix the folder's permissions.`;
    case 'EROFS':
      return `Cannot write ${file}: ${dir} is on a read-only file system; choose another path.`;
    case 'ENAMETOOLONG':
      return `Cannot write ${file}: the name is too long; choose a shorter path.`;
    default:
      return null;
  }
}

async function asUserError(err, file, options) {
  const sentence = await describeWriteFailure(err, file, options);
  return sentence ? new UserError(sentence, { cause: err }) : err;
}

// `data`: a string, a Buffer, or an (async) iterable of them (a large file written piece by piece,
// never held as one string).
export async function writeFileAtomic(file, data) {
  const target = path.resolve(file);
  const existing = await fs.stat(target).catch(() => null);
  if (existing?.isDirectory()) throw await asUserError(Object.assign(new Error('is a folder'), { code: 'EISDIR' }), file);
  try {
    await fs.mkdir(path.dirname(target), { recursive: true });
  } catch (err) {
    throw await asUserError(err, file);
  }
  const tmp = `${target}.${process.pid}.${counter++}.tmp`;
  let handle = null;
  try {
    handle = await fs.open(tmp, 'wx');
    await fs.writeFile(handle, data);
    // On disk before it replaces anything: a crash after the rename must not leave an empty file.
    await handle.sync();
    await handle.close();
    handle = null;
    await fs.rename(tmp, target);
  } catch (err) {
    await handle?.close().catch(() => {});
    await fs.rm(tmp, { force: true });
    throw await asUserError(err, file, { kept: Boolean(existing) });
  }
  // The rename itself survives a crash once the folder is synced; not every file system allows it.
  const folder = await fs.open(path.dirname(target), 'r').catch(() => null);
  await folder?.sync().catch(() => {});
  await folder?.close();
}

export async function readJsonIfExists(file) {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (err) {
    if (err.code === 'ENOENT') return null;
    throw err;
  }
}
