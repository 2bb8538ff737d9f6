// `diff --drift auto`: how far two separate runs drifted apart, read from the two files themselves.
// A CI runner's drift between a pull request's run and main's is not the 1% of the machine the
// default was measured on (5% per side on a disturbed host, measured 2026-11-23), and it
// varies by suite (the gc suite moves most).
//
// Drift here is what scatters cells of one suite apart beyond their own intervals: one cell's run
// hit a slow minute, another's a fast one. So each cell's log ratio is first centred on its suite's
// median log ratio for the estimate. A shift that every cell of a suite shares (the code got slower
// everywhere, or the whole run was slower) cannot be told apart between two separate runs of the same
// binary: the host may have made it. It is an allowance of its own (shiftAllowanceOf): the drift
// used per side is at least |median log ratio| / √2, so that the two sides' drift together is the
// shift, and a cell is decided only where it moved well beyond it. A suite of fewer than
// SHIFT_MIN_SUITE_CELLS cells has no shared shift of its own to speak of (in a suite of one cell,
// the median is that cell's own change, which the allowance would then never decide): it takes the
// median over every cell of the two files, the shift a host would have given all suites. Why: an A/A pair of
// bench/verdicts.js's gate trials (2026-11-28, two valgrind processes beside) ran 18.7% slower in
// B for every benchmark of the suite while the reference loop read the same host (memory
// contention, which a loop of clock reads does not feel); taken as "staying in the verdicts", it
// failed the gate on 6 of 18 unchanged benchmarks. Then, for cells with no real change, log ratio ~ t(0, se² + 2·drift²) with se the
// cell pair's own standard error, so their two-sided p-values are uniform: the drift is the
// smallest value that brings the median p-value to 0.5 (0 when it already is). A second pass
// leaves out the cells that look really changed (p < 0.01 at the first estimate) and solves for
// the median of a uniform on [0.01, 1], so that a minority of real changes raises the estimate
// little (they still raise it some; half of the cells changed breaks it).
// The estimate is never below AUTO_FLOOR, the 1% drift per side measured between invocations on a
// quiet machine (stats/drift.js): a pair of files that happen to scatter little gets no less. The
// cost: "same within ±2%" is out of reach between two files however many processes a cell has (the
// 90% half-width of the difference is at least 1.645 x 1.41% = 2.3%); give --equivalence 3 for that.
// (With a 0.5% floor, the default until 2026-11-27, two default matrices of one commit 25 minutes
// apart failed the gate on unchanged code.) Simulated over 30 pairs of 140-cell files (8-15
// processes, 1-2% process spread, a true drift of 0-0.8% per side, 14 cells changed by exactly
// 2%): the estimate came out at or above the true drift (0.0064 median for 0.005, 0.0089 for
// 0.008: cells with a chance-small interval push it up), and the 2% changes were called "same"
// 0-0.2% of the time; unchanged cells were "same" 78-94% at a drift of 0-0.3% and 15 processes
// (test/drift-estimate.test.js keeps a smaller version of this).
import { compareCells } from './compare.js';
import { median, bisect } from './basic.js';
import { tTwoSidedP } from './distributions.js';
import { INVOCATION_DRIFT } from './drift.js';

// The least drift per side --drift auto allows, however quiet the two files look.
export const AUTO_FLOOR = INVOCATION_DRIFT;

// Cells needed for a pooled estimate, and for a suite to get its own: the median of n p-values
// scatters about 0.5/sqrt(n), so 10 cells give an estimate within roughly ±40%, 20 within ±30%.
export const AUTO_MIN_CELLS = 10;
export const AUTO_MIN_SUITE_CELLS = 20;
// Above this, an estimated drift more likely means very noisy runs or changes the centring cannot
// take out (cells of one suite that moved in different directions).
export const IMPLAUSIBLE_DRIFT = 0.1;
// Cells a suite needs for its median log ratio to be a shift it shares, not the change of one or
// two of its benchmarks: with 5, a change in at most 2 of them leaves the median inside the others.
export const SHIFT_MIN_SUITE_CELLS = 5;
const MAX_DRIFT = 1;
const CHANGED_P = 0.01;

