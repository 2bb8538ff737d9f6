// Estimates that one bad process cannot blow up. Per-process values are not normal when a process
// can land on a slow period of the machine: the mean and its t-interval then move with the worst
// process. The 20%-trimmed mean with the Tukey-McLaughlin interval (standard error from the
// winsorized variance, df = h - 1 for the h values kept) and, for two groups, Yuen's test are the
// classic robust replacements (Wilcox, "Introduction to Robust Estimation and Hypothesis Testing",
// ch. 4-5): with no outlier they are close to the mean and Welch's test; with one, they ignore it.
// Everything is on the log scale, where a ratio is a difference and slowdowns are symmetric.
// Trimming is not free, though: with 5 values the trimmed interval keeps 3 (t(2) = 4.30), about 2.6x
// as wide as the t-interval over all 5 when nothing is wrong. On the shipped suites (quiet run of
// 2026-11-22) always trimming gave median margins of ±6.7% against ±6.0% for the
// plain mean. So values are trimmed only when one of them is a far outlier: more than OUTLIER_MADS
// scaled MADs from the median (the MAD floored at MAD_FLOOR, so that processes that agree to 0.1%
// do not make a 1% difference an outlier). That gave ±5.7% there, and still ignores a 2x process.
import { mean, median, t975 } from './basic.js';
import { moderateVariance, fitVariancePrior } from './moderate.js';

export const TRIM = 0.2;
const OUTLIER_MADS = 4;
const MAD_FLOOR = 0.005;
const MAD_SCALE = 1.4826;

// Whether one of the (log) values lies far from the others.
export function hasFarOutlier(xs) {
  if (xs.length < 3) return false;
  const m = median(xs);
  const deviations = xs.map((x) => Math.abs(x - m));
  const mad = Math.max(MAD_SCALE * median(deviations), MAD_FLOOR);
  return Math.max(...deviations) > OUTLIER_MADS * mad;
}

// How many values to trim from each end: none below 5 values (nothing would be left to estimate
// a spread from).
export function trimCount(n, trim = TRIM) {
  return n >= 5 ? Math.floor(trim * n) : 0;
}

// { estimate, se, df, n, trimmed } of the trimmed mean of xs (the plain mean, trimmed: 0, when no
// value is a far outlier).
export function trimmedMean(xs, trim = TRIM) {
  const n = xs.length;
  const sorted = [...xs].sort((a, b) => a - b);
  const g = hasFarOutlier(xs) ? trimCount(n, trim) : 0;
  const h = n - 2 * g;
  const estimate = mean(sorted.slice(g, n - g));
  if (n < 2) return { estimate, se: NaN, df: 0, n, trimmed: 0 };
  const low = sorted[g];
  const high = sorted[n - g - 1];
  const winsorized = sorted.map((x) => Math.min(high, Math.max(low, x)));
  const wm = mean(winsorized);
  const winsorizedVariance = winsorized.reduce((s, x) => s + (x - wm) ** 2, 0) / (n - 1);
  // Tukey-McLaughlin: the trimmed mean's standard error from the winsorized variance.
  const se = Math.sqrt(winsorizedVariance) / ((h / n) * Math.sqrt(n));
  return { estimate, se, df: h - 1, n, trimmed: 2 * g, d: ((n - 1) * winsorizedVariance) / (h * (h - 1)) };
}

// A cell's spread as moderation (stats/moderate.js) takes it: { s2, df }, s2 being the variance of
// one value (the squared standard error times n), so that cells of 4 and 8 processes pool alike.
export function unitVariance(t) {
  return { s2: t.se ** 2 * t.n, df: t.df };
}

// The squared standard error and degrees of freedom of trimmed mean `t` with its variance moderated
// toward `prior` (stats/moderate.js); t.n >= 2.
function moderatedSquaredSe(t, prior) {
  const moderated = moderateVariance(unitVariance(t), prior);
  return { se2: moderated.s2 / t.n, df: moderated.df };
}

// The variance prior (stats/moderate.js) of a suite's groups of log values, one group per cell or
// per paired ratio; groups of fewer than `minValues` say nothing about their spread.
export function logVariancePrior(groups, minValues = 2) {
  return fitVariancePrior(groups.filter((logs) => logs.length >= minValues).map((logs) => unitVariance(trimmedMean(logs))));
}

