// How far separate runs of a history drift apart, estimated from the store's own runs as `diff`
// estimates it between two files (stats/drift-estimate.js): from cells that ran the same runtime
// and flags in two consecutive runs, each pair of runs' log ratios centred on their suite's median
// (a shift every benchmark of a suite shares is not drift), then the drift per side that brings the
// median p-value of "no change" to one half, a second pass without the cells that look really
// changed. A fixed 1% was too little on a noisy host: two default matrices of one commit 25 minutes
// apart drifted 6-12% per suite, and `history check --by date` failed 9 benchmarks on that unchanged
// code (issue 39).
//
// What the index keeps of a cell is its estimate and 95% interval, so a pair's standard error is
// the intervals' (read with their own degrees of freedom, entry.js), not diff's Yuen test over the
// processes; the rules around the estimate are diff's: a suite with AUTO_MIN_SUITE_CELLS pairs gets
// its own, the others the estimate pooled over the host's suites, fewer than AUTO_MIN_CELLS pairs
// the 1% default, and never below AUTO_FLOOR. As in diff, the shift a whole suite shares between
// two runs is not drift but may be the host's (a gate-trial pair ran 18.7% slower throughout while
// the reference loop read the same host, issue 36): a suite's drift is at least the median of its
// consecutive runs' |shift| / √2, so a host that keeps shifting between runs widens every point, and
// one shift among many runs (a real change of the whole suite) does not move the median. A suite
// with fewer than SHIFT_MIN_SUITE_CELLS cells in a pair of runs takes that pair's shift over all
// its cells instead (sharedShiftOf), as diff does: its own median would be its own change. Cells
// whose processes all ran on a disturbed machine are left out, as diff leaves them out.
import { driftFromPValues, shiftAllowanceOf, sharedShiftOf, AUTO_FLOOR, AUTO_MIN_CELLS, AUTO_MIN_SUITE_CELLS } from '../stats/drift-estimate.js';
import { INVOCATION_DRIFT } from '../stats/drift.js';
import { median, t975 } from '../stats/basic.js';

// The standard error of a cell's log rate and its degrees of freedom, from its t interval.
function logSpread(cell) {
  if (!(cell.df > 0) || !(cell.low > 0) || !(cell.high > cell.low)) return null;
  return { variance: (Math.log(cell.high / cell.low) / (2 * t975(cell.df))) ** 2, df: cell.df };
}

// Welch-Satterthwaite degrees of freedom of the difference of two estimates.
const welchDf = (a, b) => (a.variance + b.variance) ** 2 / (a.variance ** 2 / a.df + b.variance ** 2 / b.df);

