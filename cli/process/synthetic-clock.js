// The synthetic clock a process counted under valgrind runs with (synthetic-clock.c: every clock
// read advances it by CLOCK_STEP_NS, a wait for a timer jumps to it, the event loop's polls wait for
// the thread pool's work to finish). Built once per source with
// the host's C compiler into nodebench's cache, and preloaded into the runtime's process through
// the worker's environment. Where it cannot be built (no compiler, not Linux), counting goes on
// with the real clock and the process record says why: GC-heavy counts then vary between processes,
// and their cells say so (count-varies).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { onPath } from './host-tools.js';
import { outputOf } from './run-to-exit.js';
import { cacheDir } from '../paths.js';

const SOURCE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'synthetic-clock.c');

// Nanoseconds a clock read advances the clock. About what a read and the work between two reads
// take on a real core, so that what V8 and Node pace by the clock (GC heuristics, task delays)
// keeps the shape it has in time; counts are the same whatever the value, as long as it is fixed.
export const CLOCK_STEP_NS = 1000;

const COMPILERS = ['cc', 'gcc', 'clang'];

const built = new Map();
// { library } (the shared object's path) or { reason } (a sentence fragment: why the real clock is
// used); built once per cache folder and source.
export function syntheticClock({ env = process.env, platform = process.platform } = {}) {
  const key = cacheDir(env);
  if (!built.has(key)) built.set(key, build(env, platform));
  return built.get(key);
}

async function build(env, platform) {
  if (platform !== 'linux') return { reason: `the synthetic clock is preloaded with LD_PRELOAD, which ${platform} has not` };
  const source = fs.readFileSync(SOURCE);
  const hash = crypto.createHash('sha256').update(source).digest('hex').slice(0, 16);
  const dir = path.join(cacheDir(env), 'tools');
  const library = path.join(dir, `synthetic-clock-${hash}.so`);
  // A library in the cache is used once it answers with the synthetic clock; a damaged one (a
  // truncated file, which the dynamic loader would skip with a warning, leaving the real clock while
  // the record said synthetic) is built again.
  if (fs.existsSync(library)) {
    if (await answers(library, env)) return { library };
    fs.rmSync(library, { force: true });
  }
  const compiler = COMPILERS.map((name) => onPath(name, env)).find(Boolean);
  if (!compiler) return { reason: 'no C compiler (cc) on PATH to build the synthetic clock: install one (apt-get install gcc on Debian/Ubuntu)' };
  fs.mkdirSync(dir, { recursive: true });
  // A name of this build's own, renamed into place: two runs building at once both finish whole.
  const partial = `${library}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  try {
    await outputOf(compiler, ['-O2', '-shared', '-fPIC', '-o', partial, SOURCE, '-ldl'], { timeoutMs: 60_000, env });
    if (!(await answers(partial, env))) throw new Error('built a library that did not turn the clock synthetic in a Node process');
    fs.renameSync(partial, library);
  } catch (err) {
    fs.rmSync(partial, { force: true });
    return { reason: `${compiler} could not build the synthetic clock (it ${err.message})` };
  }
  return { library };
}

// Whether `library`, preloaded into this Node, gives it the synthetic clock (monotonic time starts
// at 1,000 s there).
async function answers(library, env) {
  try {
    const seconds = await outputOf(process.execPath, ['-e', 'process.stdout.write(String(process.hrtime()[0]))'], { timeoutMs: 30_000, env: clockEnvironment({ library }, process.execPath, { ...env, LD_PRELOAD: '' }) });
    return seconds.trim() === '1000';
  } catch {
    return false;
  }
}

// The environment a counted runtime gets for the clock: the library preloaded (after any the
// caller's environment preloads), and the two variables that turn it on in the runtime's own
// process only (setarch and valgrind's launcher run in front of it and load it too); reportFile:
// where the runtime writes, at its exit, what readClockReport reads.
export function clockEnvironment(clock, runtimePath, env = {}, reportFile = null) {
  if (!clock.library) return env;
  const preload = [env.LD_PRELOAD ?? process.env.LD_PRELOAD, clock.library].filter(Boolean).join(':');
  return {
    ...env, LD_PRELOAD: preload, NODEBENCH_CLOCK_FOR: runtimePath, NODEBENCH_CLOCK_STEP_NS: String(CLOCK_STEP_NS),
    ...(reportFile ? { NODEBENCH_CLOCK_REPORT: reportFile } : {})
  };
}

// The report's name in a counted process's own folder.
export const CLOCK_REPORT_NAME = 'clock-report.json';

// { pollsGivenUp, otherThreadClockReads, waitsForMainGivenUp }: the event loop's polls that stopped
// waiting for a thread-pool thread (a pool task blocked outside its waits: 2 s in which the process
// used no CPU), each a point where the order of events was the host's again; the clock reads of
// threads other than the main one (which do not advance it); and the woken threads that stopped
// waiting for the main thread so (the main thread blocked where the library cannot see it); null
// when the runtime wrote nothing (killed, or a real clock).
export function readClockReport(reportFile) {
  try {
    const report = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
    const { pollsGivenUp, otherThreadClockReads, waitsForMainGivenUp } = report;
    return [pollsGivenUp, otherThreadClockReads, waitsForMainGivenUp].every(Number.isInteger) ? { pollsGivenUp, otherThreadClockReads, waitsForMainGivenUp } : null;
  } catch {
    return null;
  }
}

// What the process record says of the clock.
export const describeClock = (clock) => (clock.library
  ? `synthetic: every read in the main thread advances it ${CLOCK_STEP_NS / 1000} µs, a wait for a timer jumps to it and the thread pool's work takes none of it (cli/process/synthetic-clock.c, preloaded), so what the runtime paces by the clock repeats`
  : `real (${clock.reason}): what the runtime paces by the clock (GC heuristics, timers) may differ between processes`);
