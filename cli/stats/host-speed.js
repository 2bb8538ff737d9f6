// How fast the host ran for each process, and what that can explain of a time difference.
//
// Every timing process times a fixed reference (2,000 clock reads, worker/disturbance.js) after each
// sample. On this project's 2-core VM (2026-11-27, ../shared/evidence) the host switches between
// two speeds per process: a process either runs in the fast mode or in a slow one where allocation-
// heavy code and the reference both take 1.4-2x as long. The fast mode's reference is a property of
// the runtime (and a little of the suite's heap): the 10th percentile of a (runtime, flag set,
// suite) group's references was within 3% between two runs 25 minutes apart, while the slow mode
// took 30-60% of the processes of one run and most of the other. Two consequences:
//   - a process is slow against its group's fast mode, not only against its own cell's other
//     processes (when all processes of a cell ran slow, the cell's own quiet reading is slow too);
//   - a time ratio between two cells whose processes ran in different modes is the host's as much as
//     the code's: its interval is widened by the reference ratio, so that it covers both readings
//     (all of the difference from the host, none of it), and is decided only beyond that.
import { quantile, median } from './basic.js';
import { tQuantile, tTwoSidedP } from './distributions.js';
import { keptProcesses } from '../cell-identity.js';

// The group's fast mode: a low quantile of its processes' references, from this many on.
export const FAST_QUANTILE = 0.1;
export const MIN_GROUP = 8;
// A reference this much slower than its group's fast mode counts as the slow mode (the readings of
// one mode spread about 5-15% by benchmark heap; the slow mode was 1.4-2x).
export const SLOW_MODE = 1.25;

// A process's reference: its fastest reading (a GC inside one reading raises that one only).
export function referenceOf(record) {
  const readings = record.disturbance?.referenceNs?.filter((x) => typeof x === 'number' && x > 0);
  return readings?.length ? Math.min(...readings) : null;
}

// Processes of one group share a runtime, its flags and a suite's heap: their fast-mode references agree.
const groupOf = (cell) => `${cell.runtime}\0${cell.flagSet}\0${cell.suite}`;

const timingProcesses = (cell) => (cell.processes || []).filter((p) => Array.isArray(p.samplesNsPerOp));

// Map group -> fast-mode reference (ns) over every timing process of `cells` (set-aside ones
// included: they are evidence of the host), for groups with at least MIN_GROUP processes.
export function fastReferences(cells) {
  const byGroup = new Map();
  for (const cell of cells) {
    for (const record of timingProcesses(cell)) {
      const reference = referenceOf(record);
      if (reference === null) continue;
      if (!byGroup.has(groupOf(cell))) byGroup.set(groupOf(cell), []);
      byGroup.get(groupOf(cell)).push(reference);
    }
  }
  return new Map([...byGroup].filter(([, refs]) => refs.length >= MIN_GROUP).map(([group, refs]) => [group, quantile(refs, FAST_QUANTILE)]));
}

export const fastReferenceOf = (cell, fasts) => fasts.get(groupOf(cell)) ?? null;

// The host as the cell's counted processes saw it: the median of their references, and that over
// the group's fast mode (1 = the fast mode; null without references or without a group estimate).
export function cellHostLevel(cell, fasts) {
  const references = keptProcesses(cell).map(referenceOf).filter((x) => x !== null);
  if (!references.length) return { referenceNs: null, slowdown: null };
  const referenceNs = median(references);
  const fast = fastReferenceOf(cell, fasts);
  return { referenceNs, slowdown: fast ? referenceNs / fast : null };
}

// The log of how much slower the host ran for B's processes than for A's (0 when unknown).
// sameBinary: both cells ran the same runtime and flags, so their raw references compare directly
// (two files of one runtime, even when one whole run was slow); otherwise each is taken against its
// own group's fast mode (two runtimes of one run).
export function hostShift(a, b, { fastsA, fastsB, sameBinary }) {
  const levelA = cellHostLevel(a, fastsA);
  const levelB = cellHostLevel(b, fastsB);
  if (sameBinary && levelA.referenceNs && levelB.referenceNs) return Math.log(levelB.referenceNs / levelA.referenceNs);
  if (levelA.slowdown && levelB.slowdown) return Math.log(levelB.slowdown / levelA.slowdown);
  return 0;
}

// A host shift below this (log) is within one mode's own spread and left alone.
export const SHIFT_NOISE = Math.log(1.05);

// interval: { low, high, df, level } of a rate ratio B/A; shift: hostShift's log (B's host slower
// when positive, which lowers B's rate). Returns null when the shift is within one mode's spread,
// else the interval widened to hold the measured ratio both as it is and with the whole shift taken
// out, with the p-value of "no change" recomputed from it (so that p < 1 - level exactly when the
// widened interval excludes 1): { low, high, p, se, shift (as a ratio) }.
export function widenForHost({ low, high, df, level }, shift) {
  if (!(Math.abs(shift) > SHIFT_NOISE) || !(low > 0) || !Number.isFinite(high)) return null;
  // On the rate scale, B slower by the host's shift means a ratio lower by exp(-shift).
  const lowLog = Math.min(Math.log(low), Math.log(low) + shift);
  const highLog = Math.max(Math.log(high), Math.log(high) + shift);
  const dof = df > 0 ? df : Infinity;
  const se = (highLog - lowLog) / 2 / tQuantile(1 - (1 - level) / 2, dof);
  const centre = (lowLog + highLog) / 2;
  return { low: Math.exp(lowLog), high: Math.exp(highLog), p: se > 0 ? tTwoSidedP(centre / se, dof) : 1, se, shift: Math.exp(shift) };
}

