// The host's programs that nodebench puts in front of a worker, each found once on PATH and left
// out where it is missing: taskset (util-linux) to pin a process to one core, setpriv (util-linux)
// to give it the kernel's parent-death signal. onPath is also how valgrind.js finds valgrind and
// setarch.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// The executable `name` on PATH, or null.
export function onPath(name, env = process.env) {
  return (env.PATH || '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, name)).find((file) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  }) ?? null;
}

// taskset pins a process to one core; where it is missing, pinning is not done and the process
// record says so (cpu: null).
let tasksetPath;
export function taskset() {
  if (tasksetPath === undefined) tasksetPath = onPath('taskset');
  return tasksetPath;
}

// The kernel's parent-death signal (PR_SET_PDEATHSIG), which Node cannot set: setpriv sets it and
// then execs the program in place, so the worker keeps the pid nodebench spawned and everything
// else about it. A worker then dies with nodebench however nodebench dies: the reaper is a process
// of the same user, which a benchmark can kill every few milliseconds until nodebench is killed
// with kill -9, and then nothing was left to end a hanging worker. What the worker started is
// still the reaper's, the cgroup's and the next nodebench's (cgroup.js sweepOrphans).
// Probed once: util-linux before 2.33 has no --pdeathsig; without setpriv the reaper is all there is.
let setprivPath;
function setpriv() {
  if (setprivPath === undefined) {
    const found = onPath('setpriv');
    const works = found && spawnSync(found, ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore', timeout: 10_000 }).status === 0;
    setprivPath = works ? found : null;
  }
  return setprivPath;
}

// What to exec for `file`: through setpriv where it works, so that the child dies with nodebench; a
// file that is not there or cannot be run is spawned as it is, so that its spawn fails as before
// (ENOENT, EACCES) instead of setpriv's exit status. Both exec with execvp, so a script without a
// #! line runs through sh either way.
export function diesWithNodebench(file, args) {
  let runnable = path.isAbsolute(file);
  try {
    if (runnable) fs.accessSync(file, fs.constants.X_OK);
  } catch {
    runnable = false;
  }
  return runnable && setpriv() ? [setpriv(), ['--pdeathsig', 'KILL', '--', file, ...args]] : [file, args];
}
