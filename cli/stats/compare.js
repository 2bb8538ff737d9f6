// Is B faster or slower than A, by how much, and how sure are we? The same per-process values and
// the same robust estimate as the table (stats/summary.js: trimmed mean of log per-process values,
// over the processes kept after disturbance checks), Yuen's test for the difference (Welch's test
// on trimmed means), a 95% interval for the ratio of rates, its p-value, and the verdict of
// stats/decision.js (faster, slower, same within ±2%, undecided) for the comparison judged alone;
// a view of many comparisons judges them together (decision.js judgeAll: q-values).
// Within one run, the table's ratios pair the processes that ran in the same block (`pairedRatio`):
// a slow period of the machine then hits both sides of a pair, and drops out of the ratio.
import { geomean } from './basic.js';
import { tTwoSidedP, tQuantile } from './distributions.js';
import { yuen, logInterval, logVariancePrior } from './robust.js';
import { keptProcesses, perProcessOf } from '../cell-identity.js';
import { processValue, keptSamples } from './summary.js';
import { INVOCATION_DRIFT } from './drift.js';
import { ALPHA, EQUIVALENCE, decide } from './decision.js';

export { INVOCATION_DRIFT, ALPHA };

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
// equivalence: the band of "same" (stats/decision.js).
export function compareCells(a, b, { alpha = ALPHA, driftCv = 0, priorA = null, priorB = null, equivalence = EQUIVALENCE } = {}) {
  const ua = units(a);
  const ub = units(b);
  // One observation a side (a whole command run once) has no spread to judge a change by: the ratio
  // stands, its interval is unbounded and nothing is decided.
  if (ua.logs.length < 2 || ub.logs.length < 2) {
    const ratio = Math.exp((ua.center ?? ua.logs[0]) - (ub.center ?? ub.logs[0]));
    return {
      ratio, ci: { level: 1 - alpha, low: 0, high: Infinity }, p: 1, q: 1, df: 0, se: Infinity, significant: false, verdict: 'undecided',
      method: `one observation on a side (n = ${ua.logs.length} vs ${ub.logs.length}): no interval, nothing decided`, singleProcess: true
    };
  }
  const test = yuen(ua.logs, ub.logs, driftCv ** 2, { priorA: ua.center === undefined ? priorA : null, priorB: ub.center === undefined ? priorB : null });
  // The centre is the table's estimate (for a single process, its value over its kept samples).
  const diff = (ua.center ?? test.meanA) - (ub.center ?? test.meanB);
  const t = test.se > 0 ? diff / test.se : (diff === 0 ? 0 : Infinity * Math.sign(diff));
  const p = test.se > 0 ? tTwoSidedP(t, test.df) : (diff === 0 ? 1 : 0);
  // The exact quantile for the (fractional) Welch df, so that p < alpha exactly when the interval excludes 1.
  const half = test.se > 0 ? tQuantile(1 - alpha / 2, test.df) * test.se : 0;
  const ratio = Math.exp(diff);
  const low = Math.exp(diff - half);
  const high = Math.exp(diff + half);
  const single = ua.level !== 'processes' || ub.level !== 'processes';
  return {
    ratio,
    ci: { level: 1 - alpha, low, high },
    p,
    // Judged alone, a comparison's q-value is its p-value; a view of many replaces both (judgeAll).
    q: p,
    df: test.df,
    // The standard error of the log ratio, drift term included.
    se: test.se,
    significant: p < alpha,
    verdict: decide({ ratio, low, high, q: p }, { alpha, equivalence }),
    method: `Yuen's test (trimmed means) on log per-${single ? 'sample times' : 'process values'} (n = ${ua.logs.length} vs ${ub.logs.length})${priorA || priorB ? ', variances moderated toward each suite\'s' : ''}${driftCv ? `, plus ${(driftCv * 100).toFixed(1)}% drift between invocations per side` : ''}`,
    singleProcess: single
  };
}

const MIN_PAIRS = 3;

// Log rate ratios of `cell` to `base`, one per round both ran (processes of one block).
export function pairedLogs(base, cell) {
  // Processes pair by round (the same block of the schedule); processes of a duet pair (run.pairing,
  // runner/pairing.js) by their pair id, and a baseline's processes paired with another cell never
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
  return logVariancePrior(pairs.map(([base, cell]) => pairedLogs(base, cell)), MIN_PAIRS);
}

// The rate ratio of `cell` to `base` from processes that ran in the same block (same round): each
// pair's log ratio, then the robust interval over pairs, its variance moderated toward the suite's
// other ratios when `prior` (pairedPrior) is given. Falls back to the unpaired comparison when
// fewer than 3 pairs exist. Returns { ratio, low, high, rme, p, paired, pairs, method }: p is the
// two-sided p-value of "no change" (for the view's false discovery rate, stats/decision.js).
export function pairedRatio(base, cell, prior = null) {
  const logs = pairedLogs(base, cell);
  if (logs.length >= MIN_PAIRS) {
    const interval = logInterval(logs, 'paired per-block ratios', prior);
    const t = Math.log(interval.estimate) / interval.se;
    const p = interval.se > 0 ? tTwoSidedP(t, interval.df) : (interval.estimate === 1 ? 1 : 0);
    return { ratio: interval.estimate, low: interval.low, high: interval.high, rme: ((interval.high - interval.low) / 2 / interval.estimate) * 100, p, paired: true, pairs: logs.length, method: interval.method };
  }
  const c = compareCells(base, cell);
  return { ratio: c.ratio, low: c.ci.low, high: c.ci.high, rme: ((c.ci.high - c.ci.low) / 2 / c.ratio) * 100, p: c.p, paired: false, pairs: logs.length, method: c.method };
}

export function geomeanRatio(comparisons) {
  return geomean(comparisons.map((c) => c.ratio));
}
