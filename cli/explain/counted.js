// explain --measure instructions: the processes of each side counted as a cell's are (the worker
// under callgrind, runner/instructions.js), with V8's perf map switched on where the runtime lists
// --perf-basic-prof, and each process's callgrind parts read per function before its folder goes:
// self instructions summed over the measured batches, JIT code named from the perf map.
import fs from 'node:fs';
import path from 'node:path';
import { runInstructions } from '../runner/instructions.js';
import { createRunDir } from '../runner/run-dir.js';
import { launchWorker } from '../process/supervise.js';
import { runtimeFlags } from '../flags/index.js';
import { findFlag } from '../flags/parse.js';
import { notCountable } from '../matrix/plan.js';
import { parseCallgrindPart } from './callgrind.js';
import { parsePerfMap, perfMapLookup, mappedIdentity, UNNAMED_JIT } from './perf-map.js';
import { watchInterrupts } from './run.js';

const PARTS = 'callgrind.out';
const ADDRESS = /^0x([0-9a-f]+)$/;
// Callgrind's suffix for a function's recursion level or call context ("f'2"): the same function.
const CONTEXT_SUFFIX = /'\d+$/;

// What a runtime is given so that its JIT code has names, and where it writes them: --perf-basic-prof
// (all of Node 4 to 24 list it), the map into the process's folder where --perf-basic-prof-path
// exists (Node 20+; before, /tmp/perf-<pid>.map, read and deleted), and V8's log, which the flag
// opens as isolate-<address>-<pid>-v8.log in the working directory (the suite's folder), into the
// process's folder as well (--logfile, --no-logfile-per-isolate).
export async function perfMapSupport(runtime) {
  const { flags } = await runtimeFlags(runtime);
  const listed = (name) => Boolean(findFlag(flags, name));
  return { perfMap: listed('--perf-basic-prof'), inFolder: listed('--perf-basic-prof-path'), logfile: listed('--logfile') && listed('--logfile-per-isolate') };
}

export function perfMapFlags(support, dir) {
  if (!support.perfMap) return [];
  return [
    '--perf-basic-prof',
    ...(support.inFolder ? [`--perf-basic-prof-path=${dir}`] : []),
    ...(support.logfile ? [`--logfile=${path.join(dir, 'v8.log')}`, '--no-logfile-per-isolate'] : [])
  ];
}

const mapFile = (support, dir, pid) => (support.inFolder ? path.join(dir, `perf-${pid}.map`) : `/tmp/perf-${pid}.map`);

// The identity of one callgrind function: a symbol by its name and object, JIT code (no symbol, no
// object) by the perf map entry that covers its address.
function identityOf(fn, lookup, suiteDir) {
  const name = fn.name.replace(CONTEXT_SUFFIX, '');
  const address = ADDRESS.exec(name);
  if (address && fn.object === '???') {
    const entry = lookup && lookup(parseInt(address[1], 16));
    if (entry) return mappedIdentity(entry.name, { suiteDir });
    return { key: 'jit\u0000unnamed', name: UNNAMED_JIT, location: lookup ? 'in no perf map entry' : 'no perf map', kind: 'jit', tier: null };
  }
  const object = path.basename(fn.object);
  if (address) return { key: `native\u0000${object}\u0000(no symbol)`, name: `(no symbol) in ${object}`, location: object, kind: 'native', tier: null };
  return { key: `native\u0000${object}\u0000${name}`, name, location: object, kind: 'native', tier: null };
}

