// Per-cell summary. The unit of independent evidence is the process, not the sample: samples of one
// process share its JIT decisions, heap layout and address randomisation, so their spread
// understates how much a rerun moves. Each kept process gives one value (the median of its kept
// samples, or their total time over total operations for a suite that asks for `throughput`); the
// estimate is the mean of those values on the log scale, or their 20%-trimmed mean with its
// Tukey-McLaughlin interval when one is a far outlier (stats/robust.js), so that one process on a
// slow period of the machine cannot move it. The interval's variance is moderated toward the
// suite's (stats/moderate.js): 4-5 processes say little about their own spread.
// `rerun` is the wider interval in which a separate rerun's estimate should land. With one process
// only, the interval comes from a bootstrap over its samples and says it misses between-process variation.
import { mean, median, quantile, sd, t975 } from './basic.js';
import { prng } from './random.js';
import { logInterval } from './robust.js';
import { INVOCATION_DRIFT } from './drift.js';
import { foldingEvidence, looksFolded, FOLDED_RATIO } from './folding.js';
import { formatDuration } from '../text/format.js';
import { MEASURES } from '../measure.js';

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

// A process's samples in its measure's unit: ns per operation, or instructions per operation for a
// process counted under valgrind (cli/measure.js).
export const perOpSamples = (record) => record.samplesNsPerOp ?? record.instructionsPerOp;

// The samples of a process that count (all of them unless some were set aside as disturbed).
export function keptSamples(record) {
  const kept = record.keptSamples;
  const samples = perOpSamples(record);
  return Array.isArray(kept) && kept.length ? kept.map((i) => samples[i]) : samples;
}

// One process's value in ns/op. `throughput`: total time over total operations, for workloads
// whose cost comes in GC cycles longer than a sample (the median would skip the samples a major
// GC fell in).
// hostAdjustment: the factor the run's host covariate gave this process (stats/covariate.js), where
// its suite's fit was kept.
// A counted process's value is its total over its batches (their mean, each batch of the same
// operations): a batch's count depends on where a GC fell, the process's total repeats.
export function processValue(record, perProcess = 'median') {
  const samples = keptSamples(record);
  const total = perProcess === 'throughput' || record.measure === 'instructions';
  return (total ? mean(samples) : median(samples)) * (record.hostAdjustment ?? 1);
}

// prior: the suite's variance prior (stats/moderate.js, results/cell.js variancePriors), or null.
// measure: the cell's (cli/measure.js): its unit, and the repeatability its intervals never go below.
export function summarize(processes, { perProcess = 'median', prior = null, measure = MEASURES.time } = {}) {
  const values = processes.map((p) => processValue(p, perProcess));
  const samples = processes.flatMap(keptSamples);
  let estimate;
  let low;
  let high;
  let method;
  let rerun = null;
  if (values.length >= 2) {
    const interval = logInterval(values.map(Math.log), `per-process ${perProcess === 'throughput' ? 'throughputs' : 'medians'}`, prior, { floorCv: measure.repeatability });
    estimate = interval.estimate;
    low = interval.low;
    high = interval.high;
    method = interval.method;
    // Where a separate rerun's estimate is expected to land: the rerun has its own error, and each
    // invocation drifts as a whole (INVOCATION_DRIFT, measured by the harness benchmark).
    // A count is not moved by the host: its rerun drifts by its repeatability only.
    const drift = measure.id === 'time' ? INVOCATION_DRIFT : measure.repeatability;
    const rerunHalf = t975(interval.df) * Math.sqrt(2 * interval.se ** 2 + 2 * drift ** 2);
    rerun = {
      level: CI_LEVEL,
      low: estimate * Math.exp(-rerunHalf),
      high: estimate * Math.exp(rerunHalf),
      method: `prediction interval for the estimate of a separate rerun: estimate · exp(± t(${interval.df}) · sqrt(2 se² + 2 (${+(drift * 100).toFixed(3)}% drift)²)) on the log scale`
    };
  } else {
    estimate = values[0];
    [low, high] = bootstrapMedianInterval(samples);
    method = 'bootstrap over the samples of a single process (does not include between-process variation)';
  }
  const cpu = processes.map((p) => p.cpuNsPerOp).filter((x) => typeof x === 'number');
  return {
    unit: measure.unit,
    estimate,
    // Time only: a count per operation has no rate per second (cli/measure.js rateOf compares both).
    opsPerSec: measure.id === 'time' ? 1e9 / estimate : undefined,
    median: median(samples),
    mean: mean(samples),
    sd: sd(samples),
    min: Math.min(...samples),
    p75: quantile(samples, 0.75),
    p99: quantile(samples, 0.99),
    // A single sample (a whole command run once) gives no margin at all, not a margin of zero.
    rme: estimate > 0 && samples.length >= 2 ? ((high - low) / 2 / estimate) * 100 : null,
    ci: { level: CI_LEVEL, low, high, method },
    rerun,
    samples: samples.length,
    processes: processes.length,
    perProcess,
    variancePrior: values.length >= 2 && prior ? { d0: prior.d0, s0: Math.sqrt(prior.s02), cells: prior.cells } : undefined,
    processMedians: values,
    processCv: values.length >= 2 ? sd(values) / mean(values) : null,
    cpuNsPerOp: cpu.length ? mean(cpu) : null,
    // What an empty benchmark of the same kind cost in these processes (the median of each one's
    // fastest empty batch; stats/folding.js), absent for processes that did not measure one.
    emptyNsPerOp: emptyCost(processes) ?? undefined,
    outliers: countOutliers(samples)
  };
}

