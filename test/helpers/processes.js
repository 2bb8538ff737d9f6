// Processes as the tests find them: a run's workers are the children of its nodebench process whose
// command line is a worker entry (the request itself travels on stdin, not the command line).
import fs from 'node:fs';

export function childrenOf(pid) {
  let tasks;
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((tid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    } catch {
      return [];
    }
  });
}

const cmdline = (pid) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
};

// Running (not gone, not a zombie waiting to be reaped).
export function running(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

// The worker processes (worker/child.js or worker/serve.js) nodebench process `pid` has now.
export const workersOf = (pid) => childrenOf(pid).filter((child) => /worker\/(child|serve)\.js/.test(cmdline(child)));

// The live processes that carry nodebench process `pid`'s worker tag in their environment: its
// workers and whatever they started (other tests' runs have tags of their own).
export function taggedBy(pid) {
  const tag = `NODEBENCH_WORKER_TAG=${pid}-`;
  return fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)).filter((other) => {
    try {
      return running(other) && fs.readFileSync(`/proc/${other}/environ`, 'latin1').includes(tag);
    } catch {
      return false; // gone meanwhile, or not ours to read
    }
  });
}

// What must be gone once nodebench has exited, waited for within a bound instead of looked at once:
// a killed process keeps its /proc entry until the scheduler runs its exit, and the reaper removes
// cgroups for up to 30 s after nodebench (a loaded CI host left one for a moment in 2 of 5 runs).
// `left` returns what is still there (or a promise of it); settled returns what is left at the end.
export async function settled(left, ms = 5000) {
  let now = await left();
  for (const until = Date.now() + ms; now.length && Date.now() < until; now = await left()) await new Promise((resolve) => setTimeout(resolve, 100));
  return now;
}
