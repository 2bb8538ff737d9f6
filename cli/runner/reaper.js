// The reaper: a small process nodebench starts beside its workers, so that no worker outlives
// nodebench however nodebench dies (kill -9, a crash, a closed terminal). nodebench writes "+<pgid>"
// when it starts a worker's process group and "-<pgid>" when that group is gone, on the reaper's
// stdin. When stdin ends, the only writer (nodebench) has exited: the kernel closes a dead process's
// pipes, so this needs no polling and no timer in the workers, whose event loop a benchmark may
// block forever. The reaper then kills every group still registered, and exits.
// Run as: node cli/runner/reaper.js (by process-group.js; it is not a command).
import readline from 'node:readline';
import { killGroup, killTaggedBy } from './process-group.js';

const groups = new Set();
// Read now: once nodebench is gone, this process's parent is init.
const nodebenchPid = process.ppid;

function reap() {
  for (const pgid of groups) killGroup(pgid);
  // Detached children of the workers left the groups; their environment tag still names them.
  killTaggedBy(nodebenchPid);
  process.exit(0);
}

const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const pgid = Number(line.slice(1));
  if (!Number.isInteger(pgid) || pgid <= 1) return;
  if (line[0] === '+') groups.add(pgid);
  else if (line[0] === '-') groups.delete(pgid);
});
lines.on('close', reap);
// The terminal's Ctrl-C or a hang-up must not take the reaper away before nodebench is gone.
for (const signal of ['SIGINT', 'SIGHUP', 'SIGTERM']) process.on(signal, () => {});
