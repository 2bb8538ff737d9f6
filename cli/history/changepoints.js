// Where a series of estimates shifted. Each point is a log rate y with its variance v: the point's
// own interval (over processes) plus the drift between runs (series.js). Binary segmentation on
// those weights: in a segment, every split into a left and a right part gets the z statistic of
// the difference of their inverse-variance weighted means; the split with the largest |z| is a
// change point when that |z| is rare for this segment without a shift, judged against NULL_DRAWS
// simulated segments with the same variances (so the many splits tried are accounted for exactly,
// where a Bonferroni bound would be several times too strict); then both parts are searched
// again. A point with a wide interval counts for little, a precise one for much, which is what
// using each point's interval buys over methods that see only the estimates. bench/history-figures.js
// compares this with E-divisive means, a fixed test against the previous run and the Bonferroni
// bound on simulated series; docs/history.md has the figures.
//
// Runs scatter more than their intervals and the 1% drift say on some hosts and in some weeks (a
// kernel update, a noisy neighbour). That excess is estimated from the series itself, robustly:
// the successive differences of a series without a shift are N(0, v_i + v_(i+1) + 2 extra²), so
// `extra` is the smallest value that brings the median of their squared z values to the median of
// a chi-square with one degree of freedom. A shift moves one difference only, so a few of them
// hardly move the median. Without this, a host noisier than its intervals would show change points
// everywhere.
import { median, bisect, t975 } from '../stats/basic.js';
import { tTwoSidedP } from '../stats/distributions.js';
import { prng } from '../stats/random.js';

export const ALPHA = 0.05;
// The fewest points on each side of a change point. With one, the newest run alone can reveal a
// large regression (a 15% slowdown in the newest of 30 runs is found 95% of the time); on
// simulated series it made no more false change points than two (docs/history.md).
export const MIN_SEGMENT = 1;
export const NULL_DRAWS = 199;
export const Z95 = t975(Infinity);
const CHI2_1_MEDIAN = 0.454936423119572;
const MAX_EXTRA = 1;

// The excess spread of the series beyond its points' variances, as a standard deviation on the log
// scale (0.01 = 1%), from its successive differences; 0 for fewer than 4 points (the median of two
// differences is their mean, which one shift moves as much as any scatter).
export function extraSpread(points) {
  if (points.length < 4) return 0;
  const diffs = points.slice(1).map((p, i) => ({ d2: (p.y - points[i].y) ** 2, v: p.v + points[i].v }));
  const medianZ2 = (extra) => median(diffs.map(({ d2, v }) => d2 / (v + 2 * extra * extra)));
  if (medianZ2(0) <= CHI2_1_MEDIAN) return 0;
  if (medianZ2(MAX_EXTRA) > CHI2_1_MEDIAN) return MAX_EXTRA;
  return bisect((extra) => medianZ2(extra) > CHI2_1_MEDIAN, 0, MAX_EXTRA).hi;
}

// The split of ys[a, b) (weights ws) into [a, k) and [k, b) with the largest |z|: { k, z }, or
// null when the segment is too short to split.
function largestSplit(ys, ws, a, b, minSegment) {
  let totalW = 0;
  let totalWY = 0;
  for (let i = a; i < b; i++) {
    totalW += ws[i];
    totalWY += ws[i] * ys[i];
  }
  let leftW = 0;
  let leftWY = 0;
  let best = null;
  for (let k = a + 1; k <= b - minSegment; k++) {
    leftW += ws[k - 1];
    leftWY += ws[k - 1] * ys[k - 1];
    if (k - a < minSegment) continue;
    const rightW = totalW - leftW;
    const z = ((totalWY - leftWY) / rightW - leftWY / leftW) / Math.sqrt(1 / leftW + 1 / rightW);
    if (!best || Math.abs(z) > Math.abs(best.z)) best = { k, z };
  }
  return best;
}

