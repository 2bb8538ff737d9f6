// Which processes and samples ran on a disturbed machine. The worker measures (worker/disturbance.js):
// a fixed reference (clock reads) after every sample, the run-queue wait during every sample, and the steal
// share of the sampling window. Here those readings become decisions:
//   a sample is set aside when this process waited on the run queue for more than `thresholdPct`
//   of the sample (another process of this machine held the CPU);
//   a process is set aside when its reference (clock reads) ran more than REFERENCE_SLACK_PCT (or
//   `thresholdPct`, if larger) slower than the quiet reading of its cell (the whole VM was slow: the
//   host's other tenants), when steal took more than `thresholdPct` of its CPU, or when most of its
//   samples were set aside.
// The reference is not a clean clock of the machine: process.hrtime() allocates, so its cost follows
// the heap the benchmark left behind. On a quiet machine (measured 2026-11-22) a column's
// readings differed by suite by up to 40%, and processes of one cell by up to 20%; judged per column
// at 10%, half of all processes were set aside and rerun for nothing, and the estimates kept were no
// better. So each process counts its fastest reading (a GC inside one reading only raises that one),
// it is compared with the processes of its own cell (same benchmark, same heap), and only a slowdown
// beyond that quiet spread counts: host slow periods measured 1.5-1.9x.
// The quiet reading of a cell is the 25th percentile of its processes' readings (disturbance only
// ever slows it down), or its (runtime, flag set, suite) group's fast mode where that is lower
// (stats/host-speed.js): when the host ran slow for most of a run (2026-11-27: 4 of 5 processes of a
// cell at 1.5x), the cell's own quiet reading was the slow one and nothing was set aside, so cells
// of one run were measured in different host modes and their ratio was the host's.
import { quantile } from './basic.js';
import { referenceOf, fastReferences, fastReferenceOf } from './host-speed.js';

const QUIET_QUANTILE = 0.25;
export const REFERENCE_SLACK_PCT = 25;

// Map cell id -> quiet reference ns, from every timing process of the given cells.
export function quietReferences(cells) {
  const fasts = fastReferences(cells);
  const byCell = new Map();
  for (const cell of cells) {
    const readings = cell.processes.map(referenceOf).filter((x) => x !== null);
    if (!readings.length) continue;
    const own = quantile(readings, QUIET_QUANTILE);
    const fast = fastReferenceOf(cell, fasts);
    byCell.set(cell.id, fast ? Math.min(own, fast) : own);
  }
  return byCell;
}

// Indexes of the samples to keep: those during which the process was not kept off its CPU.
export function keptSampleIndexes(record, thresholdPct) {
  const waits = record.disturbance?.runQueueWaitNs || [];
  return record.samplesNsPerOp.map((_, i) => i).filter((i) => {
    const wait = waits[i];
    if (typeof wait !== 'number') return true;
    const sampleNs = record.samplesNsPerOp[i] * record.iterationsPerSample;
    return wait <= (thresholdPct / 100) * sampleNs;
  });
}

// null, or why the process should be set aside: { reason, slowdown, stealShare, keptSamples }.
export function judgeProcess(record, quietReferenceNs, { thresholdPct, cores = 1 }) {
  if (!record.disturbance) return null;
  const limit = 1 + Math.max(thresholdPct, REFERENCE_SLACK_PCT) / 100;
  const reference = referenceOf(record);
  const slowdown = reference !== null && quietReferenceNs ? reference / quietReferenceNs : null;
  const steal = record.disturbance.stealShare;
  // The steal share is of all CPUs; at worst it all fell on this process's one.
  const stealOnOneCpu = typeof steal === 'number' ? steal * cores : null;
  const kept = keptSampleIndexes(record, thresholdPct).length;
  const figures = { slowdown, stealShare: steal, keptSamples: kept };
  if (slowdown !== null && slowdown > limit) {
    return { ...figures, reason: `its reference (clock reads) ran ${((slowdown - 1) * 100).toFixed(0)}% slower than this runtime's quiet processes in this run (the host was slow)` };
  }
  if (stealOnOneCpu !== null && stealOnOneCpu > thresholdPct / 100) {
    return { ...figures, reason: `the hypervisor took up to ${(stealOnOneCpu * 100).toFixed(0)}% of its CPU (steal)` };
  }
  if (kept < Math.ceil(record.samplesNsPerOp.length / 2)) {
    return { ...figures, reason: `other processes held its CPU during ${record.samplesNsPerOp.length - kept} of ${record.samplesNsPerOp.length} samples` };
  }
  return null;
}
