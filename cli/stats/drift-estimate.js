// `diff --drift auto`: how far two separate runs drifted apart, read from the two files themselves.
// A CI runner's drift between a pull request's run and main's is not the 1% of the machine the
// default was measured on (docs/precision.md measured 5% per side on a disturbed host), and it
// varies by suite (the gc suite moves most). Model, per compared cell with no real change:
// log ratio ~ t(0, se² + 2·drift²), se being the cell pair's own standard error. Under that model
// the two-sided p-values of unchanged cells are uniform, so their median is 0.5; the drift is the
// smallest value that brings the median p-value back to 0.5 (0 when it already is). A median
// ignores the cells that really changed as long as they are fewer than half, which is what a gate
// on a pull request sees; a runtime upgrade where most benchmarks move is not such a case.
import { compareCells } from './compare.js';
import { median } from './basic.js';
import { tTwoSidedP } from './distributions.js';
import { INVOCATION_DRIFT } from './drift.js';

// Fewer cells than this give a median p-value too coarse to estimate from (and a suite with fewer
// uses the estimate pooled over all suites).
export const AUTO_MIN_CELLS = 10;
const MAX_DRIFT = 1;

function medianP(items, drift) {
  return median(items.map(({ logRatio, variance, df }) => {
    const total = variance + 2 * drift * drift;
    if (total <= 0) return logRatio === 0 ? 1 : 0;
    // Welch-Satterthwaite with the drift as a known variance: its df grows as the drift dominates.
    const dfTotal = variance > 0 ? df * (total / variance) ** 2 : Infinity;
    return tTwoSidedP(logRatio / Math.sqrt(total), Math.min(dfTotal, 1e6));
  }));
}

// items: [{ logRatio, variance, df }]. The drift per side, as a fraction of the rate.
export function driftFromPValues(items) {
  if (medianP(items, 0) >= 0.5) return 0;
  if (medianP(items, MAX_DRIFT) < 0.5) return MAX_DRIFT;
  let low = 0;
  let high = MAX_DRIFT;
  for (let i = 0; i < 60; i++) {
    const mid = (low + high) / 2;
    if (medianP(items, mid) < 0.5) low = mid;
    else high = mid;
  }
  return high;
}

// pairs: [{ a, b }] of ok cells measured in two separate runs; priorsA, priorsB: each file's suite
// variance priors (as diff uses them). Cells of a single process are left out: their sample-level
// standard error says nothing about the spread between runs.
// Returns { cells, pooled, bySuite: Map(suite -> { cells, estimate, used }), driftFor(suite) }, each
// estimate raised to `floor` (the default drift: fewer than ~30 cells cannot tell 1% from 0).
export function estimateDrift(pairs, { priorsA = new Map(), priorsB = new Map(), floor = INVOCATION_DRIFT } = {}) {
  const items = [];
  for (const { a, b } of pairs) {
    const c = compareCells(a, b, { driftCv: 0, priorA: priorsA.get(a.suite), priorB: priorsB.get(b.suite) });
    if (c.singleProcess) continue;
    items.push({ suite: a.suite, logRatio: Math.log(c.ratio), variance: c.se * c.se, df: c.df });
  }
  const pooled = items.length >= AUTO_MIN_CELLS ? Math.max(floor, driftFromPValues(items)) : null;
  const bySuite = new Map();
  for (const suite of new Set(items.map((i) => i.suite))) {
    const own = items.filter((i) => i.suite === suite);
    const enough = own.length >= AUTO_MIN_CELLS;
    bySuite.set(suite, { cells: own.length, estimate: enough ? driftFromPValues(own) : null, used: enough ? Math.max(floor, driftFromPValues(own)) : pooled });
  }
  return {
    cells: items.length,
    pooled,
    bySuite,
    driftFor: (suite) => bySuite.get(suite)?.used ?? pooled ?? floor
  };
}

// One line for people: "drift between the two runs, estimated from 54 cells: 3.1% per side (gc
// 8.2% from 12 cells; other suites pooled)".
export function describeDrift(estimate) {
  const pct = (x) => `${(x * 100).toFixed(1)}%`;
  const own = [...estimate.bySuite].filter(([, s]) => s.estimate !== null);
  const parts = own.map(([suite, s]) => `${suite} ${pct(s.used)} from ${s.cells} cells`);
  const pooledSuites = [...estimate.bySuite].filter(([, s]) => s.estimate === null).map(([suite]) => suite);
  if (pooledSuites.length) parts.push(`${pooledSuites.join(', ')} ${pct(estimate.pooled)} pooled over all ${estimate.cells}`);
  return `drift between the two runs estimated from the files (--drift auto): ${parts.join('; ')} per side`;
}