// How often a segment with these weights and no shift has a largest |z| of at least `observed`:
// a Monte Carlo p-value over `draws` simulated segments (seeded by the segment, so a series always
// gives the same answer). Stops as soon as the answer cannot be below alpha. draws 0: the
// Bonferroni bound over the splits instead.
// A search over many series needs p-values below what the draws can resolve (analysis.js judges
// the series at one false discovery rate): when no draw reaches `observed`, the Bonferroni bound,
// which is never below the exact p-value, says how far below it is.
function nullP(ws, a, b, minSegment, observed, { alpha, draws }) {
  const bound = Math.min(1, tTwoSidedP(observed, Infinity) * (b - a - 2 * minSegment + 1));
  if (!draws) return bound;
  const random = prng(0x5eed + 7919 * a + b);
  const normal = () => {
    let u = 0;
    while (!u) u = random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  };
  const ys = new Float64Array(b);
  let beaten = 0;
  for (let d = 0; d < draws; d++) {
    for (let i = a; i < b; i++) ys[i] = normal() / Math.sqrt(ws[i]);
    if (Math.abs(largestSplit(ys, ws, a, b, minSegment).z) >= observed) beaten++;
    // Only once a draw has beaten it: with none, the answer may still be the bound below (a level
    // under 1 / (draws + 1), one series selected of 21, then never found a 2x change).
    if (beaten && (beaten + 1) / (draws + 1) >= alpha) return (beaten + 1) / (d + 2);
  }
  return beaten ? (beaten + 1) / (draws + 1) : Math.min(1 / (draws + 1), bound);
}

const segmentMean = (ys, ws, a, b) => {
  let w = 0;
  let wy = 0;
  for (let i = a; i < b; i++) {
    w += ws[i];
    wy += ws[i] * ys[i];
  }
  return { w, mean: wy / w };
};

const weightsOf = (points, extra) => points.map((p) => 1 / (p.v + extra * extra));

// The p-value of the largest split of the whole series (the search's first step; 1 when the series
// is too short to split): what analysis.js ranks series by, to judge them at one false discovery rate.
export function firstSplitP(points, { alpha = ALPHA, minSegment = MIN_SEGMENT, draws = NULL_DRAWS, extra = extraSpread(points) } = {}) {
  const ys = points.map((p) => p.y);
  const ws = weightsOf(points, extra);
  const split = largestSplit(ys, ws, 0, points.length, minSegment);
  return split ? nullP(ws, 0, points.length, minSegment, Math.abs(split.z), { alpha, draws }) : 1;
}

// points: [{ y, v }] in series order. Returns { extra, changes: [{ index (the first point after the
// change), ratio (exp of the right segment's mean minus the left's: > 1 faster), low, high (its 95%
// interval), p (of the search that found it), before: [a, index), after: [index, b) (the segments
// either side) }] }.
export function changePoints(points, { alpha = ALPHA, minSegment = MIN_SEGMENT, draws = NULL_DRAWS, extra = extraSpread(points) } = {}) {
  const ys = points.map((p) => p.y);
  const ws = weightsOf(points, extra);
  const found = new Map();
  const search = (a, b) => {
    const split = largestSplit(ys, ws, a, b, minSegment);
    if (!split) return;
    const p = nullP(ws, a, b, minSegment, Math.abs(split.z), { alpha, draws });
    if (!(p < alpha)) return;
    found.set(split.k, p);
    search(a, split.k);
    search(split.k, b);
  };
  search(0, points.length);
  const cuts = [...found.keys()].sort((x, y) => x - y);
  const bounds = [0, ...cuts, points.length];
  const changes = cuts.map((index, i) => {
    const [a, b] = [bounds[i], bounds[i + 2]];
    const left = segmentMean(ys, ws, a, index);
    const right = segmentMean(ys, ws, index, b);
    const diff = right.mean - left.mean;
    const se = Math.sqrt(1 / left.w + 1 / right.w);
    return { index, ratio: Math.exp(diff), low: Math.exp(diff - Z95 * se), high: Math.exp(diff + Z95 * se), p: found.get(index), before: [a, index], after: [index, b] };
  });
  return { extra, changes };
}
