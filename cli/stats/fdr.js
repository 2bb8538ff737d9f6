// Many comparisons, one error rate. A table of 140 ratios or a diff of 140 cells at p < 0.05 calls
// about 7 unchanged ones "significant" by chance; the false discovery rate (the expected share of
// wrong calls among the changes called) is what a reader of the whole view can rely on.
// Benjamini-Hochberg (1995) controls it at alpha for independent and positively dependent tests
// (Benjamini-Yekutieli 2001: PRDS), which is what the drift shared by the cells of one run makes of
// them; Benjamini-Yekutieli's variant holds under any dependence at the cost of dividing alpha by
// sum 1/i (5.5 for 140 comparisons). docs/statistics.md says which one diff and the tables use and
// why (bench/verdicts.js measures both on real result files).

const harmonic = (m) => {
  let sum = 0;
  for (let i = 1; i <= m; i++) sum += 1 / i;
  return sum;
};

export const FDR_METHODS = {
  bh: { name: 'Benjamini-Hochberg', factor: () => 1 },
  by: { name: 'Benjamini-Yekutieli', factor: harmonic }
};

// q-values of p-values (the smallest false discovery rate at which each would be called): with the
// m finite p-values sorted, q(i) = min over j >= i of min(1, c(m) m p(j) / j). A p-value that is
// not a finite number (no comparison) gets q = NaN and does not count in m. Returns an array
// aligned with ps.
// weights: optional, one per p-value, positive with mean 1 over the finite ones (normalised here):
// the weighted procedure of Genovese, Roeder and Wasserman (2006) on p/w, which keeps the false
// discovery rate when the weights are independent of the p-values (e.g. drawn from an earlier
// measurement) and gains power where they point at the real changes.
export function qValues(ps, method = 'bh', weights = null) {
  const how = FDR_METHODS[method];
  if (!how) throw new Error(`unknown FDR method ${method}`);
  if (weights) {
    const used = ps.map((p, i) => (Number.isFinite(p) ? weights[i] : NaN)).filter(Number.isFinite);
    const mean = used.reduce((a, b) => a + b, 0) / used.length;
    if (!(mean > 0) || used.some((w) => !(w > 0))) throw new Error('FDR weights must be positive');
    return qValues(ps.map((p, i) => (Number.isFinite(p) ? Math.min(1, p / (weights[i] / mean)) : NaN)), method);
  }
  const finite = ps.map((p, i) => ({ p, i })).filter((x) => Number.isFinite(x.p)).sort((a, b) => a.p - b.p);
  const m = finite.length;
  const c = how.factor(m);
  const q = ps.map(() => NaN);
  let running = 1;
  for (let k = m - 1; k >= 0; k--) {
    running = Math.min(running, (c * m * finite[k].p) / (k + 1));
    q[finite[k].i] = Math.min(1, running);
  }
  return q;
}