// The words a comparison's method adds when its interval was widened.
export const widenedNote = (shift) => `interval widened by the host's speed: the reference loop ran ${describeShift(shift)} for B's processes`;

export const describeShift = (ratio) => (ratio >= 1 ? `${ratio.toFixed(2)}x slower` : `${(1 / ratio).toFixed(2)}x faster`);

// What a result file keeps of how its host ran (result.hostSpeed): per group the fast-mode and
// median references, and over all processes how many ran in the slow mode and how slow.
export function hostFingerprint(cells) {
  const fasts = fastReferences(cells);
  const groups = new Map();
  const slowdowns = [];
  for (const cell of cells) {
    const fast = fastReferenceOf(cell, fasts);
    for (const record of timingProcesses(cell)) {
      const reference = referenceOf(record);
      if (reference === null) continue;
      const key = groupOf(cell);
      if (!groups.has(key)) groups.set(key, { runtime: cell.runtime, flagSet: cell.flagSet, suite: cell.suite, references: [] });
      groups.get(key).references.push(reference);
      if (fast) slowdowns.push(reference / fast);
    }
  }
  if (!slowdowns.length) return null;
  return {
    method: `reference loop (clock reads timed after each sample, the fastest reading per process) against the ${FAST_QUANTILE * 100}th percentile of its (runtime, flag set, suite) group's processes, for groups of ${MIN_GROUP} or more; slow mode: above ${SLOW_MODE}x`,
    processes: slowdowns.length,
    slowShare: slowdowns.filter((s) => s > SLOW_MODE).length / slowdowns.length,
    slowdown: { median: median(slowdowns), p95: quantile(slowdowns, 0.95) },
    groups: [...groups.values()].map((g) => ({
      runtime: g.runtime, flagSet: g.flagSet, suite: g.suite, processes: g.references.length,
      fastNs: g.references.length >= MIN_GROUP ? quantile(g.references, FAST_QUANTILE) : null,
      medianNs: median(g.references)
    }))
  };
}

// How B's host ran against A's, from the groups both files have (same runtime, flag set and suite):
// the median over those groups of B's median reference over A's. null when they share no group.
export function compareHosts(fingerprintA, fingerprintB) {
  if (!fingerprintA || !fingerprintB) return null;
  const key = (g) => `${g.runtime}\0${g.flagSet}\0${g.suite}`;
  const a = new Map(fingerprintA.groups.map((g) => [key(g), g]));
  const ratios = fingerprintB.groups.filter((g) => a.has(key(g))).map((g) => g.medianNs / a.get(key(g)).medianNs);
  if (!ratios.length) return null;
  return { ratio: median(ratios), groups: ratios.length, slowShareA: fingerprintA.slowShare, slowShareB: fingerprintB.slowShare };
}

// hostShift between two cells, each against the fast modes of its own run (fastsA, fastsB: Maps from
// fastReferences); their raw references compare directly when both ran the same runtime and flags.
export function shiftBetween(a, b, fastsA, fastsB) {
  return hostShift(a, b, { fastsA, fastsB, sameBinary: sameBinary(a, b) });
}

// Two cells ran the same runtime with the same flags (their references, and their drift, compare).
export const sameBinary = (a, b) => a.runtime === b.runtime && JSON.stringify(a.flags || []) === JSON.stringify(b.flags || []);

// A host-mode shift this large between two files is said at the top of a diff.
export const HOST_BAND = 1.1;

const percent = (x) => `${Math.round(x * 100)}%`;

// How a run's host ran, in one line: how many of its processes ran in the slow mode, how slow.
export function describeFingerprint(fingerprint, who = 'this run') {
  if (!fingerprint) return null;
  return `host of ${who}: ${percent(fingerprint.slowShare)} of ${fingerprint.processes} processes ran in a slow mode (their reference loop ${SLOW_MODE}x or more its runtime's fast mode; p95 ${fingerprint.slowdown.p95.toFixed(2)}x)`;
}

// Lines for a diff of two files: the hosts compared (first, when they differ beyond HOST_BAND), each
// host's slow share, and how many comparisons had their interval widened for a host shift.
export function describeHosts({ a, b, comparison }, widened) {
  const lines = [];
  if (comparison && (comparison.ratio > HOST_BAND || comparison.ratio < 1 / HOST_BAND)) {
    lines.push(`B's host ran about ${describeShift(comparison.ratio)} than A's (the reference loop's median over ${comparison.groups} runtime and suite groups): time ratios between these files move with the host by that much and are not decided within it; compare columns of one run, or count instructions (--measure instructions).`);
  }
  for (const [fingerprint, who] of [[a, 'A'], [b, 'B']]) {
    const line = describeFingerprint(fingerprint, who);
    if (line) lines.push(line);
  }
  if (widened) lines.push(`${widened} comparison(s) had their processes in different host modes (reference loops ${Math.round((Math.exp(SHIFT_NOISE) - 1) * 100)}% or more apart): their intervals hold the ratio both as measured and with the host's difference taken out, and are decided only beyond both.`);
  return lines;
}

// Above this share of processes in the slow mode, a run's end says that time cannot decide small
// changes on this host and what can.
export const NOISY_SHARE = 0.1;

// The end of a run or report, when the host was noisy: how it ran, and where exact answers come from
// (null for a quiet host: the smallest detectable change above it says enough).
export function describeHostOfRun(fingerprint) {
  if (!fingerprint || fingerprint.slowShare <= NOISY_SHARE) return null;
  return `${describeFingerprint(fingerprint)}: on this host time decides only large changes; instructions (--measure instructions) are exact here, and nodebench doctor says what time can see`;
}
