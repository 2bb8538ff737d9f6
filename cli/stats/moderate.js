// Variances that borrow strength from the other cells of a suite (empirical Bayes, Smyth 2004, the
// "moderated t" of limma). A cell has 4-5 processes: its own variance estimate has 3-4 degrees of
// freedom, so it is itself noisy, and the t quantile that pays for that noise (t(3) = 3.18 against
// 1.96) made up most of the shipped matrix's ±5% margins. The cells of one suite share the machine,
// the harness and much of their workload's character, so the spread of their variances is far
// smaller than the chance spread of 4-process estimates: each cell's variance is pulled toward the
// suite's typical variance by as much as the data say the cells agree (d0 prior degrees of freedom,
// estimated from the spread of the cells' own log-variances), and its interval gets d + d0 degrees
// of freedom. A cell whose processes really disagree keeps a wide interval: the estimate moves only
// part of the way, and when the cells' variances differ widely, d0 comes out small and little moves.
// Coverage on the shipped suites is measured by bench/suites.js (a rerun inside the rerun interval).

// Digamma, trigamma and tetragamma by recurrence up to x >= 6, then their asymptotic series
// (Abramowitz & Stegun 6.3.18, 6.4.12): accurate to ~1e-10 for x > 0, far beyond what is needed.
function shiftUp(x, term) {
  let acc = 0;
  while (x < 6) {
    acc += term(x);
    x += 1;
  }
  return { x, acc };
}

export function digamma(x) {
  const { x: y, acc } = shiftUp(x, (v) => -1 / v);
  const y2 = 1 / (y * y);
  return acc + Math.log(y) - 1 / (2 * y) - y2 * (1 / 12 - y2 * (1 / 120 - y2 / 252));
}

export function trigamma(x) {
  const { x: y, acc } = shiftUp(x, (v) => 1 / (v * v));
  const y2 = 1 / (y * y);
  return acc + 1 / y + y2 / 2 + (y2 / y) * (1 / 6 - y2 * (1 / 30 - y2 * (1 / 42 - y2 / 30)));
}

function tetragamma(x) {
  const { x: y, acc } = shiftUp(x, (v) => -2 / (v * v * v));
  const y2 = 1 / (y * y);
  return acc - y2 - y2 / y - (y2 * y2) * (1 / 2 - y2 * (1 / 6 - y2 * (1 / 6 - (3 * y2) / 10)));
}

// The y with trigamma(y) = x (Smyth's Newton iteration, limma's trigammaInverse).
export function trigammaInverse(x) {
  if (x > 1e7) return 1 / Math.sqrt(x);
  if (x < 1e-6) return 1 / x;
  let y = 0.5 + 1 / x;
  for (let i = 0; i < 50; i++) {
    const tri = trigamma(y);
    const step = (tri * (1 - tri / x)) / tetragamma(y);
    y += step;
    if (-step / y < 1e-8) break;
  }
  return y;
}

// The most prior degrees of freedom a cell's own variance competes with: beyond this, one cell's
// data would count for almost nothing, and a suite of a few cells cannot vouch for that much
// agreement.
export const MAX_PRIOR_DF = 40;
// Fewer cells than this say too little about how variances spread: no moderation.
export const MIN_CELLS = 4;

// entries: [{ s2, df }] (each cell's variance on the log scale and its degrees of freedom).
// Returns { d0, s02, cells } or null when there is too little to go on.
export function fitVariancePrior(entries) {
  const usable = entries.filter((e) => e.df >= 1 && Number.isFinite(e.s2) && e.s2 > 0);
  if (usable.length < MIN_CELLS) return null;
  const e = usable.map(({ s2, df }) => Math.log(s2) - digamma(df / 2) + Math.log(df / 2));
  const emean = e.reduce((a, b) => a + b, 0) / e.length;
  const spread = e.reduce((a, b) => a + (b - emean) ** 2, 0) / (e.length - 1);
  const chance = usable.reduce((a, { df }) => a + trigamma(df / 2), 0) / usable.length;
  const excess = spread - chance;
  const d0 = excess > 0 ? Math.min(MAX_PRIOR_DF, 2 * trigammaInverse(excess)) : MAX_PRIOR_DF;
  const s02 = Math.exp(emean + digamma(d0 / 2) - Math.log(d0 / 2));
  return { d0, s02, cells: usable.length };
}

// A cell's variance pulled toward the prior: { s2, df }.
export function moderateVariance({ s2, df }, prior) {
  if (!prior || !(df >= 1)) return { s2, df };
  return { s2: (prior.d0 * prior.s02 + df * s2) / (prior.d0 + df), df: df + prior.d0 };
}
