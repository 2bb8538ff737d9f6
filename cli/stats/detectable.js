// The smallest change a run could have detected (its minimum detectable effect), said once per run
// beside its verdicts: "undecided" is only informative next to how large a change would have been
// decided. Two views, both from the intervals the tables show:
//   ratios  each ratio to its row's baseline column (report/columns.js grid: paired ratios);
//   rerun   each cell against a rerun of the same precision (what `nodebench diff` of this file and
//           an equally precise one faces: both sides' error, so √2 times a cell's log half-width;
//           diff's drift allowance, 1% per side by default, comes on top and is not counted here).
// A change is detected with 80% power by one comparison judged alone at a two-sided 5% when it is
// (t(0.975) + t(0.8)) standard errors: the 95% half-width h times 1 + t(0.8)/t(0.975). That ratio of
// quantiles grows with df towards the normal's 0.8416/1.96 = 0.429, which is used for every df:
// never smaller than the exact figure for the df of these intervals. Judged with many others at one
// false discovery rate, a change must be somewhat larger. "Same within ±equivalence" can be reached
// for an unchanged comparison when the 90% interval's half-width, h × 1.645/1.96, fits the band.
import { median, quantile } from './basic.js';
import { EQUIVALENCE } from './decision.js';

const POWER_FACTOR = 1 + 0.8416212335729143 / 1.959963984540054;
const TOST_FACTOR = 1.6448536269514722 / 1.959963984540054;
export const DETECTABLE_POWER = 0.8;

// The equivalence band as shown: ±2%.
const bandText = (equivalence) => `±${+(equivalence * 100).toFixed(2)}%`;

// Log half-width of a 95% interval given as a ± percentage of its estimate (summary.rme).
const halfFromRme = (rme) => Math.log(1 + rme / 100);
const halfFromInterval = ({ low, high }) => (Math.log(high) - Math.log(low)) / 2;

function figures(halves, equivalence) {
  const finite = halves.filter((h) => Number.isFinite(h) && h >= 0);
  if (!finite.length) return null;
  const pct = (h) => +((Math.exp(h * POWER_FACTOR) - 1) * 100).toFixed(2);
  return {
    comparisons: finite.length,
    medianPct: pct(median(finite)),
    p90Pct: pct(quantile(finite, 0.9)),
    sameReachable: finite.filter((h) => h * TOST_FACTOR <= Math.log(1 + equivalence)).length
  };
}

// tables: report/columns.js grid(result) (each ok value's ratioComparison: { low, high }); cells: the
// result's cells. Returns { power, alpha, equivalence, ratios, rerun, method } (ratios or rerun null
// when there is nothing to compare).
export function detectableChange(tables, cells, { equivalence = EQUIVALENCE } = {}) {
  const ratios = tables.flatMap((t) => t.rows.flatMap((r) => r.values))
    .map((v) => v.ratioComparison).filter((c) => c && c.low > 0 && c.high > 0).map(halfFromInterval);
  const rerun = cells.filter((c) => c.status === 'ok' && Number.isFinite(c.summary?.rme)).map((c) => Math.SQRT2 * halfFromRme(c.summary.rme));
  return {
    power: DETECTABLE_POWER,
    alpha: 0.05,
    equivalence,
    ratios: figures(ratios, equivalence),
    rerun: figures(rerun, equivalence),
    method: 'a change of (t(0.975) + t(0.8)) standard errors, 95% half-width x (1 + 0.8416/1.96), each comparison judged alone; rerun: a cell against an equally precise rerun (√2 x its half-width, diff\'s drift allowance not counted); same reachable: the 90% half-width (x 1.645/1.96) within the band'
  };
}

// The same for the comparisons of a diff (each { ci: { low, high } }, drift included in their
// intervals): { power, alpha, equivalence, compared } or null with nothing compared.
export function detectableInComparisons(comparisons, { equivalence = EQUIVALENCE } = {}) {
  const compared = figures(comparisons.filter((c) => c && c.ci?.low > 0 && c.ci?.high > 0).map((c) => halfFromInterval(c.ci)), equivalence);
  return compared ? { power: DETECTABLE_POWER, alpha: 0.05, equivalence, compared } : null;
}

// What "undecided" means for a diff, in one sentence (null when nothing is undecided).
export function describeUndecided(detectable, undecided) {
  if (!detectable || !undecided) return null;
  const c = detectable.compared;
  const band = bandText(detectable.equivalence);
  return `${undecided} undecided: at these intervals a change of ${c.medianPct.toFixed(1)}% is decided ${Math.round(detectable.power * 100)}% of the time (median over ${c.comparisons} comparisons, each judged alone; ${c.p90Pct.toFixed(1)}% for the 90th percentile), and "same within ${band}" is reachable for ${c.sameReachable} of ${c.comparisons}; more processes per cell narrow an interval by about 1/√processes, a quieter machine more (nodebench doctor says how precise this one is)`;
}

// One sentence for a report, or null when the run has nothing to say it about.
export function describeDetectable(detectable) {
  if (!detectable || (!detectable.ratios && !detectable.rerun)) return null;
  const band = bandText(detectable.equivalence);
  const parts = [];
  if (detectable.ratios) {
    const r = detectable.ratios;
    parts.push(`a ratio to the baseline column changed by ${r.medianPct.toFixed(1)}% (median over ${r.comparisons}; ${r.p90Pct.toFixed(1)}% for the 90th percentile), "same within ${band}" reachable for ${r.sameReachable} of ${r.comparisons}`);
  }
  if (detectable.rerun) {
    const r = detectable.rerun;
    parts.push(`a cell against an equally precise rerun changed by ${r.medianPct.toFixed(1)}% (median over ${r.comparisons} cells; ${r.p90Pct.toFixed(1)}% p90), "same" reachable for ${r.sameReachable} of ${r.comparisons}`);
  }
  return `smallest change this run detects ${Math.round(detectable.power * 100)}% of the time (each comparison alone, 5% two-sided): ${parts.join('; ')}`;
}
