// Is B faster or slower than A, by how much, and how sure are we? The same per-process values and
// the same robust estimate as the table (stats/summary.js: trimmed mean of log per-process values,
// over the processes kept after disturbance checks), Yuen's test for the difference (Welch's test
// on trimmed means), a 95% interval for the ratio of rates, its p-value, and the verdict of
// stats/decision.js (faster, slower, same within ±2%, undecided) for the comparison judged alone;
// a view of many comparisons judges them together (decision.js judgeAll: q-values).
// Within one run, the table's ratios pair the processes that ran in the same block (`pairedRatio`):
// a slow period of the machine then hits both sides of a pair, and drops out of the ratio.
import { geomean, mean, median } from './basic.js';
import { tTwoSidedP, tQuantile } from './distributions.js';
import { yuen, logInterval, logVariancePrior } from './robust.js';
import { keptProcesses, perProcessOf, restsOnDisturbed } from '../cell-identity.js';
import { processValue, keptSamples } from './summary.js';
import { INVOCATION_DRIFT } from './drift.js';
import { ALPHA, EQUIVALENCE, decide } from './decision.js';
import { widenForHost, widenedNote } from './host-speed.js';
import { measureOfCell } from '../measure.js';

export { INVOCATION_DRIFT, ALPHA };

// How much slower than its code a cell whose processes all ran disturbed may have measured: its
// estimate over its fastest process (the least disturbed), and at least DISTURBED_SLOWDOWN, the slow
// mode's 95th percentile on this VM (reference loops 2.0-2.1x the fast mode, 2026-11-27/28; where
// every process was disturbed, the fastest was disturbed too).
export const DISTURBED_SLOWDOWN = 2;
export function disturbanceOf(cell) {
  const perProcess = perProcessOf(cell);
  const values = keptProcesses(cell).map((p) => processValue(p, perProcess)).filter((v) => v > 0);
  if (!values.length) return DISTURBED_SLOWDOWN;
  // The table's estimate (trimmed, summary.js); the plain geometric mean where a cell has none yet.
  const typical = cell.summary?.estimate > 0 ? cell.summary.estimate : Math.exp(mean(values.map(Math.log)));
  return Math.max(DISTURBED_SLOWDOWN, typical / Math.min(...values));
}

// Whether a cell kept half of its processes or fewer, the others set aside as disturbed: its figure
// is then a selection from a busy host more than the cell's usual reading on it. Half counts: in an
// A/A pair of default matrices on this VM (2026-11-28, pair 3 of docs/precision.md), gc/old-gen-marking
// on 24.21.0 kept 3 of 6 processes in one file (0.93-1.27 ms, the others 2.08-2.64 ms) and all 7
// in the other (1.36-3.62 ms), and its ratios to the baseline column had disjoint 95% intervals.
const keptHalfOrLess = (cell) => keptProcesses(cell).length * 2 <= cell.processes.length;

// Where either side kept half of its processes or fewer: the log rate ratio B/A between the medians
// over every process of both cells, those set aside included, less the one over the kept processes
// (positive: all processes read B faster than the kept ones do); else 0. Medians, so that a cell
// whose processes were mostly set aside is read at its usual speed on that host. (On the two
// default matrices of 2026-11-27, with any set-aside process as the trigger, 99 of 140 comparisons
// were widened, mostly by the noise between two readings of 5-8 processes; with a minority kept, 35.)
export function selectionShift(a, b, keptLogRatio) {
  if (!keptHalfOrLess(a) && !keptHalfOrLess(b)) return 0;
  const all = (cell) => {
    const perProcess = perProcessOf(cell);
    const logs = cell.processes.map((p) => processValue(p, perProcess)).filter((v) => v > 0).map(Math.log);
    return logs.length ? median(logs) : NaN;
  };
  const shift = all(a) - all(b) - keptLogRatio;
  return Number.isFinite(shift) ? shift : 0;
}

