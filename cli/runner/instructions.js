// One timing process of a cell measured in instructions: the worker under valgrind's callgrind
// (process/valgrind.js), V8 made deterministic where the runtime allows it, the counts read back
// into the process's outcome, the counting folder removed. The launcher (launcher.js) calls
// runInstructions in place of a time-measured process when the run's measure is 'instructions'.
import path from 'node:path';
import { launchWorker } from '../process/supervise.js';
import { findValgrind, setarchPrefix, makeCountingDir, removeCountingDir, callgrindPrefix, readParts, instructionFigures, valgrindProblem, MARKER_FUNCTION } from '../process/valgrind.js';
import { runtimeFlags } from '../flags/index.js';
import { findFlag } from '../flags/parse.js';
import { interpretLaunch } from './outcome.js';
import { syntheticClock, clockEnvironment, describeClock, readClockReport, CLOCK_REPORT_NAME } from '../process/synthetic-clock.js';

// What makes V8 repeat its work exactly, given to the runtime before the cell's own flags where the
// runtime lists the flag: --predictable (no concurrent compilation, GC or sweeping threads, no
// time-driven tasks), fixed hash and Math.random seeds. Left out on purpose:
// --predictable-gc-schedule (Node 14+) pins the young generation to 4 MB whatever
// --max-semi-space-size says, which would change the GC being measured and erase a semi-space flag
// set's effect (both checked on 14.21.3 and 24.21.0).
export const DETERMINISM_FLAGS = ['--predictable', '--hash-seed=1', '--random-seed=1'];

const determinism = new Map();
// { flags: the ones the runtime lists, notListed: the others } for a runtime, asked once per binary.
export function determinismFlags(runtime) {
  if (!determinism.has(runtime.path)) {
    determinism.set(runtime.path, runtimeFlags(runtime).then(({ flags }) => ({
      flags: DETERMINISM_FLAGS.filter((flag) => findFlag(flags, flag)),
      notListed: DETERMINISM_FLAGS.filter((flag) => !findFlag(flags, flag))
    })));
  }
  return determinism.get(runtime.path);
}

// Under valgrind a process runs 20-100 times slower than alone (start-up alone takes 5-10 s), so the
// time limit a cell's first process gets (run.timeoutSec) is this many times longer. A limit the
// policy derived from the cell's own processes already measured them under valgrind.
export const VALGRIND_TIMEOUT_FACTOR = 10;

export function instructionsTimeout({ timeoutMs, expectedMs }) {
  return expectedMs === undefined ? timeoutMs * VALGRIND_TIMEOUT_FACTOR : timeoutMs;
}

function timeoutSentence(timeoutMs, expectedMs) {
  const limit = `${Math.round(timeoutMs / 1000)} s`;
  if (expectedMs !== undefined) return `did not finish within ${limit} under valgrind while its cell's other processes took ${(expectedMs / 1000).toFixed(1)} s, so it was taken for a hang and killed with its child processes`;
  return `did not finish within ${limit} under valgrind (${VALGRIND_TIMEOUT_FACTOR} times the time limit, for valgrind's slowdown), so it was killed with its child processes; raise --timeout (run.timeoutSec in a matrix file) if it needs longer`;
}

// The measurement options a worker counts with (worker/instructions.js DEFAULTS): the run's
// instruction options over the worker's defaults; the run's time-sampling options do not apply.
export function instructionsSampler(options = {}) {
  return { ...options, measure: 'instructions' };
}

// Whether switching instrumentation through vgdb works here (worker/instructions.js): untried,
// then what the first process found. Where it cannot (vgdb cannot reach the process: ptrace
// forbidden in a container, say), that process runs again instrumented from its start, as every
// later one does: slower, the same counts.
const SWITCH_FAILED = /valgrind's vgdb could not switch callgrind's instrumentation/;
let switching = true;

