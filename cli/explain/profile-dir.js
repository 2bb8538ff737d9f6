// Where explain keeps its .cpuprofile files: --profile-dir, else ./nodebench-explain-<time> in the
// working folder. Made and tried before any process runs, because a folder that cannot take the
// profiles fails only when each profiled process ends: a file or a FIFO there made mkdir throw
// (exit 70), and an immutable folder let every process run and fail, to end in "Neither side could
// be profiled". A FIFO is looked at, never opened. Node's recursive mkdir reports EROFS as ENOENT,
// so the missing folders are made one at a time, and the error is the file system's own.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { UserError } from '../errors.js';
import { kindOf, fileInPath } from '../fs-atomic.js';

function reason(err, dir) {
  switch (err.code) {
    case 'EROFS': return `${existingParent(dir)} is on a read-only file system`;
    case 'EACCES': return `permission denied in ${existingParent(dir)}`;
    case 'EPERM': return 'it takes no new files (operation not permitted, as a folder made immutable with chattr +i answers even root)';
    case 'ENOSPC':
    case 'EDQUOT': return `its file system is full (${err.code})`;
    case 'ENAMETOOLONG': return 'the path is too long';
    // Any other refusal of the file system (mkdir in /proc answers ENOENT under an existing parent).
    default: return typeof err.code === 'string' && /^E[A-Z]+$/.test(err.code) ? `the file system refuses new files there (${err.code})` : null;
  }
}

// The nearest folder of `dir`'s path that exists (where a new folder would be made).
function existingParent(dir) {
  let at = dir;
  while (!fs.existsSync(at) && path.dirname(at) !== at) at = path.dirname(at);
  return at;
}

// given: whether the user named the folder (--profile-dir), for what the sentence tells them to do.
// Returns the folder's absolute path, made if new; throws a UserError for one that cannot hold files.
export function prepareProfileDir(dir, { given = true } = {}) {
  const folder = path.resolve(dir);
  const fix = given ? 'give --profile-dir a folder that can be written' : 'run explain from a folder that can be written, or give --profile-dir one';
  const refuse = (err) => {
    const why = reason(err, folder);
    if (!why) throw err;
    throw new UserError(`Cannot keep profiles in ${folder}: ${why}; ${fix}.`, { cause: err });
  };
  let stat = null;
  try {
    stat = fs.statSync(folder);
  } catch (err) {
    if (err.code !== 'ENOENT' && err.code !== 'ENOTDIR') refuse(err);
  }
  if (stat && !stat.isDirectory()) {
    throw new UserError(`${given ? '--profile-dir ' : ''}${folder} is ${kindOf(stat)}, not a folder; give --profile-dir a new folder or an existing one.`);
  }
  const blocker = stat ? null : fileInPath(path.dirname(folder));
  if (blocker) throw new UserError(`Cannot keep profiles in ${folder}: ${blocker} is a file, not a folder; give --profile-dir another path.`);
  const missing = [];
  for (let at = folder; !fs.existsSync(at); at = path.dirname(at)) missing.unshift(at);
  try {
    for (const at of missing) {
      try {
        fs.mkdirSync(at);
      } catch (err) {
        // Made meanwhile by another explain of the same diff: what counts is that it takes files.
        if (err.code !== 'EEXIST') throw err;
      }
    }
    // A folder may exist and still refuse files (read-only, immutable, full): a file is made and removed.
    const probe = path.join(folder, `.nodebench-probe-${process.pid}-${randomBytes(4).toString('hex')}`);
    fs.closeSync(fs.openSync(probe, 'wx'));
    fs.rmSync(probe, { force: true });
  } catch (err) {
    refuse(err);
  }
  return folder;
}

// A name for the profile folder's files and sub-folders made of `text` (a column, a benchmark):
// letters, digits, '.', '_' and '-' only, at most 60 characters.
export const safeName = (text) => String(text).replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 60) || 'x';

// One sub-folder name per label, none shared: `p q` and `p_q` are both `p_q` as names, and long
// names that differ past their 60th character are one, so a later one gets -2, -3, ...
export function uniqueNames(labels) {
  const used = new Set();
  return labels.map((label) => {
    const base = safeName(label);
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}-${n}`;
    used.add(name);
    return name;
  });
}
