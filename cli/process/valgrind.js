// Counting instructions (measure 'instructions'): a worker runs under valgrind's callgrind, started
// with --dump-before=fdatasync, so that each of the worker's marks (a call of libc's fdatasync,
// worker/instructions.js) writes the instructions executed since the previous mark as a numbered
// part file in a folder of the process's own. This module finds valgrind, builds the argument array
// that goes in front of the runtime (no shell string), and reads the parts back after the process
// exited: instructions per operation of each measured batch, the marker batches' cost subtracted.
// Why this way (measured on Node 4.9.1, 6.17.1, 14.21.3, 16.20.2 and 24.21.0 while choosing it):
// a measured batch's count repeats across processes to within a few instructions, whatever runs
// beside; one process gives every batch, where the difference of two runs at N and 2N iterations
// costs two start-ups (5-20 s each under valgrind) per figure and still counts the warm-up twice.
// Marking with dumps only (not --zero-before) matters: a zero leaves other threads' counts since
// the last dump in the next part, which made a Node 16 batch vary by 40% between processes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onPath } from './host-tools.js';
import { outputOf } from './run-to-exit.js';
import { UserError } from '../errors.js';

// The libc function the worker calls to mark a batch's ends (fs.fdatasyncSync on a file of its own):
// every runtime from Node 4 on reaches it through libuv, and neither Node nor V8 calls it otherwise.
export const MARKER_FUNCTION = 'fdatasync';
const PARTS_NAME = 'callgrind.out';
const LOG_NAME = 'valgrind.log';

const PLATFORM_NAMES = { darwin: 'macOS', win32: 'Windows' };

// { path, version } of the valgrind on PATH, asked once per PATH; a UserError in one sentence where
// there is none or the platform cannot have it.
const found = new Map();
export function findValgrind({ env = process.env, platform = process.platform } = {}) {
  if (platform !== 'linux') {
    return Promise.reject(new UserError(`measuring instructions needs Linux (it runs each process under valgrind's callgrind); on ${PLATFORM_NAMES[platform] || platform}, run nodebench in a Linux container or VM, or measure time.`));
  }
  const key = env.PATH || '';
  if (!found.has(key)) {
    const lookup = askValgrind(onPath('valgrind', env));
    found.set(key, lookup);
    lookup.catch(() => found.delete(key));
  }
  return found.get(key);
}

async function askValgrind(file) {
  if (!file) throw new UserError('measuring instructions runs each process under valgrind, which is not installed here: install it (apt-get install valgrind on Debian/Ubuntu), or measure time.');
  let out;
  try {
    out = await outputOf(file, ['--version'], { timeoutMs: 30_000 });
  } catch (err) {
    throw new UserError(`the valgrind at ${file} did not answer --version (it ${err.message}); reinstall it (apt-get install valgrind on Debian/Ubuntu)`, { cause: err });
  }
  const version = /valgrind-(\d+(?:\.\d+)+)/.exec(out)?.[1];
  if (!version) throw new UserError(`the valgrind at ${file} answered --version with ${JSON.stringify(out.trim().slice(0, 80))}, not a valgrind version; reinstall it (apt-get install valgrind on Debian/Ubuntu)`);
  return { path: file, version, vgdb: findVgdb(file) };
}

