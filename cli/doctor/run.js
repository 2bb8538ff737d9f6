// `nodebench doctor`: how precise can nodebench be on this machine and runtime? Resolves the runtime
// (installing it like the matrix does), measures the timer, the harness's own overhead and the
// run-to-run spread inside that runtime, derives the smallest difference the default budget can
// detect, and lists the conditions that make figures noisy. About 5-10 s.
import { ensureRuntime } from '../runtimes/index.js';
import { parseRuntimeSpec } from '../runtimes/spec.js';
import { hostInfo } from '../results/host.js';
import { DEFAULT_RUN, samplerOptions } from '../options.js';
import { UserError } from '../errors.js';
import { timerResolution } from './timer.js';
import { harnessOverhead } from './overhead.js';
import { runToRunVariability } from './variability.js';
import { smallestDetectable, adaptiveNote } from './detectable.js';
import { readConditions, warningsFor, measuredWarnings } from './conditions.js';

export const DOCTOR_DEFAULTS = { overheadProcesses: 3, variabilityProcesses: 10 };

// Returns the parsed spec, which runDoctor takes as well as a string.
export function checkSpec(spec) {
  const parsed = parseRuntimeSpec(spec);
  if (parsed.kind === 'invalid') {
    throw new UserError(`--node "${parsed.text}" is not a Node version, range, lts, latest, system or a path to a node binary; give one runtime, e.g. --node 4.9.1 or --node lts.`);
  }
  return parsed;
}

export async function runDoctor({ spec = process.execPath, overheadProcesses = DOCTOR_DEFAULTS.overheadProcesses, variabilityProcesses = DOCTOR_DEFAULTS.variabilityProcesses, log = () => {} } = {}) {
  const parsed = checkSpec(spec);
  const started = Date.now();
  const runtime = await ensureRuntime(parsed, { log });
  const sampler = samplerOptions();
  const step = (what, total) => (i) => log(`doctor: Node ${runtime.version}: ${what} (process ${i}/${total})`);

  const overhead = await harnessOverhead(runtime, { processes: overheadProcesses, sampler, onProcess: step('harness overhead, empty benchmark', overheadProcesses) });
  const variability = await runToRunVariability(runtime, { processes: variabilityProcesses, sampler, onProcess: step('run-to-run variability, fixed-work benchmark', variabilityProcesses) });
  const timer = timerResolution([...overhead.measured.records, ...variability.measured.records]);
  const detectable = smallestDetectable(variability.result.cv, DEFAULT_RUN.processes);
  // The engine adds processes (up to run.maxProcesses) to a cell whose margin is above run.targetRme.
  const maxProcesses = DEFAULT_RUN.maxProcesses ?? DEFAULT_RUN.processes;
  if (detectable && maxProcesses > DEFAULT_RUN.processes) {
    detectable.atMaxProcesses = smallestDetectable(variability.result.cv, maxProcesses);
    detectable.adaptive = adaptiveNote(variability.result.cv, DEFAULT_RUN.processes, maxProcesses, DEFAULT_RUN.targetRme);
  }
  const host = hostInfo();
  const conditions = readConditions({ host });
  const warnings = [
    ...warningsFor(conditions),
    ...measuredWarnings({ variabilityCv: variability.result.cv, resolutionNs: timer.ns, minSampleMs: sampler.minSampleMs, detectableFraction: detectable?.fraction ?? 0, cpuShareMin: variability.result.cpuShareMin })
  ];
  const info = overhead.measured.runtimeInfo || {};
  return {
    host,
    runtime: { spec: parsed.text, version: runtime.version, v8: runtime.v8 || info.v8, arch: runtime.arch || info.arch, provider: runtime.provider, path: runtime.path },
    budget: { processesPerCell: DEFAULT_RUN.processes, maxProcesses, targetRme: DEFAULT_RUN.targetRme ?? null, ...sampler },
    timerResolution: timer,
    overhead: overhead.result,
    variability: variability.result,
    detectable,
    conditions,
    warnings,
    wallMs: Date.now() - started
  };
}
