// The run's shared directory: one per run, under the cache's tmp folder, given to every worker of
// the run as NODEBENCH_RUN_DIR (suites/lib/run-dir.js builds what all processes of a run share in
// it, such as the autoload suite's file tree) and removed when the run ends. A run killed with -9
// cannot remove its own: the next run removes every such directory whose owner is gone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tmpDir } from '../paths.js';
import { readJsonIfExists } from '../fs-atomic.js';
import { processAlive, startTicks } from '../results/lock.js';

const PREFIX = 'run-';
const OWNER = 'owner.json';

// Removes the run directories whose owner is gone. An owner.json that is not a regular file (a FIFO,
// a device, a folder: no run writes one) would block or fail the read: it is never read, the
// directory is removed as damaged and `warn` names it.
async function sweepOrphans(parent, warn) {
  let entries;
  try {
    entries = fs.readdirSync(parent).filter((name) => name.startsWith(PREFIX));
  } catch {
    return;
  }
  for (const name of entries) {
    const dir = path.join(parent, name);
    let owner = null;
    try {
      owner = await readJsonIfExists(path.join(dir, OWNER));
    } catch (err) {
      if (err.code === 'ENOTREGULAR') {
        warn(`removed the damaged run folder ${dir}: its ${OWNER} is not a regular file, so no nodebench run wrote it.`);
        fs.rmSync(dir, { recursive: true, force: true });
        continue;
      }
      // Cut short or garbled: judged by its age as a missing one.
    }
    if (!owner) {
      // No owner file: a directory being created right now, or one whose creation was cut short.
      try {
        if (Date.now() - fs.statSync(dir).mtimeMs < 60_000) continue;
      } catch {
        continue;
      }
    }
    if (owner && processAlive(owner)) continue;
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// The cache's tmp folder, or the system's when the cache is read-only (a restored CI cache).
function writableParent(env) {
  const parent = tmpDir(env);
  try {
    fs.mkdirSync(parent, { recursive: true });
    fs.accessSync(parent, fs.constants.W_OK);
    return parent;
  } catch {
    const fallback = path.join(os.tmpdir(), 'nodebench-runs');
    fs.mkdirSync(fallback, { recursive: true });
    return fallback;
  }
}

// warn: where a sentence about a damaged run folder goes (the command's progress log).
export async function createRunDir(env = process.env, { warn = (message) => process.stderr.write(`warning: ${message}\n`) } = {}) {
  const parent = writableParent(env);
  await sweepOrphans(parent, warn);
  const dir = fs.mkdtempSync(path.join(parent, PREFIX));
  fs.writeFileSync(path.join(dir, OWNER), JSON.stringify({ pid: process.pid, startTicks: startTicks(process.pid) }));
  return {
    path: dir,
    remove() {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
}
