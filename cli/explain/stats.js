// Intervals over processes for explain: one value per process (a function's ns/op, a GC time per
// op), a side's mean with a 95% t-interval, and the difference of two sides with Welch's interval.
// A function's value in one process is a count of samples, so its spread has a floor: a Poisson
// count k has variance k (k + 1 here, so that a function seen in no sample still has some), which
// keeps "absent in all three A processes, a few samples in all three B processes" from looking
// exact. Changes are called at one false discovery rate over the functions compared (stats/fdr.js).
import { mean, variance, t975, welchDf } from '../stats/basic.js';
import { tTwoSidedP } from '../stats/distributions.js';
import { qValues } from '../stats/fdr.js';

export const ALPHA = 0.05;

// values: one per process; floorVariance: the least variance one value can have (0 for a measured
// time). Returns { estimate, low, high, n, varianceOfMean } (low/high null with one value).
export function sideInterval(values, floorVariance = 0) {
  const n = values.length;
  if (!n) return null;
  const estimate = mean(values);
  const spread = Math.max(n > 1 ? variance(values) : 0, floorVariance);
  if (n < 2) return { estimate, low: null, high: null, n, varianceOfMean: null };
  const half = t975(n - 1) * Math.sqrt(spread / n);
  return { estimate, low: Math.max(0, estimate - half), high: estimate + half, n, varianceOfMean: spread / n };
}

// B minus A: { estimate, low, high, p } or null when a side has no interval.
export function difference(a, b) {
  if (!a || !b || a.varianceOfMean === null || b.varianceOfMean === null) return null;
  const va = a.varianceOfMean;
  const vb = b.varianceOfMean;
  const se = Math.sqrt(va + vb);
  const estimate = b.estimate - a.estimate;
  if (!(se > 0)) return { estimate, low: estimate, high: estimate, p: estimate === 0 ? 1 : 0 };
  const df = welchDf(va, a.n, vb, b.n);
  const half = t975(Math.min(df, 1e6)) * se;
  return { estimate, low: estimate - half, high: estimate + half, p: tTwoSidedP(estimate / se, df) };
}

// Adds q and verdict ('slower' | 'faster' | 'undecided', the words of stats/decision.js) to each
// change (null stays null): a change is called only when its q-value is below ALPHA, which needs its
// 95% interval to exclude 0.
export function judgeChanges(changes) {
  const qs = qValues(changes.map((c) => (c ? c.p : NaN)));
  return changes.map((c, i) => {
    if (!c) return null;
    const decided = qs[i] < ALPHA && (c.low > 0 || c.high < 0);
    return { ...c, q: qs[i], verdict: decided ? (c.estimate > 0 ? 'slower' : 'faster') : 'undecided' };
  });
}
