// One writer per result file: two runs writing the same file (a second one with --force, or two
// resumes at once) would overwrite each other's saves every few seconds. The lock is a file beside
// the result naming its writer (pid and start time, so that a reused pid is not mistaken for it);
// a lock left by a run that was killed is taken over.
import fs from 'node:fs';
import { UserError } from '../errors.js';
import { kindOf } from '../fs-atomic.js';

// The process's start time in clock ticks since boot (field 22 of /proc/PID/stat), or null.
export function startTicks(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return null;
  }
}

// Whether the process { pid, startTicks? } still runs (a reused pid with another start time does
// not count). Also how run directories and cgroups of killed runs are told apart (runner/).
export function processAlive(holder) {
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    if (err.code !== 'EPERM') return false;
  }
  const ticks = startTicks(holder.pid);
  return !ticks || !holder.startTicks || ticks === holder.startTicks;
}

// Who holds a lock file: { pid, startTicks } as the writer left it, or null (empty, damaged, gone).
export function readHolder(lock) {
  try {
    // Never read what is not a regular file: a FIFO would block for ever (lockFileProblem names it).
    if (!fs.lstatSync(lock).isFile()) return null;
    const holder = JSON.parse(fs.readFileSync(lock, 'utf8'));
    return Number.isInteger(holder?.pid) && holder.pid > 0 ? holder : null;
  } catch {
    return null;
  }
}

// A lock path that is no file nodebench could have left (a folder, a FIFO, a device): one sentence,
// since removing or reading it would fail or block.
export function lockFileProblem(lock) {
  let stat;
  try {
    stat = fs.lstatSync(lock);
  } catch {
    return null;
  }
  if (stat.isFile()) return null;
  return `${lock} is ${kindOf(stat)}, not a lock file nodebench wrote; remove it, or choose another path.`;
}

// Takes the lock of `file` or throws a UserError naming the run that holds it; returns release().
export function lockResultFile(file) {
  const lock = `${file}.lock`;
  const me = JSON.stringify({ pid: process.pid, startTicks: startTicks(process.pid) });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lock, 'wx');
      try {
        fs.writeSync(fd, me);
      } catch (err) {
        // Made but not written (a full disk): an empty lock would hold off every later run.
        fs.rmSync(lock, { force: true });
        throw err;
      } finally {
        fs.closeSync(fd);
      }
      const release = () => {
        process.removeListener('exit', release);
        if (readHolder(lock)?.pid === process.pid) fs.rmSync(lock, { force: true });
      };
      process.once('exit', release);
      return release;
    } catch (err) {
      if (err.code !== 'EEXIST') throw new UserError(`Cannot create the lock file ${lock} (${err.code}); choose another --out.`, { cause: err });
    }
    const problem = lockFileProblem(lock);
    if (problem) throw new UserError(problem);
    const holder = readHolder(lock);
    if (holder && processAlive(holder)) {
      throw new UserError(`${file} is being written by another nodebench run (pid ${holder.pid}); wait for it to finish, or choose another --out.`);
    }
    // Left by a run that was killed (or half-written by one that was killed while taking it).
    fs.rmSync(lock, { force: true });
  }
  throw new UserError(`Cannot take the lock file ${lock}: other runs keep taking it; run one nodebench at a time on ${file}.`);
}
