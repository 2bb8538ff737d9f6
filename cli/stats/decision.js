// What "decided" means, in one place: diff, its gate, the tables' ratios and the launch policy (which
// spends processes on comparisons not yet decided) all ask this file.
//   faster / slower  the change is a discovery: its q-value (its p-value adjusted for the other
//                    comparisons of the same view, stats/fdr.js) is below alpha;
//   same             the 95% interval of the ratio lies inside ±equivalence (2% by default): whatever
//                    the change is, it is smaller than that (two one-sided tests at 2.5% each);
//   undecided        neither: the interval holds no change and changes beyond ±equivalence. Never
//                    "no change": the evidence is not there either way.
// "same" is asked first: a change of 0.5% that the test finds significant is still the same within
// ±2%, which is the question a reader of that verdict asked.
import { qValues, FDR_METHODS } from './fdr.js';

export const ALPHA = 0.05;
export const EQUIVALENCE = 0.02;
export const FDR_METHOD = 'bh';
export const DECISIONS = ['faster', 'slower', 'same', 'undecided'];

// comparison: { ratio, low, high, q } (ratio of rates B/A, its 95% interval, its adjusted p-value;
// a comparison judged alone uses its p-value). Pure: the launch policy calls it per comparison.
export function decide({ ratio, low, high, q }, { equivalence = EQUIVALENCE, alpha = ALPHA } = {}) {
  if (low >= 1 - equivalence && high <= 1 + equivalence) return 'same';
  if (q < alpha && Number.isFinite(ratio) && ratio !== 1) return ratio > 1 ? 'faster' : 'slower';
  return 'undecided';
}

export const isDecided = (verdict) => verdict !== 'undecided';

// The words a view prints under its verdicts (and its JSON carries as `method`).
export function describeVerdicts({ comparisons, alpha = ALPHA, equivalence = EQUIVALENCE, method = FDR_METHOD }) {
  return `faster/slower at a ${alpha * 100}% false discovery rate over ${comparisons} comparison${comparisons === 1 ? '' : 's'} (${FDR_METHODS[method].name} q-values); same: the 95% interval within ±${+(equivalence * 100).toFixed(2)}%; undecided: neither`;
}

// Judges a family of comparisons together. items: [{ ratio, low, high, p, weight? }] (null entries
// are skipped; weights, when every item has one, as in stats/fdr.js). Returns { judged: [{ q,
// verdict }] aligned with items (null where the item was null), summary: { method, alpha,
// equivalence, comparisons, text } }.
export function judgeAll(items, { alpha = ALPHA, equivalence = EQUIVALENCE, method = FDR_METHOD } = {}) {
  const present = items.filter(Boolean);
  const weighted = present.length > 0 && present.every((c) => c.weight > 0);
  const q = qValues(items.map((c) => (c ? c.p : NaN)), method, weighted ? items.map((c) => (c ? c.weight : NaN)) : null);
  const judged = items.map((c, i) => (c ? { q: q[i], verdict: decide({ ratio: c.ratio, low: c.low, high: c.high, q: q[i] }, { alpha, equivalence }) } : null));
  const comparisons = items.filter((c) => c && Number.isFinite(c.p)).length;
  return {
    judged,
    summary: { method: `${FDR_METHODS[method].name}${weighted ? ', weighted' : ''}`, alpha, equivalence, comparisons, text: describeVerdicts({ comparisons, alpha, equivalence, method }) }
  };
}
