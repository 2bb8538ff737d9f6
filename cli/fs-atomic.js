// Files written so that a failed write never loses what was on disk: the new text goes to a temporary
// file in the same folder (so the rename cannot cross file systems), is synced to the disk, and only
// then replaces the old file in one rename; a reader, a kill or a full disk mid-write leaves the
// previous complete version in place. A failure the user can fix (a full disk, a folder given as the
// file, a file in the middle of the path, no permission) is one sentence naming their path.
//
// `writeOutput` is the one writer of every --out: what the user names is not always a file. A device
// (/dev/null, /dev/full), a FIFO or a /proc path (/dev/stdout is /proc/self/fd/1) cannot be renamed
// over without destroying it or failing, so those are written through (opened and written in place);
// a disk is refused. A file bind-mounted over (docker run -v file:file) gets the new text copied in
// when the rename fails with EBUSY. A symbolic link is never replaced: what it leads to is written
// (a dangling one: the file it names is created), and a loop of links is a sentence. checkWritable
// tells before minutes of measuring whether writeOutput will fail.
import fs from 'node:fs/promises';
import fsSync from 'node:fs';
import path from 'node:path';
import { UserError } from './errors.js';
import { formatBytes } from './text/format.js';

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
// `through`: the file was written in place (a device, a FIFO, a /proc path, a mount point).
export async function describeWriteFailure(err, file, { kept = false, through = null } = {}) {
  const dir = path.dirname(file);
  const keeps = kept ? `; the previous version of ${file} is kept as it was` : '';
  switch (err?.code) {
    case 'ENOSPC':
    case 'EDQUOT': {
      if (through && through !== 'mount point') return `Cannot write ${file}: the ${through} reports no space left (${err.code}); choose another path.`;
      const where = through ? path.dirname(fsSync.realpathSync(file)) : dir;
      const free = await freeBytes(where);
      return `Cannot write ${file}: its file system is full (${free === null ? 'free space unknown' : `${formatBytes(free)} free`} in ${where})${keeps}; free some space or write it elsewhere.`;
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
    case 'ENOENT':
      // A folder that takes no new files (/proc, /sys): the temporary file or the file itself cannot be made there.
      return `Cannot create ${file}: ${dir} takes no new files; choose another path.`;
    case 'ENXIO':
      return through === 'FIFO' ? `Cannot write ${file}: nothing is reading that FIFO; start its reader first, or choose another path.`
        : `Cannot write ${file}: it is a ${through || 'special file'} that takes no writes (${err.code}); choose another path.`;
    case 'EPIPE':
      return `Cannot write ${file}: its reader went away before everything was written; choose another path.`;
    case 'EBUSY':
    case 'EXDEV':
    case 'EINVAL':
    case 'EIO':
    case 'EFBIG':
      return through ? `Cannot write ${file}: the ${through} refused the write (${err.code}); choose another path.` : null;
    default:
      return null;
  }
}

async function asUserError(err, file, options) {
  const sentence = await describeWriteFailure(err, file, options);
  return sentence ? new UserError(sentence, { cause: err }) : err;
}

// Whether `file` is a mount point by Linux's list of them (null where there is no such list): a
// file bind-mounted over cannot be replaced by a rename (EBUSY).
function isMountPoint(file) {
  let table;
  try {
    table = fsSync.readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return null;
  }
  const unescape = (field) => field.replace(/\\([0-7]{3})/g, (_, octal) => String.fromCharCode(parseInt(octal, 8)));
  return table.split('\n').some((line) => unescape(line.split(' ')[4] || '') === file);
}

const PSEUDO = ['/proc', '/sys'];
const inPseudo = (file) => PSEUDO.some((root) => file === root || file.startsWith(`${root}/`));

function specialKind(stat) {
  if (stat.isCharacterDevice()) return 'character device';
  if (stat.isFIFO()) return 'FIFO';
  if (stat.isSocket()) return 'socket';
  return null;
}

// What a path that is not a regular file is, for sentences: "a FIFO", "a folder".
export function kindOf(stat) {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSymbolicLink()) return 'a symbolic link';
  const special = specialKind(stat);
  return special ? `a ${special}` : stat.isFile() ? 'a regular file' : 'not a regular file';
}

