// Student's t distribution, for p-values of Welch's test. Regularized incomplete beta by Lentz's
// continued fraction (Numerical Recipes §6.4); accurate to ~1e-10 for the df we meet (1..1000s).
// The Lanczos coefficients as Numerical Recipes prints them; doubles round the last digits, as in
// every port of this routine.
import { bisect } from './basic.js';

/* eslint-disable no-loss-of-precision */
function logGamma(x) {
  const c = [76.18009172947146, -86.50532032941677, 24.01409824083091, -1.231739572450155, 0.1208650973866179e-2, -0.5395239384953e-5];
  let y = x;
  const tmp = x + 5.5 - (x + 0.5) * Math.log(x + 5.5);
  let ser = 1.000000000190015;
  for (const coef of c) ser += coef / ++y;
  return -tmp + Math.log((2.5066282746310005 * ser) / x);
}
/* eslint-enable no-loss-of-precision */

function betaContinuedFraction(a, b, x) {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-12) break;
  }
  return h;
}

export function incompleteBeta(a, b, x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * betaContinuedFraction(a, b, x)) / a : 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

// Two-sided p-value of a t statistic with df degrees of freedom.
export function tTwoSidedP(t, df) {
  if (!Number.isFinite(t)) return 0;
  // Infinite df (both sides without spread, a known variance only) is the normal distribution,
  // which df 1e6 matches to 1e-6; Infinity itself would make the fraction NaN.
  const dof = Math.min(df, 1e6);
  return incompleteBeta(dof / 2, 0.5, dof / (dof + t * t));
}

// Student's t density (df capped as in tTwoSidedP).
function tDensity(t, df) {
  const dof = Math.min(df, 1e6);
  return Math.exp(logGamma((dof + 1) / 2) - logGamma(dof / 2) - 0.5 * Math.log(dof * Math.PI) - ((dof + 1) / 2) * Math.log1p((t * t) / dof));
}

// The p-quantile of Student's t with df degrees of freedom (p > 0.5): exact for fractional df
// (Welch, moderated variances), so that an interval and its p-value agree. Newton's method on the
// two-sided p-value from the normal quantile's side: the tail is convex there, so the steps rise
// to the root without overshooting (a few steps; bisection was 10x slower in diff and doctor).
export function tQuantile(p, df) {
  if (!(p > 0.5 && p < 1)) throw new RangeError(`tQuantile needs 0.5 < p < 1, not ${p}`);
  const tail = 2 * (1 - p);
  let t = 0;
  for (let i = 0; i < 200; i++) {
    const step = (tTwoSidedP(t, df) - tail) / (2 * tDensity(t, df));
    t += step;
    if (Math.abs(step) <= 1e-12 * Math.max(1, t)) return t;
  }
  const { lo, hi } = bisect((x) => tTwoSidedP(x, df) > tail, 0, 1e4, 200);
  return (lo + hi) / 2;
}
