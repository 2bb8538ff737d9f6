// The extra processes explain runs for each side, apart from the timing processes (a profiler, GC
// tracing and deopt tracing each distort timings): profiled processes (worker mode "profile",
// worker/profile.js), metrics processes with --trace-gc (the launcher's own metrics kind, so the GC
// figures are the ones `matrix` records), and one process with --trace-deopt and
// --allow-natives-syntax for the optimisation status. Sides alternate, so that a machine that gets
// busier during the run weighs on both.
import path from 'node:path';
import { launchWorker } from '../process/supervise.js';
import { createProcessLauncher, suiteSampler } from '../runner/launcher.js';
import { interpretLaunch } from '../runner/outcome.js';
import { createRunDir } from '../runner/run-dir.js';
import { killAllGroups } from '../process/groups.js';
import { UserError } from '../errors.js';
import { parseTraceDeopt, describeOptimizationStatus } from './deopt.js';
import { launchInspected } from './inspect-port.js';
import { readJsonIfExists } from '../fs-atomic.js';
import { safeName } from './profile-dir.js';

// How a runtime's CPU is sampled: the inspector's Profiler from inside the worker where the
// inspector module exists (Node 8+), driven by the host over --inspect where only the inspector
// does (Node 6.3 to 7), else not at all. { via: 'inspector-module' | 'inspect-port' } or
// { unavailable: why }.
export function profilingMethod(version) {
  const [major, minor] = String(version).split('.').map(Number);
  if (major >= 8) return { via: 'inspector-module' };
  if (major > 6 || (major === 6 && minor >= 3)) return { via: 'inspect-port' };
  return { unavailable: `Node ${version} has no inspector (--inspect arrived in Node 6.3) and no --cpu-prof (Node 12+), so its CPU time cannot be split by function` };
}