// How `file` is written: { how: 'replace', path } (a regular file or a new path: the file a symlink
// leads to, atomically), { how: 'through', path, what } (written in place), or a UserError for
// what is never written (a folder, a disk).
export function outputTarget(file) {
  const given = path.resolve(file);
  let stat = null;
  try {
    stat = fsSync.statSync(given);
  } catch (err) {
    if (err.code === 'ELOOP') return loopOfLinks(file);
    if (err.code !== 'ENOENT') return { how: 'replace', path: given };
  }
  let real = null;
  try {
    real = fsSync.realpathSync(given);
  } catch {
    // A dangling link, a pipe behind /proc/self/fd, or a new path.
  }
  // A link is followed wherever it leads, as a shell's > follows it: a dangling one gets the file
  // it names created, and stays the link it was (a rename over it would replace the link itself).
  const end = stat || real ? real : linkEnd(given);
  if (end instanceof UserError) return end;
  if (stat?.isDirectory()) return { how: 'replace', path: given, stat };
  if (stat?.isBlockDevice()) return new UserError(`${file} is a disk (a block device); nodebench never writes over one; choose the path of a file.`);
  const special = stat ? specialKind(stat) : null;
  if (special) return { how: 'through', path: given, what: special, stat };
  // A link to /proc/self/fd/N (what /dev/stdout is) names a descriptor of this process, whatever
  // file the shell redirected it to: written through it, never renamed over the link.
  if (ownDescriptor(given) !== null) return { how: 'through', path: given, what: 'descriptor of this process (/proc/self/fd)', stat };
  if (inPseudo(given) || (end && inPseudo(end))) return { how: 'through', path: given, what: `${given.split('/')[1]} file`, stat };
  return { how: 'replace', path: end || given, stat };
}

// Where a chain of links starting at `file` ends: the first path that is no link (`file` itself
// when it is none), or a UserError for a loop.
function linkEnd(file) {
  let at = file;
  for (let hops = 0; hops < 40; hops++) {
    let link;
    try {
      link = fsSync.readlinkSync(at);
    } catch {
      return at;
    }
    let parent = path.dirname(at);
    try {
      parent = fsSync.realpathSync(parent);
    } catch {
      // A link in a folder that is not there cannot be: readlink would have failed.
    }
    at = path.resolve(parent, link);
  }
  return loopOfLinks(file);
}

const loopOfLinks = (file) => new UserError(`${file} is a symbolic link that leads back to itself (a loop of links); remove it, or choose another path.`);

// The descriptor of this process that `file` names through /proc/self/fd/N, /dev/fd/N or
// /dev/stdout (a link to /proc/self/fd/1), following links; null for any other path. Such a path
// is written to the descriptor itself: opening it anew fails for a socket (ENXIO) and would truncate
// the file a shell redirected to.
function ownDescriptor(file) {
  let at = path.resolve(file);
  for (let hops = 0; hops < 40; hops++) {
    let parent = path.dirname(at);
    try {
      parent = fsSync.realpathSync(parent);
    } catch {
      return null;
    }
    const match = /^\/proc\/(self|\d+)\/fd\/(\d+)$/.exec(path.join(parent, path.basename(at)));
    if (match && (match[1] === 'self' || Number(match[1]) === process.pid)) return Number(match[2]);
    let link;
    try {
      link = fsSync.readlinkSync(at);
    } catch {
      return null;
    }
    at = path.resolve(parent, link);
  }
  return null;
}

async function writeToDescriptor(fd, data) {
  const chunks = typeof data === 'string' || Buffer.isBuffer(data) ? [data] : data;
  for await (const chunk of chunks) {
    const bytes = Buffer.from(chunk);
    for (let done = 0; done < bytes.length;) {
      done += await new Promise((resolve, reject) => fsSync.write(fd, bytes, done, bytes.length - done, null, (err, written) => (err ? reject(err) : resolve(written))));
    }
  }
}

// Opening a FIFO for writing waits for a reader: opened without waiting, it fails at once (ENXIO)
// when there is none. Such a probe stays open until the real descriptor is, so that the reader never
// sees every writer gone (and stops) in between; checkWritable's probes are kept here until then.
const fifoProbes = new Map();
const openFifoProbe = (file) => fs.open(file, fsSync.constants.O_WRONLY | fsSync.constants.O_NONBLOCK);

async function writeThrough(target, data) {
  const fd = ownDescriptor(target.path);
  if (fd !== null) return writeToDescriptor(fd, data);
  // Asked again even when checkWritable holds a probe: the reader may have gone since.
  const held = fifoProbes.get(target.path);
  fifoProbes.delete(target.path);
  let probe = null;
  let handle;
  try {
    probe = target.what === 'FIFO' ? await openFifoProbe(target.path) : null;
    // A FIFO write-only, so that a reader that goes away mid-write is EPIPE, not a full pipe for ever.
    handle = await fs.open(target.path, target.stat?.isFile() || !target.stat ? 'w' : target.what === 'FIFO' ? fsSync.constants.O_WRONLY : 'r+');
  } finally {
    await probe?.close();
    await held?.close();
  }
  try {
    await fs.writeFile(handle, data);
    if (target.stat?.isFile()) await handle.sync();
  } finally {
    await handle.close().catch(() => {});
  }
}

