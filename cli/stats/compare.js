// Is B faster or slower than A, by how much, and how sure are we? Welch's t-test on the log of the
// per-process medians (the process is the independent unit; logs make the test about ratios), a 95%
// interval for the ratio of rates, and a verdict that says "~" when the change is not significant,
// as benchstat does.
import { mean, median, variance, t975, geomean } from './basic.js';
import { tTwoSidedP } from './distributions.js';

export const ALPHA = 0.05;

function units(cell) {
  const perProcess = cell.processes.map((p) => median(p.samplesNsPerOp));
  if (perProcess.length >= 2) return { values: perProcess, level: 'processes' };
  // One process: the samples are all we have, and they understate the spread between runs.
  return { values: cell.processes[0].samplesNsPerOp, level: 'samples of a single process' };
}

// Two separate invocations of the same cell differ by more than their processes' spread predicts:
// something shared by the processes of one invocation (seconds of the same machine state) moves
// them together. Measured by the harness benchmark at about 0.9% on the project's 2-core machine
// (docs/precision.md), so comparisons across result files add this much per side by default.
export const INVOCATION_DRIFT = 0.01;

// a, b: ok cells. Returns the change in rate (ops/s) from a to b. driftCv: the relative drift
// between invocations to allow for (0 when both cells were measured interleaved in one run).
export function compareCells(a, b, { alpha = ALPHA, driftCv = 0 } = {}) {
  const ua = units(a);
  const ub = units(b);
  const la = ua.values.map(Math.log);
  const lb = ub.values.map(Math.log);
  // On the log scale a relative drift d is an added variance of about d^2 on each side.
  const va = variance(la) / la.length + driftCv ** 2;
  const vb = variance(lb) / lb.length + driftCv ** 2;
  // Rate ratio b/a = exp(mean log time a - mean log time b).
  const diff = mean(la) - mean(lb);
  const se = Math.sqrt(va + vb);
  // Welch-Satterthwaite degrees of freedom from the estimated parts; the drift is taken as known.
  const pa = variance(la) / la.length;
  const pb = variance(lb) / lb.length;
  const df = pa + pb > 0 ? (va + vb) ** 2 / ((pa ** 2) / Math.max(1, la.length - 1) + (pb ** 2) / Math.max(1, lb.length - 1)) : Infinity;
  const t = se > 0 ? diff / se : (diff === 0 ? 0 : Infinity * Math.sign(diff));
  const p = se > 0 ? tTwoSidedP(t, df) : (diff === 0 ? 1 : 0);
  const half = se > 0 ? t975(Math.max(1, Math.floor(df))) * se : 0;
  const ratio = Math.exp(diff);
  const significant = p < alpha;
  return {
    ratio,
    ci: { level: 1 - alpha, low: Math.exp(diff - half), high: Math.exp(diff + half) },
    p,
    df,
    significant,
    verdict: !significant ? '~' : ratio > 1 ? 'faster' : 'slower',
    method: `Welch t-test on log per-${ua.level === 'processes' && ub.level === 'processes' ? 'process medians' : 'sample times'} (n = ${la.length} vs ${lb.length})${driftCv ? `, plus ${(driftCv * 100).toFixed(1)}% drift between invocations per side` : ''}`,
    singleProcess: ua.level !== 'processes' || ub.level !== 'processes'
  };
}

export function geomeanRatio(comparisons) {
  return geomean(comparisons.map((c) => c.ratio));
}