// The interval widened to hold the all-process reading (selectionShift) of the log rate ratio
// `logRatio` of b to a, or null where no side kept half of its processes or fewer (or the readings
// agree): { low, high, p, se, allProcessesRatio, note }.
function holdAllProcesses(a, b, logRatio, interval) {
  const shift = selectionShift(a, b, logRatio);
  const widened = widenForHost(interval, shift);
  if (!widened) return null;
  const allProcessesRatio = Math.exp(logRatio + shift);
  return { ...widened, allProcessesRatio, note: `interval widened to hold the ratio over all processes, those set aside included (rate ratio ${allProcessesRatio.toFixed(3)}x against ${Math.exp(logRatio).toFixed(3)}x kept)` };
}

function units(cell) {
  const kept = keptProcesses(cell);
  const perProcess = perProcessOf(cell);
  if (kept.length >= 2) return { logs: kept.map((p) => Math.log(processValue(p, perProcess))), level: 'processes' };
  // One process: its kept samples are all we have (those set aside as disturbed stay out, as in the
  // table), and they understate the spread between runs. The centre is the table's value of it.
  const samples = keptSamples(kept[0]);
  return { logs: samples.map(Math.log), center: Math.log(processValue(kept[0], perProcess)), level: 'samples of a single process' };
}