const fastest = (xs) => Math.min(...xs);

// Per process: its fastest kept sample and its fastest empty batch (stats/folding.js).
function foldingPairs(processes) {
  return processes.filter((p) => Array.isArray(p.emptyNsPerOp) && p.emptyNsPerOp.length)
    .map((p) => ({ fastestNs: fastest(keptSamples(p)), emptyNs: fastest(p.emptyNsPerOp) }));
}

function emptyCost(processes) {
  const evidence = foldingEvidence(foldingPairs(processes));
  return evidence ? evidence.emptyNs : null;
}

// Processes of one cell whose counts differ by more than this did not do the same work: counts of
// deterministic code repeated to 5-75 parts per million on Node 4 to 24 (2026-11-27).
export const COUNT_VARIES = 0.001;

// Hints that tell the user what to do, in the spirit of hyperfine's outlier warning, as data:
// { code, message } (report/notes.js counts them by code).
export function warningsFor(summary, processes) {
  const warnings = [];
  const counted = summary.unit === MEASURES.instructions.unit;
  if (summary.outliers > 0 && summary.outliers / summary.samples > 0.05) {
    // Other programs cannot move a count: a batch that counts far more did more work (a GC, a
    // compilation, a timer that fired in it).
    warnings.push({ code: counted ? 'batches-vary' : 'outliers', message: counted
      ? `${summary.outliers} of ${summary.samples} batches counted far more instructions than the others: the runtime did extra work in them (a garbage collection, a compilation, a timer); the per-process median leaves them out.`
      : `${summary.outliers} of ${summary.samples} samples are far outliers: other programs were probably competing for the CPU; close them or rerun with more processes.` });
  }
  const unstable = processes.filter((p) => p.warmup && !p.warmup.stable).length;
  if (unstable && counted) {
    // The counted warm-up ends at an instruction cap (worker/instructions.js), not at warmupMaxMs.
    warnings.push({ code: 'count-unsettled', message: `${unstable} of ${processes.length} processes reached the warm-up's instruction cap while the count per operation was still moving (V8 still optimising, or state that grows): the counts are of the code as compiled by then (alike in every process of the cell), and a ratio to another column could move with a longer warm-up (docs/instructions.md).` });
  } else if (unstable) {
    warnings.push({ code: 'warmup-unstable', message: `${unstable} of ${processes.length} processes never reached a stable rate during warm-up; raise run.warmupMaxMs or check the benchmark for growing state.` });
  }
  const folding = foldingEvidence(foldingPairs(processes));
  if (looksFolded(folding)) {
    warnings.push({ code: 'optimized-away', message: `runs at ${formatDuration(summary.estimate)} per operation, ${folding.ratio.toFixed(2)}x what an empty benchmark of its kind cost in the same processes (${formatDuration(folding.emptyNs)}; below ${FOLDED_RATIO}x counts as empty): the runtime has probably folded the work away or removed it, so this rate and its ratios measure the loop, not the operation; give it inputs that change from call to call and return the result (suites/README.md).` });
  }
  const countSpread = counted && summary.processMedians.length >= 2 ? Math.max(...summary.processMedians) / Math.min(...summary.processMedians) - 1 : 0;
  if (countSpread > COUNT_VARIES) {
    // Counts of deterministic code repeat to parts per million: a spread this large is the code's.
    const gaveUp = processes.filter((p) => p.valgrind?.pollsGivenUp > 0).length;
    const pool = gaveUp ? ` In ${gaveUp} of its processes the event loop stopped waiting for a thread-pool task that blocked (valgrind.pollsGivenUp in the process record).` : '';
    warnings.push({ code: 'count-varies', message: `the instruction counts of its processes differ by ${(countSpread * 100).toFixed(2)}%, where deterministic code repeats to a few parts per million: the benchmark's work depends on something that differs between processes (I/O that completes at its own pace, as the network, a child process or a thread-pool task that blocks; crypto randomness; threads of its own; or the clock, where the process record says the clock was real), so its count is not exact; measure it in time, or make its work fixed.${pool}` });
  } else if (!counted && summary.processCv !== null && summary.processCv > 0.05) {
    warnings.push({ code: 'processes-disagree', message: `processes disagree by ${(summary.processCv * 100).toFixed(1)}% (coefficient of variation); the machine is noisy or the benchmark depends on start-up state: use more processes.` });
  }
  return warnings;
}
