// How a figure compares with its target, in words a reader can check.
const pts = (x) => `${(x * 100).toFixed(1)} points`;
export const pct = (x, digits = 1) => (Number.isFinite(x) ? `${(x * 100).toFixed(digits)}%` : 'n/a');

export function rateText(r) {
  return `${r.k}/${r.n} = ${pct(r.rate)} (95% CI ${pct(r.ci.low, 0)}-${pct(r.ci.high, 0)})`;
}

// r: { rate, ci } from rate() in trial-rates.js; the verdict also says when the target lies inside the interval,
// i.e. when this many trials cannot tell the figure from its target.
export function atMost(r, target) {
  if (!Number.isFinite(r.rate)) return 'n/a';
  if (r.rate <= target) return r.ci.high > target ? 'met (interval reaches past the target)' : 'met';
  return `missed by ${pts(r.rate - target)}${r.ci.low <= target ? ' (interval includes the target)' : ''}`;
}

export function atLeast(r, target) {
  if (!Number.isFinite(r.rate)) return 'n/a';
  if (r.rate >= target) return r.ci.low < target ? 'met (interval reaches below the target)' : 'met';
  return `missed by ${pts(target - r.rate)}${r.ci.high >= target ? ' (interval includes the target)' : ''}`;
}

export function within(ratio, tolerance) {
  if (!Number.isFinite(ratio)) return 'n/a';
  const off = Math.abs(ratio - 1);
  return off <= tolerance ? 'met' : `missed by ${pts(off - tolerance)}`;
}