// Runs one process of `cell` under callgrind. Returns { outcome, launched }: the outcome as
// outcome.js interprets it (status ok with result.measurement carrying the figures and the valgrind
// record; failed, timeout or unsupported with the sentence), what launchWorker returned, and
// syntheticClock: whether the runtime ran with the synthetic clock (process/synthetic-clock.js), so
// that the worker's own times read it.
export async function runInstructions(cell, runtime, suite, context) {
  const valgrind = await findValgrind();
  const clock = await syntheticClock();
  const switchable = switching && Boolean(valgrind.vgdb) && context.switchable !== false;
  let ran = await runOnce(cell, runtime, suite, context, { valgrind, switchable, clock });
  if (switchable && ran.outcome.status === 'failed' && SWITCH_FAILED.test(ran.outcome.error || '')) {
    switching = false;
    ran = await runOnce(cell, runtime, suite, context, { valgrind, switchable: false, clock });
  }
  return { ...ran, syntheticClock: Boolean(clock.library) };
}

// inCountingDir (explain --measure instructions, cli/explain/counted.js): { flags(dir): runtime flags
// after the cell's that write into the process's folder (V8's perf map), read(dir, measurement):
// called with a counted process's folder and figures before the folder is removed }.
async function runOnce(cell, runtime, suite, { options, cacheSim, timeoutMs, expectedMs, env, cpu, runDir, launch = launchWorker, inCountingDir }, { valgrind, switchable, clock }) {
  const { flags: deterministic, notListed } = await determinismFlags(runtime);
  const setarch = setarchPrefix();
  const dir = makeCountingDir(runDir);
  try {
    const { prefix, counting } = callgrindPrefix({ valgrind, setarch, dir, switchable, cacheSim });
    const limitMs = instructionsTimeout({ timeoutMs, expectedMs });
    const extraFlags = inCountingDir?.flags(dir) ?? [];
    const launched = await launch(runtime.path, [...deterministic, ...cell.flags, ...extraFlags], {
      mode: 'run', suite: suite.file, benchmark: cell.benchmark, params: suite.params,
      sampler: instructionsSampler(options), counting
    }, { timeoutMs: limitMs, cwd: path.dirname(suite.file), env: clockEnvironment(clock, runtime.path, env, path.join(dir, CLOCK_REPORT_NAME)), cpu, prefix });
    const outcome = interpretLaunch(launched, { timeoutMs: limitMs, expectedMs });
    if (outcome.status === 'timeout') return { outcome: { ...outcome, error: timeoutSentence(limitMs, expectedMs) }, launched };
    if (outcome.status !== 'ok') {
      const problem = valgrindProblem(dir);
      return { outcome: problem ? { ...outcome, error: `${outcome.error} (valgrind: ${problem})` } : outcome, launched };
    }
    let figures;
    try {
      figures = instructionFigures(outcome.result.measurement, readParts(dir));
    } catch (err) {
      return { outcome: { status: 'failed', error: err.message }, launched };
    }
    const record = {
      tool: 'callgrind',
      version: valgrind.version,
      // The command as run, with the process's private folder written as <dir>.
      command: [...prefix, runtime.path, ...deterministic, ...cell.flags, ...extraFlags].map((arg) => arg.split(dir).join('<dir>')),
      marker: MARKER_FUNCTION,
      determinismFlags: deterministic,
      notListed,
      aslr: setarch ? 'off (setarch -R)' : 'on (no setarch on PATH)',
      clock: describeClock(clock),
      ...(clock.library ? { pollsGivenUp: null, otherThreadClockReads: null, waitsForMainGivenUp: null, ...readClockReport(path.join(dir, CLOCK_REPORT_NAME)) } : {}),
      instrumentation: counting.vgdb ? 'off for start-up, loading and setup; switched on through vgdb before calibration' : 'on from the start',
      // How long the switch took, and the process's CPU time at it, at its first measured batch and
      // at its end (ms; what a process costs, docs/instructions.md).
      // (Under the synthetic clock a switch's wall time reads the synthetic clock: left out.)
      switches: clock.library ? outcome.result.measurement.instrumentationSwitches?.map(({ ms, ...rest }) => rest) : outcome.result.measurement.instrumentationSwitches,
      cpuMs: outcome.result.measurement.cpuMs
    };
    const { instrumentationSwitches, cpuMs, ...measured } = outcome.result.measurement;
    const measurement = { ...measured, ...figures, valgrind: record };
    inCountingDir?.read(dir, measurement);
    return { outcome: { ...outcome, result: { ...outcome.result, measurement } }, launched };
  } finally {
    removeCountingDir(dir);
  }
}