// a, b: ok cells. Returns the change in rate (ops/s) from a to b. driftCv: the relative drift
// between invocations to allow for (0 when both cells were measured interleaved in one run).
// priorA, priorB: the variance priors of the cells' suites in their files (results/cell.js
// variancePriors), so that diff judges with the spread the tables show.
// equivalence: the band of "same" (stats/decision.js). hostShift: the log of how much slower the
// host ran for B's processes than for A's (stats/host-speed.js hostShift); the interval then holds
// both readings of the difference (stats/host-speed.js widenForHost). selection: false leaves out
// the widening for processes set aside (selectionShift), for the drift estimate, which wants the
// kept processes' own spread.
export function compareCells(a, b, { alpha = ALPHA, driftCv = 0, priorA = null, priorB = null, equivalence = EQUIVALENCE, hostShift = 0, selection = true } = {}) {
  const ua = units(a);
  const ub = units(b);
  // One observation a side (a whole command run once) has no spread to judge a change by, and one
  // process a side (--quick) only the spread of its own samples, which says nothing of the next
  // process: on this project's VM (2026-11-27) processes of one cell ran 2x apart while each one's
  // samples agreed, and one-process cells were decided "0.47x slower" and "2.37x faster" where five
  // processes a cell gave ±231%. The ratio stands; its interval is unbounded and nothing is decided.
  if (ua.logs.length < 2 || ub.logs.length < 2 || ua.level !== 'processes' || ub.level !== 'processes') {
    const ratio = Math.exp((ua.center ?? mean(ua.logs)) - (ub.center ?? mean(ub.logs)));
    const what = ua.logs.length < 2 || ub.logs.length < 2 ? 'one observation on a side' : 'one process on a side';
    return {
      ratio, ci: { level: 1 - alpha, low: 0, high: Infinity }, p: 1, q: 1, df: 0, se: Infinity, significant: false, verdict: 'undecided',
      method: `${what} (n = ${ua.logs.length} vs ${ub.logs.length} ${ua.level === 'processes' && ub.level === 'processes' ? 'processes' : 'values'}): the spread between processes is unknown, so there is no interval and nothing is decided; measure with --processes 3 or more`,
      singleProcess: true
    };
  }
  // A count's own repeatability (cli/measure.js) stays in every interval, as drift does for time.
  const floor = Math.max(measureOfCell(a).repeatability, measureOfCell(b).repeatability);
  const test = yuen(ua.logs, ub.logs, driftCv ** 2, { priorA, priorB, knownVariance: floor ** 2 });
  const diff = test.meanA - test.meanB;
  const t = test.se > 0 ? diff / test.se : (diff === 0 ? 0 : Infinity * Math.sign(diff));
  let p = test.se > 0 ? tTwoSidedP(t, test.df) : (diff === 0 ? 1 : 0);
  // The exact quantile for the (fractional) Welch df, so that p < alpha exactly when the interval excludes 1.
  const half = test.se > 0 ? tQuantile(1 - alpha / 2, test.df) * test.se : 0;
  const ratio = Math.exp(diff);
  let low = Math.exp(diff - half);
  let high = Math.exp(diff + half);
  let se = test.se;
  let method = `Yuen's test (trimmed means) on log per-process values (n = ${ua.logs.length} vs ${ub.logs.length})${priorA || priorB ? ', variances moderated toward each suite\'s' : ''}${driftCv ? `, plus ${(driftCv * 100).toFixed(1)}% drift between invocations per side` : ''}${floor ? `, plus the count's repeatability (${(floor * 100).toFixed(2)}% per side)` : ''}`;
  const widened = widenForHost({ low, high, df: test.df, level: 1 - alpha }, hostShift);
  if (widened) {
    ({ low, high, p, se } = widened);
    method += `; ${widenedNote(widened.shift)}`;
  }
  // Which processes a cell keeps is itself a reading of a noisy host: where a busy machine set most
  // of one side's processes aside, the few it kept may be its fast mode by luck while the other
  // side kept slow ones its reference loop did not catch. So the interval then also holds the ratio
  // over every process of both cells, and a change is decided only beyond both readings. On this VM
  // (2026-11-28, bench/verdicts.js gate --busy-loops 2, trial 12) the gate failed an unchanged
  // benchmark "32.3% slower, q = 0.044": A kept 3 of 13 processes (148-163 µs), B 4 of 11
  // (200-423 µs); over all processes the two medians were the same 261 µs.
  const reselected = selection ? holdAllProcesses(a, b, diff, { low, high, df: test.df, level: 1 - alpha }) : null;
  if (reselected) {
    ({ low, high, p, se } = reselected);
    method += `; ${reselected.note}`;
  }
  // A side whose every process ran on a disturbed machine (fewer than two quiet ones, so the
  // disturbed ones count) measured the host as much as the code: its interval also holds the ratio
  // with that side's disturbance taken out (disturbanceOf), so only a change beyond it is decided.
  // On this VM (2026-11-28, bench/verdicts.js gate) an A/A pair failed the gate at q < 0.005 on such
  // cells: B's 8 processes of chain-bluebird all waited 5-30 ms a sample for the CPU and ran 1.9x A's.
  const disturbance = { a: restsOnDisturbed(a) ? disturbanceOf(a) : null, b: restsOnDisturbed(b) ? disturbanceOf(b) : null };
  for (const [side, sign] of [['b', 1], ['a', -1]]) {
    if (!disturbance[side]) continue;
    const held = widenForHost({ low, high, df: test.df, level: 1 - alpha }, sign * Math.log(disturbance[side]));
    if (held) ({ low, high, p, se } = held);
  }
  if (disturbance.a || disturbance.b) {
    const sides = ['a', 'b'].filter((side) => disturbance[side]).map((side) => `${side.toUpperCase()}'s (up to ${disturbance[side].toFixed(2)}x)`).join(' and ');
    method += `; ${sides} processes all ran while the machine was disturbed, and the interval holds the ratio with that taken out`;
  }
  return {
    ratio,
    ci: { level: 1 - alpha, low, high },
    p,
    // Judged alone, a comparison's q-value is its p-value; a view of many replaces both (judgeAll).
    q: p,
    df: test.df,
    // The standard error of the log ratio, drift term included (and the host's shift, when widened).
    se,
    significant: p < alpha,
    verdict: decide({ ratio, low, high, q: p }, { alpha, equivalence }),
    method,
    // How much slower the host ran for B's processes (the reference loop's ratio), when it widened the interval.
    hostShift: widened ? widened.shift : undefined,
    // The rate ratio over all processes, set-aside ones included, where it widened the interval.
    allProcessesRatio: reselected ? reselected.allProcessesRatio : undefined,
    singleProcess: false,
    // How many times slower a side's disturbance may have made it, where all its processes ran disturbed.
    disturbedOnly: Boolean(disturbance.a || disturbance.b) || undefined,
    disturbance: disturbance.a || disturbance.b ? { a: disturbance.a, b: disturbance.b } : undefined
  };
}

const MIN_PAIRS = 3;