// Ctrl-C, kill or a closed terminal: the workers go with explain, and the next step says so in one
// sentence (exit 130) ending with `left`, what is kept. release() when done.
export function watchInterrupts(left) {
  let interrupted = null;
  const onSignal = (signal) => {
    interrupted = signal;
    killAllGroups();
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.once(signal, onSignal);
  return {
    stopIfInterrupted: () => {
      if (interrupted) throw new UserError(`explain was interrupted (${interrupted}); ${left}.`, { exitCode: 130 });
    },
    release: () => {
      for (const signal of signals) process.removeListener(signal, onSignal);
    }
  };
}

function failure(launched, timeoutMs, what) {
  const outcome = interpretLaunch(launched, { timeoutMs });
  return `the ${what} process ${outcome.status === 'timeout' ? 'timed out' : outcome.status === 'unsupported' ? 'could not run' : 'failed'}: ${outcome.error}`;
}

function workerRequest(side, target, settings, extra) {
  return {
    mode: 'profile',
    suite: target.suite.file,
    benchmark: target.benchmark,
    params: target.suite.params,
    sampler: suiteSampler(settings.sampler, target.suite),
    windowMs: settings.windowMs,
    ...extra
  };
}

// Node 6-7: the profile is the host's; the process ran past its window while the host stopped the
// Profiler, so the window is kept by its end on the monotonic clock both sides read.
async function profiledOverInspectPort(side, target, settings, file, env) {
  const launched = await launchInspected(side.runtime.path, side.flags, workerRequest(side, target, settings, {}), {
    timeoutMs: settings.timeoutMs, cwd: path.dirname(target.suite.file), env, intervalUs: settings.intervalUs, profileFile: file
  });
  const report = launched.messages.find((m) => m.type === 'profile');
  if (launched.driverError) return { error: `the inspector Profiler over --inspect failed: ${launched.driverError.message}` };
  if (!report || !launched.profile) return { error: failure(launched, settings.timeoutMs, 'profiled') };
  const { startTime, endTime } = launched.profile;
  if (!(report.windowEndUs > startTime && report.windowEndUs <= endTime)) {
    return { error: `the profile's clock (${startTime} .. ${endTime} µs) does not hold the worker's window end (${report.windowEndUs} µs)` };
  }
  return { file, report, profile: launched.profile, windowEndUs: report.windowEndUs };
}

async function profiled(side, target, settings, index, env, via) {
  const file = path.join(settings.profileDir, `${side.id}-${safeName(side.column)}-${index + 1}.cpuprofile`);
  if (via === 'inspect-port') return profiledOverInspectPort(side, target, settings, file, env);
  const launched = await launchWorker(side.runtime.path, side.flags, workerRequest(side, target, settings, { intervalUs: settings.intervalUs, profileFile: file }), {
    timeoutMs: settings.timeoutMs, cwd: path.dirname(target.suite.file), env
  });
  const report = launched.messages.find((m) => m.type === 'profile');
  // The worker renamed its file there (worker/profile.js); only a regular file is read back.
  const profile = report ? await readJsonIfExists(file).catch(() => null) : null;
  if (profile) return { file, report, profile };
  const unsupported = launched.messages.find((m) => m.type === 'unsupported');
  return { error: unsupported ? unsupported.reason : failure(launched, settings.timeoutMs, 'profiled') };
}

async function deoptTraced(side, target, settings, env) {
  const launched = await launchWorker(side.runtime.path, [...side.flags, '--trace-deopt', '--allow-natives-syntax'], workerRequest(side, target, settings, {}), {
    timeoutMs: settings.timeoutMs, cwd: path.dirname(target.suite.file), env, collectStdout: true
  });
  const report = launched.messages.find((m) => m.type === 'profile');
  if (!report) return { error: failure(launched, settings.timeoutMs, 'deopt-traced') };
  return {
    operations: report.operations,
    status: report.optimizationStatus,
    described: describeOptimizationStatus(report.optimizationStatus, report.v8),
    deopts: parseTraceDeopt(launched.stdout)
  };
}

// sides: [{ id: 'a' | 'b', column, runtime: { path, version, label }, flags }]; target: { suite
// (file, params, sampler, name), benchmark }; settings: { processes, metricsProcesses, windowMs,
// intervalUs, timeoutMs, sampler, profileDir (a folder that takes files: profile-dir.js) }. Returns per side { profiles: [...], metrics: [...],
// optimization, unavailable, via (how it was profiled: profilingMethod) }.
export async function runExplainProcesses(sides, target, settings, { log = () => {} } = {}) {
  const runDir = await createRunDir(process.env, { warn: (message) => log(`warning: ${message}`) });
  const env = { NODEBENCH_RUN_DIR: runDir.path };
  const launcher = createProcessLauncher({
    runtimes: new Map(sides.map((s) => [s.id, s.runtime])),
    suites: new Map([[target.suite.name, target.suite]]),
    sampler: settings.sampler,
    run: { timeoutSec: settings.timeoutMs / 1000 },
    runDir: runDir.path
  });
  const out = Object.fromEntries(sides.map((s) => {
    const method = profilingMethod(s.runtime.version);
    return [s.id, { profiles: [], metrics: [], optimization: null, skipped: s.skipped || null, unavailable: s.skipped || method.unavailable || null, via: method.via ?? null }];
  }));
  const running = sides.filter((s) => !s.skipped);
  // The profiles written so far stay.
  const { stopIfInterrupted, release } = watchInterrupts(`the profiles written so far are in ${settings.profileDir}`);
  try {
    for (let i = 0; i < settings.processes; i++) {
      for (const side of sides) {
        if (out[side.id].unavailable) continue;
        stopIfInterrupted();
        log(`profiling ${side.column}, process ${i + 1} of ${settings.processes}`);
        const run = await profiled(side, target, settings, i, env, out[side.id].via);
        // A Node 8+ built without the inspector module says so at once; over --inspect, a failure is
        // one process's.
        const noInspector = out[side.id].via === 'inspector-module' && run.error && /inspector/.test(run.error);
        if (noInspector && !out[side.id].profiles.length) out[side.id].unavailable = run.error;
        else out[side.id].profiles.push(run);
      }
    }
    for (let i = 0; i < settings.metricsProcesses; i++) {
      for (const side of running) {
        stopIfInterrupted();
        log(`tracing GC on ${side.column}, process ${i + 1} of ${settings.metricsProcesses}`);
        const cell = { suite: target.suite.name, benchmark: target.benchmark, runtimeLabel: side.id, flags: side.flags };
        const { metrics } = await launcher.launch({ kind: 'metrics', windowMs: settings.windowMs, timeoutMs: settings.timeoutMs }, cell);
        out[side.id].metrics.push(metrics);
      }
    }
    for (const side of running) {
      stopIfInterrupted();
      log(`tracing deoptimisations on ${side.column}`);
      out[side.id].optimization = await deoptTraced(side, target, settings, env);
    }
    stopIfInterrupted();
  } finally {
    runDir.remove();
    release();
  }
  // A side whose every profiled process failed is shown like one that cannot be profiled, with why.
  for (const side of sides) {
    const { profiles } = out[side.id];
    if (!out[side.id].unavailable && profiles.length && profiles.every((p) => p.error)) out[side.id].unavailable = profiles[0].error;
  }
  return out;
}