// One counted process read back: measurement (runner/instructions.js's figures: batches with their
// phase and part, instructionsPerOp, markerInstructions). Returns { functions: Map key -> { identity,
// instructions, tiers: { marker: instructions } }, operations, sampleBatches, markerInstructions,
// instructionsPerOp (the cell's figure for this process), selfResidual, mapEntries, unnamedJit }.
export function readCountedProcess(dir, measurement, { support, suiteDir }) {
  const samples = measurement.batches.filter((b) => b.phase === 'sample');
  const parts = samples.map((b) => parseCallgrindPart(fs.readFileSync(path.join(dir, `${PARTS}.${b.part}`), 'utf8')));
  const pid = parts[0]?.pid;
  let entries = null;
  if (support.perfMap && Number.isInteger(pid)) {
    try {
      entries = parsePerfMap(fs.readFileSync(mapFile(support, dir, pid), 'utf8'));
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
    }
  }
  const lookup = entries && perfMapLookup(entries);
  const functions = new Map();
  let selfResidual = 0;
  for (const part of parts) {
    selfResidual += part.selfTotal - part.summary;
    for (const fn of part.functions.values()) {
      if (!fn.self) continue;
      const identity = identityOf(fn, lookup, suiteDir);
      const entry = functions.get(identity.key) || { identity, instructions: 0, tiers: {} };
      entry.instructions += fn.self;
      if (identity.tier) entry.tiers[identity.tier] = (entry.tiers[identity.tier] || 0) + fn.self;
      functions.set(identity.key, entry);
    }
  }
  const operations = samples.reduce((sum, b) => sum + b.operations, 0);
  return {
    functions,
    operations,
    sampleBatches: samples.length,
    markerInstructions: measurement.markerInstructions,
    instructionsPerOp: measurement.instructionsPerOp.reduce((a, b) => a + b, 0) / measurement.instructionsPerOp.length,
    selfResidual,
    mapEntries: entries ? entries.length : null,
    unnamedJit: functions.get('jit\u0000unnamed')?.instructions ?? 0
  };
}

function removeQuietly(file) {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // another user's file of that name: not ours to remove
  }
}

// One process of a side: { counted } or { error }.
async function countOne(side, target, settings, { runDir, env, support }) {
  const suiteDir = path.dirname(target.suite.file);
  let counted = null;
  let readError = null;
  let pid = null;
  // The pid the process has under valgrind is the one spawned (setarch and valgrind exec), and the
  // name of a perf map written to /tmp, which is removed whatever became of the process.
  const launch = (file, flags, request, options) => launchWorker(file, flags, request, { ...options, onSpawn: (child) => { pid = child.pid; } });
  const inCountingDir = {
    flags: (dir) => perfMapFlags(support, dir),
    read: (dir, measurement) => {
      try {
        counted = readCountedProcess(dir, measurement, { support, suiteDir });
      } catch (err) {
        readError = err;
      }
    }
  };
  const cell = { suite: target.suite.name, benchmark: target.benchmark, runtimeLabel: side.id, flags: side.flags };
  try {
    const { outcome } = await runInstructions(cell, side.runtime, target.suite, {
      options: settings.instructions, timeoutMs: settings.timeoutMs, env, runDir, launch, inCountingDir
    });
    if (outcome.status !== 'ok') return { error: `the counted process ${outcome.status === 'timeout' ? 'timed out' : 'failed'}: ${outcome.error}` };
    if (readError) return { error: `its callgrind parts could not be read per function: ${readError.message}` };
    return { counted };
  } finally {
    if (support.perfMap && !support.inFolder && pid) removeQuietly(`/tmp/perf-${pid}.map`);
  }
}

// sides: as run.js's; settings: { processes, timeoutMs, instructions (the counting options) }.
// Returns per side { processes: [{ counted } | { error }], skipped, perfMap: support }. The two sides'
// i-th processes run at once (two valgrind processes: counts do not depend on what runs beside).
export async function runCountedProcesses(sides, target, settings, { log = () => {} } = {}) {
  const runDir = await createRunDir(process.env, { warn: (message) => log(`warning: ${message}`) });
  const env = { NODEBENCH_RUN_DIR: runDir.path };
  const out = {};
  for (const side of sides) {
    const skipped = side.skipped || notCountable({ kind: target.suite.kind }, { flags: side.flags });
    out[side.id] = { processes: [], skipped: skipped || null, perfMap: skipped ? null : await perfMapSupport(side.runtime) };
  }
  const { stopIfInterrupted, release } = watchInterrupts('nothing was kept');
  try {
    for (let i = 0; i < settings.processes; i++) {
      stopIfInterrupted();
      const running = sides.filter((s) => !out[s.id].skipped);
      log(`counting instructions under valgrind: ${running.map((s) => s.column).join(' and ')}, process ${i + 1} of ${settings.processes}`);
      const done = await Promise.all(running.map((side) => countOne(side, target, settings, { runDir: runDir.path, env, support: out[side.id].perfMap })));
      for (const [j, side] of running.entries()) out[side.id].processes.push(done[j]);
    }
    stopIfInterrupted();
  } finally {
    runDir.remove();
    release();
  }
  return out;
}
