// Plain descriptive statistics over arrays of numbers.
export const sum = (xs) => xs.reduce((a, b) => a + b, 0);
export const mean = (xs) => (xs.length ? sum(xs) / xs.length : NaN);

export function variance(xs) {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return sum(xs.map((x) => (x - m) ** 2)) / (xs.length - 1);
}

export const sd = (xs) => Math.sqrt(variance(xs));

// Linear interpolation between closest ranks (type 7, as R and numpy default).
export function quantile(xs, q) {
  if (!xs.length) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

export const median = (xs) => quantile(xs, 0.5);

export function geomean(xs) {
  const positive = xs.filter((x) => x > 0);
  return positive.length ? Math.exp(mean(positive.map(Math.log))) : NaN;
}

// Two-sided 97.5% quantiles of Student's t for df 1..30; beyond 30 the normal value is close enough
// (within 2% at df 30, shrinking).
const T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

export function t975(df) {
  if (df < 1) return Infinity;
  return df <= 30 ? T975[Math.floor(df) - 1] : 1.96 + 2.4 / df;
}

// Welch-Satterthwaite degrees of freedom of a difference of two means, from each mean's variance
// (variance / n) and its n: one formula for explain's functions and diff's metrics.
export const welchDf = (varianceOfMeanA, nA, varianceOfMeanB, nB) =>
  (varianceOfMeanA + varianceOfMeanB) ** 2 / ((varianceOfMeanA ** 2) / (nA - 1) + (varianceOfMeanB ** 2) / (nB - 1));

// Where a predicate that holds up to some x in [lo, hi] and fails beyond it changes, by bisection:
// returns the final bracket { lo, hi } (holds at lo, fails at hi).
export function bisect(holds, lo, hi, iterations = 60) {
  for (let i = 0; i < iterations; i++) {
    const mid = (lo + hi) / 2;
    if (holds(mid)) lo = mid;
    else hi = mid;
  }
  return { lo, hi };
}