// Checked before a command spends minutes measuring what it will write to `file` (explain): what
// writeOutput would refuse at the end is the same sentence now. Nothing is written: a device is
// given an empty write (which /dev/full already refuses), a FIFO must have its reader (the probe is
// held open for writeOutput), a new file's folder must take files.
export async function checkWritable(file) {
  const target = outputTarget(file);
  if (target instanceof UserError) throw target;
  try {
    if (target.how === 'replace') return checkReplaceable(target);
    if (target.what === 'FIFO') {
      if (!fifoProbes.has(target.path)) fifoProbes.set(target.path, await openFifoProbe(target.path));
      return;
    }
    const fd = ownDescriptor(target.path);
    if (fd !== null) return fsSync.writeSync(fd, Buffer.alloc(0));
    if (!target.stat) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
    // A /proc or /sys file that exists is not written to ahead: an empty write may act there.
    if (!target.stat.isCharacterDevice()) return;
    // Written synchronously: the promise API skips an empty write without asking the device.
    const device = fsSync.openSync(target.path, 'r+');
    try {
      fsSync.writeSync(device, Buffer.alloc(0));
    } finally {
      fsSync.closeSync(device);
    }
  } catch (err) {
    throw await asUserError(err, file, target.how === 'through' ? { through: target.what } : {});
  }
}

function checkReplaceable(target) {
  if (target.stat?.isDirectory()) throw Object.assign(new Error('is a folder'), { code: 'EISDIR' });
  if (fileInPath(path.dirname(target.path))) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
  let folder = path.dirname(target.path);
  while (!fsSync.existsSync(folder)) folder = path.dirname(folder);
  // The new file is made beside the old one and renamed over it: the folder must take files. A file
  // mounted over is written in place instead, so it must take writes itself.
  fsSync.accessSync(folder, fsSync.constants.W_OK);
  if (target.stat?.isFile() && isMountPoint(target.path)) fsSync.accessSync(target.path, fsSync.constants.W_OK);
}

// The one writer of every --out: atomically when `file` is a regular file or a new path, in place
// when it is something a rename would destroy (see outputTarget).
export async function writeOutput(file, data) {
  const target = outputTarget(file);
  if (target instanceof UserError) throw target;
  if (target.how === 'replace') return writeFileAtomic(target.path, data, { shownAs: file });
  try {
    await writeThrough(target, data);
  } catch (err) {
    throw await asUserError(err, file, { through: target.what });
  }
}

// `data`: a string, a Buffer, or an (async) iterable of them (a large file written piece by piece,
// never held as one string). `shownAs`: the path as the user gave it, for sentences.
export async function writeFileAtomic(file, data, { shownAs = file } = {}) {
  const target = path.resolve(file);
  const existing = await fs.stat(target).catch(() => null);
  if (existing?.isDirectory()) throw await asUserError(Object.assign(new Error('is a folder'), { code: 'EISDIR' }), shownAs);
  try {
    await fs.mkdir(path.dirname(target), { recursive: true });
  } catch (err) {
    throw await asUserError(err, shownAs);
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
    // A file mounted over (a bind mount) cannot be renamed over: the complete new text is copied
    // into it in place instead.
    const mounted = !handle && (err.code === 'EBUSY' || err.code === 'EXDEV') && existing?.isFile() && isMountPoint(target) !== false;
    const failure = mounted ? await fs.copyFile(tmp, target).then(() => null, (again) => again) : err;
    await fs.rm(tmp, { force: true });
    if (!failure) return;
    throw await asUserError(failure, shownAs, mounted ? { through: 'mount point' } : { kept: Boolean(existing) });
  }
  // The rename itself survives a crash once the folder is synced; not every file system allows it.
  const folder = await fs.open(path.dirname(target), 'r').catch(() => null);
  await folder?.sync().catch(() => {});
  await folder?.close();
}

// What is not a regular file is never read: a FIFO would block the read (and a stream of it) for
// ever, a device never ends (/dev/zero, /dev/urandom) or answers something else each time. It is
// looked at before it is opened, and opened without waiting (O_NONBLOCK: a FIFO put there in between
// opens at once, and the handle's own stat sees it), so nothing swapped in between can block. The
// error for anything else has code ENOTREGULAR and `kind` ("a FIFO", "a character device") for the
// caller's sentence. Returns an open FileHandle.
export async function openRegularFile(file) {
  const refuse = (stat) => Object.assign(new Error(`${file} is ${kindOf(stat)}, not a regular file`), { code: 'ENOTREGULAR', kind: kindOf(stat), path: file });
  const stat = await fs.stat(file);
  if (!stat.isFile()) throw refuse(stat);
  const handle = await fs.open(file, fsSync.constants.O_RDONLY | fsSync.constants.O_NONBLOCK);
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) throw refuse(opened);
  } catch (err) {
    await handle.close();
    throw err;
  }
  return handle;
}

// The whole of a regular file (openRegularFile), as text with `encoding`, else a Buffer.
export async function readRegularFile(file, encoding) {
  const handle = await openRegularFile(file);
  try {
    return await handle.readFile(encoding);
  } finally {
    await handle.close();
  }
}

// Callers take a throw (ENOTREGULAR included) as a damaged entry: fetched again, or named.
export async function readJsonIfExists(file) {
  try {
    return JSON.parse(await readRegularFile(file, 'utf8'));
  } catch (err) {
    if (err.code === 'ENOENT') return null;
    throw err;
  }
}