// valgrind's vgdb, which switches callgrind's instrumentation of a running process: the one
// installed beside valgrind (they speak the same protocol), else the one on PATH, else null.
function findVgdb(valgrindFile) {
  let real = valgrindFile;
  try {
    real = fs.realpathSync(valgrindFile);
  } catch {
    // the PATH entry as given
  }
  for (const dir of new Set([path.dirname(valgrindFile), path.dirname(real)])) {
    const candidate = path.join(dir, 'vgdb');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return onPath('vgdb') || null;
}

// setarch (util-linux) runs a program with address-space randomisation off: [file, arch, '-R'], or
// null where there is none (the process record says which).
export function setarchPrefix(env = process.env) {
  const file = onPath('setarch', env);
  return file ? [file, os.machine(), '-R'] : null;
}

// A folder of this process's own for callgrind's parts, its log and the marks' file (mode 0700).
// valgrind expands %p and %q{…} in file names, so a parent with a % is not used.
export function makeCountingDir(parent) {
  const base = parent && !parent.includes('%') && fs.existsSync(parent) ? parent : os.tmpdir();
  return fs.mkdtempSync(path.join(base.includes('%') ? '/tmp' : base, 'nodebench-instructions-'));
}

export function removeCountingDir(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
}

// The argument array that goes in front of the runtime, and what the worker needs to mark and read
// its counts ({ marker, parts, vgdb?, vgdbPrefix? }, sent in its request). Callgrind options: no
// per-instruction or per-line figures (smaller parts, faster dumps), its messages in the folder's
// log, children of the benchmark not followed (they are not counted, as the kernel's work is not).
// switchable (a vgdb at valgrind.vgdb): instrumentation starts off and the worker switches it on
// through vgdb for the counted part (and off for the bulk of the warm-up): Node's start-up, the
// suite's loading and setup run at valgrind's uninstrumented speed, 5-25 s of a process under
// callgrind (measured on 4.9.1, 16.20.2 and 24.21.0, docs/instructions.md). A batch's count is
// the same either way (24.21.0: 25,075,302 instructions for a loop, switched or not), as only the
// parts between two marks are counts. vgdb's pipes go in the process's own folder.
// cacheSim: callgrind simulates caches of a fixed geometry (CACHE_GEOMETRY), so that a miss count,
// like an instruction count, is the same on any host; without the sizes valgrind would read the
// host CPU's, and two machines' misses would differ.
export function callgrindPrefix({ valgrind, setarch, dir, switchable = false, cacheSim = false }) {
  const counting = { marker: path.join(dir, 'marks'), parts: path.join(dir, PARTS_NAME) };
  const switching = switchable && valgrind.vgdb ? ['--instr-atstart=no', `--vgdb-prefix=${path.join(dir, 'vgdb')}`] : [];
  if (switching.length) Object.assign(counting, { vgdb: valgrind.vgdb, vgdbPrefix: path.join(dir, 'vgdb') });
  const options = [
    '--tool=callgrind',
    `--callgrind-out-file=${counting.parts}`,
    `--dump-before=${MARKER_FUNCTION}`,
    '--dump-instr=no',
    '--dump-line=no',
    '--trace-children=no',
    ...(cacheSim ? ['--cache-sim=yes', ...Object.entries(CACHE_GEOMETRY).map(([cache, { size, ways, line }]) => `--${cache}=${size},${ways},${line}`)] : []),
    ...switching,
    `--log-file=${path.join(dir, LOG_NAME)}`
  ];
  return { prefix: [...(setarch || []), valgrind.path, ...options], counting };
}

// The simulated caches (bytes, associativity, line bytes): a common x86-64 server core's L1s and an
// 8 MB last level, the geometry CodSpeed's and iai's simulations also fix rather than read.
export const CACHE_GEOMETRY = { I1: { size: 32768, ways: 8, line: 64 }, D1: { size: 32768, ways: 8, line: 64 }, LL: { size: 8388608, ways: 16, line: 64 } };

// Estimated cycles from callgrind's events, KCachegrind's cycle estimation: every instruction one
// cycle, every L1 miss 10 more, every last-level miss 100 more. A stated model, not a measurement:
// it ranks memory-bound work above what the instruction count alone says.
export const CYCLE_FORMULA = 'Ir + 10 × (I1mr + D1mr + D1mw) + 100 × (ILmr + DLmr + DLmw)';
const L1_MISSES = ['I1mr', 'D1mr', 'D1mw'];
const LL_MISSES = ['ILmr', 'DLmr', 'DLmw'];
export function estimatedCycles(counts) {
  const sum = (names) => names.reduce((n, name) => n + counts[name], 0);
  return counts.Ir + 10 * sum(L1_MISSES) + 100 * sum(LL_MISSES);
}

const HEAD_BYTES = 4096;

// A part's header: { part, events: ['Ir', ...], totals: [n, ...], trigger } or null when it is not
// one callgrind wrote whole. A total is null where it is no count: the part that spans a switch of
// instrumentation reads as a negative number wrapped to 64 bits (callgrind zeroes its running
// costs when it switches), and only the parts between two marks, never that one, are batches.
export function parsePartHeader(text) {
  const field = (name) => new RegExp(`^${name}:[ \\t]*(.*)$`, 'm').exec(text)?.[1]?.trim();
  const part = Number(field('part'));
  const events = field('events')?.split(/\s+/);
  const totals = field('summary')?.split(/\s+/).map((n) => (/^\d+$/.test(n) && Number.isSafeInteger(Number(n)) ? Number(n) : null));
  if (!Number.isInteger(part) || !events?.length || !totals?.length) return null;
  return { part, events, totals, trigger: field('desc: Trigger') ?? null };
}

// Map part number -> { instructions, events, totals, trigger } of every dump part in the folder
// (BASE.1, BASE.2, ...; BASE itself, written at the process's exit, is not a batch).
export function readParts(dir) {
  const parts = new Map();
  for (const name of fs.readdirSync(dir)) {
    const numbered = new RegExp(`^${PARTS_NAME.replace('.', '\\.')}\\.(\\d+)$`).exec(name);
    if (!numbered) continue;
    const fd = fs.openSync(path.join(dir, name), 'r');
    let text;
    try {
      const head = Buffer.alloc(HEAD_BYTES);
      text = head.toString('utf8', 0, fs.readSync(fd, head, 0, HEAD_BYTES, 0));
    } finally {
      fs.closeSync(fd);
    }
    const header = parsePartHeader(text);
    const irAt = header ? header.events.indexOf('Ir') : -1;
    if (!header || irAt < 0 || header.part !== Number(numbered[1])) throw new Error(`callgrind's part ${name} has no instruction count in its header`);
    parts.set(header.part, { instructions: header.totals[irAt], events: header.events, totals: header.totals, trigger: header.trigger });
  }
  return parts;
}

// The figures of one process from its worker's report (worker/instructions.js: every marked batch
// with its phase, operations and part) and the parts callgrind wrote. Throws an Error whose message
// is the sentence for the cell when the parts are not the worker's marks.
//   instructionsPerOp[i]      (count of measured batch i - markerInstructions) / its operations
//   instructionsPerSample[i]  measured batch i's count as callgrind wrote it
//   markerInstructions        the last 0-iteration batch's count (two marks and the loop's set-up),
//                             0 where the form runs its own loop and has none
export function instructionFigures(measurement, parts) {
  const marks = measurement.marks;
  if (parts.size > marks) {
    throw new Error(`the benchmark called ${MARKER_FUNCTION}() itself (callgrind wrote ${parts.size} counts for nodebench's ${marks} marks), and nodebench marks the batches it counts with that call, so its instruction counts cannot be told apart; measure it in time`);
  }
  for (let part = 1; part <= marks; part++) {
    if (!parts.has(part)) throw new Error(`callgrind wrote ${parts.size} of the ${marks} instruction counts nodebench marked (part ${part} is missing)`);
  }
  const batches = measurement.batches;
  for (const batch of batches) {
    if (parts.get(batch.part).instructions !== batch.instructions) {
      throw new Error(`the instruction count of part ${batch.part} reads ${parts.get(batch.part).instructions} in callgrind's file and ${batch.instructions} in the worker's report`);
    }
  }
  const markers = batches.filter((b) => b.phase === 'marker');
  const markerInstructions = markers.length ? markers[markers.length - 1].instructions : 0;
  const samples = batches.filter((b) => b.phase === 'sample');
  const instructionsPerOp = samples.map((b) => (b.instructions - markerInstructions) / b.operations);
  if (!samples.length || instructionsPerOp.some((x) => !(x > 0))) {
    throw new Error(`a measured batch counted no more instructions than an empty one (${samples.map((b) => b.instructions).join(', ')} against ${markerInstructions})`);
  }
  const figures = { instructionsPerOp, instructionsPerSample: samples.map((b) => b.instructions), markerInstructions };
  const operations = samples.map((b) => b.operations);
  if (operations.some((n) => n !== measurement.iterationsPerSample)) figures.operationsPerSample = operations;
  const cache = cacheFigures(samples, markers, parts);
  if (cache) figures.cache = cache;
  return figures;
}

// With cache simulation on (the parts carry the miss events): each event's raw count per measured
// batch and the marker batch's, and the estimated cycles per operation of each batch with the
// marker's cycles subtracted, as instructions are. null when the parts have no cache events.
function cacheFigures(samples, markers, parts) {
  const events = parts.get(samples[0].part).events;
  if (![...L1_MISSES, ...LL_MISSES].every((name) => events.includes(name))) return null;
  const countsOf = (batch) => {
    const { totals } = parts.get(batch.part);
    return Object.fromEntries(events.map((name, i) => [name, totals[i]]));
  };
  const sampleCounts = samples.map(countsOf);
  const markerCounts = markers.length ? countsOf(markers[markers.length - 1]) : Object.fromEntries(events.map((name) => [name, 0]));
  if ([...sampleCounts, markerCounts].some((counts) => events.some((name) => counts[name] === null))) throw new Error('callgrind wrote a cache event of a measured or marker batch that is no count');
  return {
    geometry: CACHE_GEOMETRY,
    formula: CYCLE_FORMULA,
    perSample: Object.fromEntries(events.map((name) => [name, sampleCounts.map((counts) => counts[name])])),
    marker: markerCounts,
    estimatedCyclesPerOp: samples.map((b, i) => (estimatedCycles(sampleCounts[i]) - estimatedCycles(markerCounts)) / b.operations)
  };
}

const VALGRIND_FAILURE = /unhandled instruction|unrecognised instruction|the 'impossible' happened|valgrind: .*(?:fatal|cannot|failed)|out of memory|Killed by|Process terminating with default action/i;

// valgrind's own line about why a process under it failed (an instruction it cannot run, say), or
// null: the log in the counting folder, read before the folder is removed.
export function valgrindProblem(dir) {
  let text;
  try {
    text = fs.readFileSync(path.join(dir, LOG_NAME), 'utf8');
  } catch {
    return null;
  }
  const line = text.split('\n').map((l) => l.replace(/^==\d+==\s*/, '').trim()).find((l) => VALGRIND_FAILURE.test(l));
  return line ? line.slice(0, 300) : null;
}
