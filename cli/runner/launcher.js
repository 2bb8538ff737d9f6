// The launcher: the one interface behind which every kind of process of a cell is started and
// watched, so that the run loop (run-loop.js) and the launch policy (policy.js) never know how.
//   launcher.launch(launch, cell) -> outcome
//     launch: { kind: 'timing' | 'metrics', round, rerunOf?, windowMs? (metrics) } (from policy.js)
//     timing outcome:  { status: 'ok', result, wallMs, startedAt, survivors? }
//                    | { status: 'failed' | 'timeout' | 'unsupported', error, stack?, wallMs, startedAt, survivors? }
//     metrics outcome: { metrics } (the figures, or { error } when the process failed)
// The process launcher below runs the worker in the runtime under test: a micro-benchmark's timing
// process (process/supervise.js launchWorker), a service under load (service.js), a metrics process with --trace-gc; or a
// user's whole command under the probe (command.js). Tests put a fake launcher with a fake clock
// in its place (test/policy.test.js).
import path from 'node:path';
import { launchWorker } from '../process/supervise.js';
import { parseTraceGc, gcSummary } from './gc-trace.js';
import { interpretLaunch } from './outcome.js';
import { runServiceLaunch } from './service.js';
import { runCommandLaunch } from './command.js';
import { reportedVersionProblem } from '../runtimes/verify.js';
import { runInstructions } from './instructions.js';

// The run's sampler options with the suite's own needs over them (e.g. longer samples for GC).
export function suiteSampler(sampler, suite) {
  return { ...sampler, ...(suite.sampler || {}) };
}

// --trace-gc and the event-loop probe would distort timing samples, so they run in a process of
// their own, after the cell's timing processes.
async function runMetrics(cell, runtime, suite, { timeoutMs, expectedMs, sampler, windowMs, env }) {
  const launched = await launchWorker(runtime.path, [...cell.flags, '--trace-gc'], {
    mode: 'metrics', suite: suite.file, benchmark: cell.benchmark, params: suite.params,
    sampler: { ...suiteSampler(sampler, suite), samples: 1e9, maxSampleMs: windowMs }
  }, { timeoutMs, cwd: path.dirname(suite.file), collectStdout: true, env });
  const report = launched.messages.find((m) => m.type === 'metrics');
  if (!report) {
    const outcome = interpretLaunch(launched, { timeoutMs, expectedMs });
    return { error: `the metrics process ${outcome.status === 'timeout' ? 'timed out' : 'failed'}: ${outcome.error}` };
  }
  const { type, benchmarkType, window, ...figures } = report;
  return {
    ...figures,
    windowMs: window.endUptimeMs - window.startUptimeMs,
    gc: gcSummary(parseTraceGc(launched.stdout), { startMs: window.startUptimeMs, endMs: window.endUptimeMs })
  };
}

// Where a timing process's wall time went, from when its messages reached the host and what its
// sampler reports: start (spawn to hello: the runtime's boot and the worker's own modules), load
// (the suite file), setup (suite and benchmark setup), calibrate (calibration, the type probe and
// teardown: what the sampler does besides warming up and sampling), warmup, sample, exit (the
// result to the end of the process, kill and channel close included).
export function processPhases(launched, measurement) {
  const at = (wanted) => {
    const i = launched.messages.findIndex((m) => m.type === wanted || (m.type === 'phase' && m.phase === wanted));
    return i < 0 ? null : launched.arrivalsMs[i];
  };
  const [hello, setup, run, result] = ['hello', 'setup', 'run', 'result'].map(at);
  if ([hello, setup, run, result].includes(null) || !measurement?.warmup) return undefined;
  const round = (ms) => Math.round(ms * 10) / 10;
  return {
    startMs: round(hello),
    loadMs: round(setup - hello),
    setupMs: round(run - setup),
    calibrateMs: round(Math.max(0, result - run - measurement.warmup.ms - measurement.sampleMs)),
    warmupMs: round(measurement.warmup.ms),
    sampleMs: round(measurement.sampleMs),
    exitMs: round(launched.wallMs - result)
  };
}