// A 95% interval for the ratio exp(trimmed mean of logs): { estimate, low, high, se, df, method }.
// With a prior (the suite's variance prior, stats/moderate.js), the standard error and degrees of
// freedom are the moderated ones.
// floorCv: the least relative spread one value has whatever the values show (a measure's own
// repeatability, cli/measure.js), so that values that agree exactly still give an interval.
export function logInterval(logs, what, prior = null, { floorCv = 0 } = {}) {
  const t = trimmedMean(logs);
  let { se, df } = t;
  if (prior && t.n >= 2) {
    const moderated = moderatedSquaredSe(t, prior);
    se = Math.sqrt(moderated.se2);
    df = moderated.df;
  }
  if (floorCv > 0 && t.n >= 2) {
    // The floor is a measured constant, not an estimate: by Welch-Satterthwaite it adds degrees of
    // freedom in proportion to its share (values that agree exactly are not a 1-df interval).
    const floor2 = floorCv ** 2 / t.n;
    df = se > 0 ? df * ((se ** 2 + floor2) / se ** 2) ** 2 : Infinity;
    se = Math.sqrt(se ** 2 + floor2);
  }
  const half = t.n >= 2 ? t975(df) * se : NaN;
  const trimmedNote = t.trimmed ? `${TRIM * 100}%-trimmed mean (the ${t.trimmed / 2} highest and lowest set aside), Tukey-McLaughlin interval` : 'mean with a t-interval';
  const priorNote = `${prior && t.n >= 2 ? `, its variance moderated toward the suite's (${prior.d0.toFixed(1)} prior degrees of freedom, ${prior.cells} cells)` : ''}${floorCv > 0 ? `, plus the measure's own repeatability (${(floorCv * 100).toFixed(2)}% per value)` : ''}`;
  return {
    estimate: Math.exp(t.estimate),
    low: Number.isFinite(half) ? Math.exp(t.estimate - half) : NaN,
    high: Number.isFinite(half) ? Math.exp(t.estimate + half) : NaN,
    se,
    df,
    method: `${trimmedNote} over the logs of ${t.n} ${what}${priorNote}`
  };
}

// One side of Yuen's test: its squared standard error and degrees of freedom, moderated toward the
// side's suite prior when there is one (stats/moderate.js).
function yuenSide(t, prior) {
  if (t.n < 2) return { d: 0, df: 1 };
  if (!prior) return { d: t.d, df: Math.max(1, t.df) };
  const moderated = moderatedSquaredSe(t, prior);
  return { d: moderated.se2, df: moderated.df };
}

// Yuen's test for two groups of logs: { meanA, meanB (their trimmed means), se, df }; extraVariance is added to
// each side (a drift between invocations: it widens the interval and adds no degrees of freedom);
// priorA/priorB: each side's suite variance prior, as the table's intervals use.
// knownVariance: a variance per side known exactly (a measure's repeatability, cli/measure.js): it
// widens the interval and, being known, adds degrees of freedom as Welch-Satterthwaite says.
export function yuen(logsA, logsB, extraVariance = 0, { priorA = null, priorB = null, knownVariance = 0 } = {}) {
  const a = trimmedMean(logsA);
  const b = trimmedMean(logsB);
  const sa = yuenSide(a, priorA);
  const sb = yuenSide(b, priorB);
  const total = sa.d + sb.d + 2 * extraVariance + 2 * knownVariance;
  const se = Math.sqrt(total);
  // Welch-Satterthwaite would give the drift term infinite df, as if it were known exactly, and so
  // raise the df above the cells' own: adding drift could then make a verdict more confident. The
  // drift is a rough figure (a default or an estimate from a few dozen cells), so it widens the
  // interval but never adds degrees of freedom.
  const estimated = sa.d + sb.d;
  const df = estimated > 0 ? (estimated + 2 * knownVariance) ** 2 / ((sa.d ** 2) / sa.df + (sb.d ** 2) / sb.df) : Infinity;
  return { meanA: a.estimate, meanB: b.estimate, se, df };
}
