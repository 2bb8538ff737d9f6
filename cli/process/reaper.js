// The reaper: a small process nodebench starts beside its workers, so that no worker outlives
// nodebench however nodebench dies (kill -9, a crash, a closed terminal). nodebench writes "+<pgid>"
// when it starts a worker's process group and "-<pgid>" when that group is gone, on the reaper's
// stdin. When stdin ends, the only writer (nodebench) has exited: the kernel closes a dead process's
// pipes, so this needs no polling and no timer in the workers, whose event loop a benchmark may
// block forever. The reaper then kills every group still registered and empties every registered
// cgroup ("c<dir>", "x<dir>" to forget one), and exits.
// Run as: node cli/process/reaper.js (by groups.js; it is not a command).
import readline from 'node:readline';
import path from 'node:path';
import fs from 'node:fs';
import { killGroup, killTaggedBy } from './groups.js';
import { empty, pause } from './cgroup.js';

const groups = new Set();
const cgroups = new Set();
// Read now: once nodebench is gone, this process's parent is init.
const nodebenchPid = process.ppid;

function removeDir(dir) {
  try {
    fs.rmdirSync(dir);
    return true;
  } catch (error) {
    return error.code === 'ENOENT';
  }
}

function reap() {
  for (const pgid of groups) killGroup(pgid, groups);
  // Whatever the workers started, in their cgroups (however it left their group and environment),
  // then the cgroups themselves and nodebench's own. A killed process with a large heap can take
  // seconds to leave its cgroup on a loaded machine, and nothing else would remove the cgroup
  // after the reaper: it keeps trying for a while (it has nothing else to do).
  const roots = new Set([...cgroups].map((dir) => path.dirname(dir)));
  let left = [...cgroups];
  for (const until = Date.now() + 30_000; ; pause(100)) {
    left = left.filter((dir) => {
      empty(dir);
      return !removeDir(dir);
    });
    if (!left.length || Date.now() > until) break;
  }
  for (const dir of roots) removeDir(dir);
  // Detached children of the workers left the groups; their environment tag still names them.
  killTaggedBy(nodebenchPid);
  process.exit(0);
}

const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line[0] === 'c') return void cgroups.add(line.slice(1));
  if (line[0] === 'x') return void cgroups.delete(line.slice(1));
  const pgid = Number(line.slice(1));
  if (!Number.isInteger(pgid) || pgid <= 1) return;
  if (line[0] === '+') groups.add(pgid);
  else if (line[0] === '-') groups.delete(pgid);
});
lines.on('close', reap);
// The terminal's Ctrl-C or a hang-up must not take the reaper away before nodebench is gone.
for (const signal of ['SIGINT', 'SIGHUP', 'SIGTERM']) process.on(signal, () => {});