async function runMicro(cell, runtime, suite, { sampler, timeoutMs, expectedMs, env, cpu }) {
  const launched = await launchWorker(runtime.path, cell.flags, {
    mode: 'run', suite: suite.file, benchmark: cell.benchmark, params: suite.params,
    sampler: { ...suiteSampler(sampler, suite), recordDisturbance: true }
  }, { timeoutMs, cwd: path.dirname(suite.file), env, cpu });
  const outcome = interpretLaunch(launched, { timeoutMs, expectedMs });
  return { ...outcome, wallMs: launched.wallMs, survivors: launched.survivors, holders: launched.holders, phasesMs: processPhases(launched, outcome.result?.measurement), cpu: launched.cpu };
}

// The same process measured in instructions under valgrind (instructions.js): the outcome a timing
// process has, its measurement in instructions per operation instead of time.
async function runCounted(cell, runtime, suite, { options, cacheSim, timeoutMs, expectedMs, env, cpu, runDir }) {
  const { outcome, launched, syntheticClock } = await runInstructions(cell, runtime, suite, { options, cacheSim, timeoutMs, expectedMs, env, cpu, runDir });
  // Under the synthetic clock (process/synthetic-clock.js) the worker's own warm-up and sampling
  // times are synthetic, so the split of the wall time is not made.
  return { ...outcome, wallMs: launched.wallMs, survivors: launched.survivors, holders: launched.holders, phasesMs: syntheticClock ? undefined : processPhases(launched, outcome.result?.measurement), cpu: launched.cpu };
}

// The binary must be the runtime its label claims: numbers are never labelled with another version
// (the advice fits where the runtime came from: a cache entry, an nvm folder, a path).
function checkVersion(outcome, runtime) {
  const problem = outcome.status === 'ok' ? reportedVersionProblem(runtime, outcome.hello?.runtime?.node) : null;
  return problem ? { ...outcome, status: 'failed', result: undefined, error: problem } : outcome;
}

// runtimes: label -> runtime; suites: name -> suite (as described by matrix/plan.js);
// sampler: the run's sampler options; run: complete run options; runDir: the run's shared
// directory (run-dir.js), given to every worker as NODEBENCH_RUN_DIR.
// run.measure 'instructions' counts each timing process's instructions under valgrind
// (instructions.js), with run.instructions as the counting options (worker/instructions.js
// DEFAULTS); 'time' or nothing measures time.
export function createProcessLauncher({ runtimes, suites, sampler, run, runDir }) {
  const env = runDir ? { NODEBENCH_RUN_DIR: runDir } : undefined;
  const counted = run.measure === 'instructions';
  return {
    async launch(launch, cell) {
      // The policy gives each launch its limit (a multiple of what the cell's processes took).
      const timeoutMs = launch.timeoutMs ?? run.timeoutSec * 1000;
      const { expectedMs } = launch;
      const suite = suites.get(cell.suite);
      const runtime = runtimes.get(cell.runtimeLabel);
      if (launch.kind === 'metrics') {
        return { metrics: await runMetrics(cell, runtime, suite, { timeoutMs, expectedMs, sampler, windowMs: launch.windowMs, env }) };
      }
      const startedAt = Date.now();
      if (counted && (suite.kind === 'command' || suite.service)) {
        const what = suite.kind === 'command' ? 'a whole command' : 'a service under load';
        return { status: 'unsupported', error: `${what} is not measured in instructions (its work is in other processes and the kernel, which a count of the worker leaves out); measure it in time`, wallMs: 0, startedAt };
      }
      if (counted) {
        const outcome = await runCounted(cell, runtime, suite, { options: run.instructions, cacheSim: run.cacheSim, timeoutMs, expectedMs, env, cpu: launch.cpu, runDir });
        return { ...checkVersion(outcome, runtime), startedAt };
      }
      if (suite.kind === 'command') {
        // The probe is the host's Node, so there is no hello to check: the runtime is the binary
        // first on PATH, the one the plan verified.
        const { command } = suite.benchmarks.find((b) => b.name === cell.benchmark);
        return { ...await runCommandLaunch(runtime, cell.flags, command, { timeoutMs, expectedMs, runDir }), startedAt };
      }
      const outcome = suite.service
        ? await runServiceLaunch(runtime.path, cell.flags, { suiteFile: suite.file, benchmark: cell.benchmark, params: suite.params }, { timeoutMs, cwd: path.dirname(suite.file), env })
        : await runMicro(cell, runtime, suite, { sampler, timeoutMs, expectedMs, env, cpu: launch.cpu });
      return { ...checkVersion(outcome, runtime), startedAt };
    }
  };
}