// Log rate ratios of `cell` to `base`, one per round both ran (processes of one block).
export function pairedLogs(base, cell) {
  // Processes pair by round (the same block of the schedule); processes of a duet pair (run.pairing,
  // policy/pairing.js) by their pair id, and a baseline's processes paired with another cell never
  // stand in for this one's.
  const key = (p) => (p.pair !== undefined ? `pair ${p.pair}` : `round ${p.round}`);
  const byKey = (c, partner) => {
    const perProcess = perProcessOf(c);
    const map = new Map();
    for (const p of keptProcesses(c)) {
      if (p.duetWith !== undefined && p.duetWith !== partner.id) continue;
      if (!map.has(key(p))) map.set(key(p), processValue(p, perProcess));
    }
    return map;
  };
  const a = byKey(base, cell);
  const b = byKey(cell, base);
  return [...a.keys()].filter((k) => b.has(k)).map((k) => Math.log(a.get(k)) - Math.log(b.get(k)));
}

// The variance prior of a suite's paired ratios (stats/moderate.js): pairs: [[base, cell], ...].
export function pairedPrior(pairs) {
  const timed = pairs.filter(([base, cell]) => measureOfCell(base).id === 'time' && measureOfCell(cell).id === 'time');
  return logVariancePrior(timed.map(([base, cell]) => pairedLogs(base, cell)), MIN_PAIRS);
}

// The rate ratio of `cell` to `base` from processes that ran in the same block (same round): each
// pair's log ratio, then the robust interval over pairs, its variance moderated toward the suite's
// other ratios when `prior` (pairedPrior) is given. Falls back to the unpaired comparison when
// fewer than 3 pairs exist. Returns { ratio, low, high, rme, p, paired, pairs, method, hostShift?,
// allProcessesRatio? } (the last two where they widened the interval): p is the
// two-sided p-value of "no change" (for the view's false discovery rate, stats/decision.js).
// hostShift: as for compareCells, the log of how much slower the host ran for `cell` than for `base`;
// selection: as for compareCells (a side that kept half of its processes or fewer also holds the
// ratio over all of them), false to leave it out.
export function pairedRatio(base, cell, prior = null, { hostShift = 0, selection = true } = {}) {
  const logs = pairedLogs(base, cell);
  if (logs.length >= MIN_PAIRS) {
    // Each side of a pair keeps its measure's repeatability: √2 of it per paired ratio.
    const floor = Math.max(measureOfCell(base).repeatability, measureOfCell(cell).repeatability);
    const interval = logInterval(logs, 'paired per-block ratios', prior, { floorCv: floor * Math.SQRT2 });
    const t = Math.log(interval.estimate) / interval.se;
    const p = interval.se > 0 ? tTwoSidedP(t, interval.df) : (interval.estimate === 1 ? 1 : 0);
    const paired = { ratio: interval.estimate, low: interval.low, high: interval.high, p, paired: true, pairs: logs.length, method: interval.method };
    const widened = widenForHost({ low: paired.low, high: paired.high, df: interval.df, level: 1 - ALPHA }, hostShift);
    if (widened) Object.assign(paired, { low: widened.low, high: widened.high, p: widened.p, hostShift: widened.shift, method: `${paired.method}; ${widenedNote(widened.shift)}` });
    // Pairing by round cancels a slow period both sides shared, not which of a cell's processes a
    // busy host let it keep: the same rule as between files (compareCells).
    const reselected = selection ? holdAllProcesses(base, cell, Math.log(interval.estimate), { low: paired.low, high: paired.high, df: interval.df, level: 1 - ALPHA }) : null;
    if (reselected) Object.assign(paired, { low: reselected.low, high: reselected.high, p: reselected.p, allProcessesRatio: reselected.allProcessesRatio, method: `${paired.method}; ${reselected.note}` });
    return { ...paired, rme: ((paired.high - paired.low) / 2 / paired.ratio) * 100 };
  }
  const c = compareCells(base, cell, { hostShift, selection });
  return { ratio: c.ratio, low: c.ci.low, high: c.ci.high, rme: ((c.ci.high - c.ci.low) / 2 / c.ratio) * 100, p: c.p, paired: false, pairs: logs.length, method: c.method, hostShift: c.hostShift, allProcessesRatio: c.allProcessesRatio };
}

export function geomeanRatio(comparisons) {
  return geomean(comparisons.map((c) => c.ratio));
}
