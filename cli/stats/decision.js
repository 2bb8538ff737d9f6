// What "decided" means, in one place: diff, its gate, the tables' ratios and the launch policy (which
// spends processes on comparisons not yet decided) all ask this file.
//   faster / slower  the change is a discovery: its q-value (its p-value adjusted for the other
//                    comparisons of the same view, stats/fdr.js) is below alpha;
//   same             the change is inside ±equivalence (2% by default) by Schuirmann's two one-sided
//                    tests at alpha each: the (1 - 2 alpha) = 90% interval of the ratio lies inside
//                    the band. A change of exactly ±2% is called "same" at most alpha (5%) of the
//                    time, a larger one less often (test/verdicts.test.js simulates it). The 90%
//                    interval is the 95% one narrowed by t(0.95, df) / t(0.975, df) on the log
//                    scale; without df, by the normal quantiles' 1.645 / 1.96, which is narrower
//                    than the t ratio at any df (0.74 at df 3, 0.81 at 10), so never too lenient;
//   undecided        neither: the interval holds no change and changes beyond ±equivalence. Never
//                    "no change": the evidence is not there either way.
// "same" is asked first: a change of 0.5% that the test finds significant is still the same within
// ±2%, which is the question a reader of that verdict asked.
import { qValues, FDR_METHODS } from './fdr.js';
import { tQuantile } from './distributions.js';

export const ALPHA = 0.05;
export const EQUIVALENCE = 0.02;
export const FDR_METHOD = 'bh';
export const DECISIONS = ['faster', 'slower', 'same', 'undecided'];

// The normal quantiles: their ratio is the t quantiles' limit, and an upper bound of it at any df.
const Z95 = 1.6448536269514722;
const Z975 = 1.959963984540054;

// The interval two one-sided tests at `alpha` each use: { low, high } at level 1 - 2 alpha, from the
// 95% interval (low95, high95) around `ratio` (symmetric on the log scale, as compare.js and
// robust.js make them), with the t quantiles of `df` when known.
export function equivalenceInterval({ ratio, low, high, df }, alpha = ALPHA) {
  const scale = Number.isFinite(df) && df > 0
    ? tQuantile(1 - alpha, df) / tQuantile(0.975, df)
    : quantileRatio(alpha);
  const center = Math.log(ratio);
  return { low: Math.exp(center - (center - Math.log(low)) * scale), high: Math.exp(center + (Math.log(high) - center) * scale) };
}
function quantileRatio(alpha) {
  return alpha === ALPHA ? Z95 / Z975 : tQuantile(1 - alpha, 1e6) / Z975;
}

// comparison: { ratio, low, high, q, df? } (ratio of rates B/A, its 95% interval, its adjusted
// p-value, the interval's degrees of freedom when known; a comparison judged alone uses its
// p-value). Pure: the launch policy calls it per comparison.
export function decide({ ratio, low, high, q, df }, { equivalence = EQUIVALENCE, alpha = ALPHA } = {}) {
  const band = ratio > 0 && Number.isFinite(low) && Number.isFinite(high) ? equivalenceInterval({ ratio, low, high, df }, alpha) : { low, high };
  if (band.low >= 1 - equivalence && band.high <= 1 + equivalence) return 'same';
  if (q < alpha && Number.isFinite(ratio) && ratio !== 1) return ratio > 1 ? 'faster' : 'slower';
  return 'undecided';
}

export const isDecided = (verdict) => verdict !== 'undecided';

// The words a view prints under its verdicts (and its JSON carries as `method`).
export function describeVerdicts({ comparisons, alpha = ALPHA, equivalence = EQUIVALENCE, method = FDR_METHOD }) {
  return `faster/slower at a ${alpha * 100}% false discovery rate over ${comparisons} comparison${comparisons === 1 ? '' : 's'} (${FDR_METHODS[method].name} q-values); same: the ${100 - 2 * alpha * 100}% interval within ±${+(equivalence * 100).toFixed(2)}% (two one-sided tests at ${alpha * 100}%); undecided: neither`;
}

// Judges a family of comparisons together. items: [{ ratio, low, high, p, df?, weight? }] (null entries
// are skipped; weights, when every item has one, as in stats/fdr.js). Returns { judged: [{ q,
// verdict }] aligned with items (null where the item was null), summary: { method, alpha,
// equivalence, comparisons, text } }.
export function judgeAll(items, { alpha = ALPHA, equivalence = EQUIVALENCE, method = FDR_METHOD } = {}) {
  const present = items.filter(Boolean);
  const weighted = present.length > 0 && present.every((c) => c.weight > 0);
  const q = qValues(items.map((c) => (c ? c.p : NaN)), method, weighted ? items.map((c) => (c ? c.weight : NaN)) : null);
  const judged = items.map((c, i) => (c ? { q: q[i], verdict: decide({ ratio: c.ratio, low: c.low, high: c.high, df: c.df, q: q[i] }, { alpha, equivalence }) } : null));
  const comparisons = items.filter((c) => c && Number.isFinite(c.p)).length;
  return {
    judged,
    summary: { method: `${FDR_METHODS[method].name}${weighted ? ', weighted' : ''}`, alpha, equivalence, comparisons, text: describeVerdicts({ comparisons, alpha, equivalence, method }) }
  };
}
