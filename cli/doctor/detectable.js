// The smallest difference the default budget can detect, from the measured run-to-run spread.
// nodebench diff (stats/compare.js) runs Welch's t-test on the logs of the per-process medians of two
// cells, n processes each. With a per-process CV of c (sd of log medians ~ c when c is small), the
// difference of the two means has a standard error of c * sqrt(2/n) and df = 2n - 2 (equal spreads).
//   just significant (detected half the time):   t(0.975, df) * c * sqrt(2/n)
//   detected with 80% power at alpha = 0.05:      (t(0.975, df) + t(0.80, df)) * c * sqrt(2/n)
import { tTwoSidedP } from '../stats/distributions.js';
import { ALPHA } from '../stats/compare.js';

// The p-quantile of Student's t with df degrees of freedom (p > 0.5), by bisection on the p-value.
export function tQuantile(p, df) {
  if (!(p > 0.5 && p < 1)) throw new RangeError(`tQuantile needs 0.5 < p < 1, not ${p}`);
  const tail = 2 * (1 - p);
  let lo = 0;
  let hi = 1e4;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (tTwoSidedP(mid, df) > tail) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

// Fractions (0.036 = 3.6%) for a per-process CV `cv` and n processes per cell.
export function detectableDifference(cv, processesPerCell, { alpha = ALPHA, power = 0.8 } = {}) {
  const n = processesPerCell;
  if (!(cv >= 0) || n < 2) return null;
  const df = 2 * n - 2;
  const se = cv * Math.sqrt(2 / n);
  const tAlpha = tQuantile(1 - alpha / 2, df);
  const tPower = tQuantile(power, df);
  return {
    fraction: (tAlpha + tPower) * se,
    justSignificantFraction: tAlpha * se,
    processesPerCell: n,
    df,
    alpha,
    power,
    method: `(t(${1 - alpha / 2}, df ${df}) + t(${power}, df ${df})) x CV x sqrt(2/${n}) = (${tAlpha.toFixed(2)} + ${tPower.toFixed(2)}) x ${(cv * 100).toFixed(2)}% x ${Math.sqrt(2 / n).toFixed(3)}: the difference Welch's test on ${n} vs ${n} per-process medians (nodebench diff) finds with ${Math.round(power * 100)}% power at alpha ${alpha}; a difference of ${(tAlpha * se * 100).toFixed(1)}% is significant only half the time`
  };
}

// The fewest processes per cell that detect `target` (a fraction) with the given power; null if
// even `max` processes do not.
export function processesFor(target, cv, { alpha = ALPHA, power = 0.8, max = 200 } = {}) {
  for (let n = 2; n <= max; n++) {
    const d = detectableDifference(cv, n, { alpha, power });
    if (d && d.fraction <= target) return n;
  }
  return null;
}