// cells: every cell of the store as series.js selectCells gives it ({ entry, cell, params, flags }).
// Returns { driftFor(host, suite), byHost: Map(host -> { pairs, pooled, tooFew, bySuite: Map(suite ->
// { pairs, estimate (own, or null when pooled), shifts (pairs of runs), medianLogShift (the median
// of their |log shift|; diff's `shift` is a ratio), shiftAllowance, used }) }) }.
export function storeDrift(cells) {
  const runsOf = new Map();
  for (const { entry, cell, params, flags } of cells) {
    // Counts do not drift with the host (series.js gives them their repeatability instead).
    if (cell.status !== 'ok' || (cell.measure && cell.measure !== 'time') || cell.disturbance) continue;
    const spread = logSpread(cell);
    if (!spread) continue;
    const key = JSON.stringify([cell.host, cell.suite, params, cell.benchmark, cell.flagSet, flags, cell.runtime]);
    if (!runsOf.has(key)) runsOf.set(key, []);
    runsOf.get(key).push({ entry, cell, spread });
  }
  // The log ratios of consecutive runs, grouped by host, suite and the two runs: each group is
  // centred on its own median, as diff centres each suite of its two files.
  const groups = new Map();
  for (const runs of runsOf.values()) {
    runs.sort((a, b) => (a.entry.createdAt < b.entry.createdAt ? -1 : a.entry.createdAt > b.entry.createdAt ? 1 : 0));
    for (let i = 1; i < runs.length; i++) {
      const [a, b] = [runs[i - 1], runs[i]];
      const key = JSON.stringify([a.cell.host, a.cell.suite, a.entry.id, b.entry.id]);
      if (!groups.has(key)) groups.set(key, { host: a.cell.host, suite: a.cell.suite, runs: [a.entry.id, b.entry.id], items: [] });
      groups.get(key).items.push({ logRatio: Math.log(b.cell.opsPerSec / a.cell.opsPerSec), variance: a.spread.variance + b.spread.variance, df: welchDf(a.spread, b.spread) });
    }
  }
  // Each pair of runs' shift over all its cells, for the suites too small to have one of their own.
  const pairItems = new Map();
  for (const { host, runs, items } of groups.values()) {
    const key = JSON.stringify([host, ...runs]);
    if (!pairItems.has(key)) pairItems.set(key, []);
    pairItems.get(key).push(...items);
  }
  const pairShift = new Map([...pairItems].map(([key, items]) => [key, median(items.map((i) => i.logRatio))]));
  const byHost = new Map();
  const shiftsOf = new Map();
  for (const { host, suite, runs, items } of groups.values()) {
    const shift = median(items.map((i) => i.logRatio));
    if (!byHost.has(host)) byHost.set(host, new Map());
    const suites = byHost.get(host);
    if (!suites.has(suite)) suites.set(suite, []);
    suites.get(suite).push(...items.map((i) => ({ ...i, logRatio: i.logRatio - shift })));
    const key = JSON.stringify([host, suite]);
    if (!shiftsOf.has(key)) shiftsOf.set(key, []);
    shiftsOf.get(key).push(Math.abs(sharedShiftOf(shift, items.length, pairShift.get(JSON.stringify([host, ...runs]))).shift));
  }
  const estimates = new Map([...byHost].map(([host, suites]) => {
    const all = [...suites.values()].flat();
    const tooFew = all.length < AUTO_MIN_CELLS;
    const pooled = tooFew ? Math.max(AUTO_FLOOR, INVOCATION_DRIFT) : Math.max(AUTO_FLOOR, driftFromPValues(all));
    const bySuite = new Map([...suites].map(([suite, items]) => {
      const estimate = items.length >= AUTO_MIN_SUITE_CELLS ? driftFromPValues(items) : null;
      const scatter = estimate === null ? pooled : Math.max(AUTO_FLOOR, estimate);
      const shifts = shiftsOf.get(JSON.stringify([host, suite]));
      const medianLogShift = median(shifts);
      // Like diff, only where the pairs are enough to estimate anything from at all.
      const shiftAllowance = tooFew ? 0 : shiftAllowanceOf(medianLogShift);
      return [suite, { pairs: items.length, estimate, shifts: shifts.length, medianLogShift, shiftAllowance, used: Math.max(scatter, shiftAllowance) }];
    }));
    return [host, { pairs: all.length, pooled, tooFew, bySuite }];
  }));
  // A host whose runs share no cell (one run, say) has nothing to estimate from: the 1% default.
  const driftFor = (host, suite) => {
    const own = estimates.get(host);
    return own ? (own.bySuite.get(suite)?.used ?? own.pooled) : Math.max(AUTO_FLOOR, INVOCATION_DRIFT);
  };
  return { driftFor, byHost: estimates };
}

const pct = (x) => `${(x * 100).toFixed(1)}%`;

// In words, per host: the drift each suite's points were widened by, and what it came from.
export function describeStoreDrift({ byHost }) {
  if (!byHost.size) return `drift between runs: ${pct(Math.max(AUTO_FLOOR, INVOCATION_DRIFT))} per side (the default: no two runs of the store measured the same runtime and flags to estimate it from)`;
  return [...byHost].map(([host, h]) => {
    const where = byHost.size > 1 ? ` on host ${host}` : '';
    if (h.tooFew) return `drift between runs${where}: ${pct(h.pooled)} per side (the default: only ${h.pairs} cells measured the same runtime and flags in consecutive runs, fewer than the ${AUTO_MIN_CELLS} an estimate needs)`;
    const why = (s) => (s.used === s.shiftAllowance && s.shiftAllowance > 0
      ? ` (its median shared shift between consecutive runs, ${Math.exp(s.medianLogShift).toFixed(2)}x either way, / √2)`
      : s.estimate === null ? ' (pooled)' : '');
    const suites = [...h.bySuite].map(([suite, s]) => `${suite} ${pct(s.used)}${why(s)}`);
    return `drift between runs${where}, per side, estimated as diff does from ${h.pairs} cells that measured the same runtime and flags in consecutive runs (never below ${pct(AUTO_FLOOR)} nor below a suite's median shared shift / √2): ${suites.join(', ')}`;
  }).join('\n');
}