function pValue({ logRatio, variance, df }, drift) {
  const total = variance + 2 * drift * drift;
  if (total <= 0) return logRatio === 0 ? 1 : 0;
  // Under the model the drift is a known normal term, so the statistic's df grows with its share
  // (Welch-Satterthwaite); with the cell's own small df the p-values would come out too large and
  // the drift too small. (The verdicts keep the cell's df, to stay on the cautious side.)
  const dof = variance > 0 ? df * (total / variance) ** 2 : Infinity;
  return tTwoSidedP(logRatio / Math.sqrt(total), dof);
}

const medianP = (items, drift) => median(items.map((item) => pValue(item, drift)).filter((p) => !Number.isNaN(p)));

// The smallest drift that brings the median p-value of `items` to `target`.
export function solveMedianP(items, target) {
  if (medianP(items, 0) >= target) return 0;
  if (medianP(items, MAX_DRIFT) < target) return MAX_DRIFT;
  return bisect((drift) => medianP(items, drift) < target, 0, MAX_DRIFT).hi;
}

// items: [{ logRatio, variance, df }], already centred. The drift per side, as a fraction of the
// rate (before any floor).
export function driftFromPValues(items) {
  const usable = items.filter((i) => Number.isFinite(i.logRatio) && Number.isFinite(i.variance) && i.variance >= 0);
  if (!usable.length) return 0;
  const first = solveMedianP(usable, 0.5);
  const unchanged = usable.filter((item) => pValue(item, first) >= CHANGED_P);
  if (unchanged.length < usable.length / 2 || unchanged.length === usable.length) return first;
  return solveMedianP(unchanged, (1 + CHANGED_P) / 2);
}

// The drift per side that a suite's shared shift (a log ratio) stands for: both sides together
// make the whole shift (2·drift² = shift²).
export const shiftAllowanceOf = (logShift) => Math.abs(logShift) / Math.SQRT2;

// The shared log shift a suite's allowance stands on: its own median where it has
// SHIFT_MIN_SUITE_CELLS cells, else the median over all cells (`overall`). { shift, from: 'suite' | 'all' }.
export const sharedShiftOf = (ownShift, ownCells, overall) => (ownCells >= SHIFT_MIN_SUITE_CELLS ? { shift: ownShift, from: 'suite' } : { shift: overall, from: 'all' });

const centred = (items) => {
  const shift = median(items.map((i) => i.logRatio));
  return { shift, items: items.map((i) => ({ ...i, logRatio: i.logRatio - shift })) };
};

// pairs: [{ a, b }] of ok cells measured in two separate runs; priorsA, priorsB: each file's suite
// variance priors (as diff uses them). Cells of a single process are left out: their sample-level
// standard error says nothing about the spread between runs.
// Returns {
//   cells, floor, fallback, tooFew (fewer than AUTO_MIN_CELLS: fallback, the 1% default, is used),
//   pooled (the estimate over all cells, each centred on its suite, raised to floor),
//   bySuite: Map(suite -> { cells, shift (median rate ratio B/A), estimate (own, before the floor,
//            or null under AUTO_MIN_SUITE_CELLS), shiftAllowance (from the suite's shift, or under
//            SHIFT_MIN_SUITE_CELLS all cells' one: shiftFrom 'suite' or 'all'), used (what the
//            comparisons get) }),
//   driftFor(suite) }.
export function estimateDrift(pairs, { priorsA = new Map(), priorsB = new Map(), floor = AUTO_FLOOR, fallback = INVOCATION_DRIFT } = {}) {
  const items = [];
  for (const { a, b } of pairs) {
    const c = compareCells(a, b, { driftCv: 0, selection: false, priorA: priorsA.get(a.suite), priorB: priorsB.get(b.suite) });
    if (c.singleProcess || c.disturbedOnly || !(c.ratio > 0)) continue;
    // ratio is B's rate over A's; the log ratio's sign does not matter to a two-sided p-value.
    items.push({ suite: a.suite, logRatio: Math.log(c.ratio), variance: c.se * c.se, df: c.df });
  }
  const suites = [...new Set(items.map((i) => i.suite))];
  const centredBySuite = new Map(suites.map((suite) => [suite, centred(items.filter((i) => i.suite === suite))]));
  const tooFew = items.length < AUTO_MIN_CELLS;
  const pooled = tooFew ? Math.max(floor, fallback) : Math.max(floor, driftFromPValues([...centredBySuite.values()].flatMap((c) => c.items)));
  const overall = items.length ? median(items.map((i) => i.logRatio)) : 0;
  const bySuite = new Map();
  for (const [suite, { shift, items: own }] of centredBySuite) {
    const estimate = own.length >= AUTO_MIN_SUITE_CELLS ? driftFromPValues(own) : null;
    const scatter = estimate === null ? pooled : Math.max(floor, estimate);
    const shared = sharedShiftOf(shift, own.length, overall);
    const shiftAllowance = tooFew ? 0 : shiftAllowanceOf(shared.shift);
    bySuite.set(suite, { cells: own.length, shift: Math.exp(shift), estimate, shiftAllowance, shiftFrom: shared.from, used: Math.max(scatter, shiftAllowance) });
  }
  return { cells: items.length, floor, fallback, tooFew, pooled, bySuite, driftFor: (suite) => bySuite.get(suite)?.used ?? pooled };
}

