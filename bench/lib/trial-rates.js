// Small statistics for the bench scripts' own figures (rates of events over repeated trials).
import { mean, sd } from '../../cli/stats/basic.js';

// Wilson score interval for k successes in n trials (95%): honest at small n and near 0 or 1.
export function wilson(k, n, z = 1.96) {
  if (!n) return { low: NaN, high: NaN };
  const p = k / n;
  const denom = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denom;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

export function rate(k, n) {
  return { k, n, rate: n ? k / n : NaN, ci: wilson(k, n) };
}

export const cv = (xs) => (xs.length >= 2 ? sd(xs) / mean(xs) : NaN);

export { mean, sd };
