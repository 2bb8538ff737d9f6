// Per-cell summary. The unit of independent evidence is the process, not the sample: samples of one
// process share its JIT decisions, heap layout and address randomisation, so their spread
// understates how much a rerun moves. The estimate is therefore the mean of per-process medians and
// its 95% interval a t-interval over those medians; `rerun` is the wider interval in which a separate
// rerun's estimate should land (what "will I see this again?" needs). With one process only, the interval comes from
// a bootstrap over its samples and the method says that it misses between-process variation.
import { mean, median, quantile, sd, t975 } from './basic.js';
import { prng } from '../runner/schedule.js';
import { INVOCATION_DRIFT } from './compare.js';

export const CI_LEVEL = 0.95;

function bootstrapMedianInterval(samples, resamples = 2000, seed = 1) {
  const random = prng(seed);
  const medians = [];
  for (let r = 0; r < resamples; r++) {
    const draw = samples.map(() => samples[Math.floor(random() * samples.length)]);
    medians.push(median(draw));
  }
  return [quantile(medians, 0.025), quantile(medians, 0.975)];
}

// Tukey's far-out fences: beyond Q3 + 3 IQR (or below Q1 - 3 IQR) is an outlier worth a warning.
export function countOutliers(samples) {
  const q1 = quantile(samples, 0.25);
  const q3 = quantile(samples, 0.75);
  const iqr = q3 - q1;
  return samples.filter((x) => x > q3 + 3 * iqr || x < q1 - 3 * iqr).length;
}

export function summarize(processes) {
  const perProcess = processes.map((p) => median(p.samplesNsPerOp));
  const samples = processes.flatMap((p) => p.samplesNsPerOp);
  const estimate = mean(perProcess);
  let low;
  let high;
  let method;
  let rerun = null;
  if (perProcess.length >= 2) {
    const n = perProcess.length;
    const half = t975(n - 1) * sd(perProcess) / Math.sqrt(n);
    low = Math.max(0, estimate - half);
    high = estimate + half;
    method = `t-interval over per-process medians (${n} processes)`;
    // Where a separate rerun's estimate is expected to land: the rerun has its own error, and each
    // invocation drifts as a whole (INVOCATION_DRIFT, measured by the harness benchmark).
    const rerunHalf = t975(n - 1) * Math.sqrt((2 * sd(perProcess) ** 2) / n + 2 * (INVOCATION_DRIFT * estimate) ** 2);
    rerun = {
      level: CI_LEVEL,
      low: Math.max(0, estimate - rerunHalf),
      high: estimate + rerunHalf,
      method: `prediction interval for the estimate of a separate rerun with ${n} processes: estimate ± t(${n - 1}) · sqrt(2 s²/${n} + 2 (${INVOCATION_DRIFT * 100}% drift · estimate)²)`
    };
  } else {
    [low, high] = bootstrapMedianInterval(samples);
    method = 'bootstrap over the samples of a single process (does not include between-process variation)';
  }
  const cpu = processes.map((p) => p.cpuNsPerOp).filter((x) => typeof x === 'number');
  return {
    unit: 'ns/op',
    estimate,
    opsPerSec: 1e9 / estimate,
    median: median(samples),
    mean: mean(samples),
    sd: sd(samples),
    min: Math.min(...samples),
    p75: quantile(samples, 0.75),
    p99: quantile(samples, 0.99),
    rme: estimate > 0 ? ((high - low) / 2 / estimate) * 100 : null,
    ci: { level: CI_LEVEL, low, high, method },
    rerun,
    samples: samples.length,
    processes: processes.length,
    processMedians: perProcess,
    processCv: perProcess.length >= 2 ? sd(perProcess) / estimate : null,
    cpuNsPerOp: cpu.length ? mean(cpu) : null,
    outliers: countOutliers(samples)
  };
}

// Hints that tell the user what to do, in the spirit of hyperfine's outlier warning.
export function warningsFor(summary, processes) {
  const warnings = [];
  if (summary.outliers > 0 && summary.outliers / summary.samples > 0.05) {
    warnings.push(`${summary.outliers} of ${summary.samples} samples are far outliers: other programs were probably competing for the CPU; close them or rerun with more processes.`);
  }
  const unstable = processes.filter((p) => p.warmup && !p.warmup.stable).length;
  if (unstable) {
    warnings.push(`${unstable} of ${processes.length} processes never reached a stable rate during warm-up; raise run.warmupMaxMs or check the benchmark for growing state.`);
  }
  if (summary.processCv !== null && summary.processCv > 0.05) {
    warnings.push(`processes disagree by ${(summary.processCv * 100).toFixed(1)}% (coefficient of variation); the machine is noisy or the benchmark depends on start-up state: use more processes.`);
  }
  return warnings;
}