const pct = (x) => `${(x * 100).toFixed(1)}%`;
const signedPct = (ratio) => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)}%`;

// Lines for people: what was estimated, the shift every suite's median cell made (allowed for, as
// the host may have made it), and a warning when an estimate is implausibly large.
export function describeDrift(estimate) {
  if (estimate.tooFew) {
    return [`drift between the runs: only ${estimate.cells} cells measured in several processes of the same runtime and flags in both files, fewer than the ${AUTO_MIN_CELLS} an estimate needs; the default ${pct(Math.max(estimate.floor, estimate.fallback ?? estimate.floor))} drift per side is used`];
  }
  const suites = [...estimate.bySuite];
  const fromShift = (s) => s.shiftAllowance > Math.max(s.estimate ?? estimate.pooled, estimate.floor);
  const byShift = ([, s]) => fromShift(s);
  const scattered = suites.filter((entry) => !byShift(entry));
  const parts = scattered.filter(([, s]) => s.estimate !== null).map(([suite, s]) => `${suite} ${pct(s.used)} (${s.cells} cells)`);
  const pooledSuites = scattered.filter(([, s]) => s.estimate === null).map(([suite]) => suite);
  if (pooledSuites.length) parts.push(`${pooledSuites.join(', ')} ${pct(estimate.pooled)} (pooled over all ${estimate.cells} cells)`);
  for (const [suite, s] of suites.filter(byShift)) parts.push(`${suite} ${pct(s.used)} (${s.shiftFrom === 'all' ? `the shift all cells share: its own ${s.cells} are too few to tell a shared shift` : 'its shared shift'})`);
  const lines = [`drift between the two runs estimated from the files (the default for two files; --drift N fixes it), per side, never below ${pct(estimate.floor)} nor below a suite's shared shift / √2: ${parts.join('; ')}`,
    `median change per suite: ${suites.map(([suite, s]) => `${suite} ${signedPct(s.shift)}`).join(', ')} (a shift every benchmark of a suite shares may be the host's between two runs: it is allowed for, and a benchmark is decided only beyond it; --confirm re-measures both sides interleaved, which tells the code from the host)`];
  if (suites.some(([, s]) => s.used > IMPLAUSIBLE_DRIFT)) {
    const why = suites.some(([, s]) => s.used > IMPLAUSIBLE_DRIFT && fromShift(s))
      ? 'a run that was slower or faster throughout, or code slower or faster everywhere, which two files cannot tell apart'
      : 'very noisy runs, or benchmarks of one suite that changed in different directions';
    lines.push(`note: a drift above ${pct(IMPLAUSIBLE_DRIFT)} means ${why}: between these files only large time changes can be decided; compare columns of one interleaved run, or count instructions (--measure instructions), which the host does not move.`);
  }
  return lines;
}
