// A/A and honest intervals. The same cell (bench/fixtures/work.js "base", ~10 µs) is measured by
// two separate invocations of the engine with different launch seeds, `pairs` times:
//   - A/A: how often compareCells (what `nodebench diff` says) calls the two significantly
//     different at alpha 0.05. Nothing changed, so every such verdict is a false positive (target <= 5%).
//   - honest intervals: how often one invocation's reported 95% interval contains the estimate of
//     the other, separate rerun (both directions per pair; target >= 90%). Even with independent,
//     identically distributed processes a t-interval over 3 medians holds a rerun's mean of 3 only
//     ~91% of the time (the rerun has its own error): P(|T(2)| < 4.303 / sqrt 2). The engine adds
//     processes to a cell whose margin is above run.targetRme, so the reference rate is computed
//     for the process counts each pair actually had.
import { compareCells, ALPHA, INVOCATION_DRIFT } from '../../cli/stats/compare.js';
import { tTwoSidedP } from '../../cli/stats/distributions.js';
import { t975 } from '../../cli/stats/basic.js';
import { invokeEngine } from './engine-run.js';
import { rate, cv, mean } from './trial-rates.js';
import { rateText, atMost, atLeast, pct } from './targets.js';
import { quantile } from '../../cli/stats/basic.js';

// CPU time a worker got while sampling / wall time of its sampling phase: below ~0.95, other programs
// were taking the core away from it (the main source of noise on a shared machine).
// Both over the same window: from the first timed batch to the end of the last.
export const cpuShares = (cell) => cell.processes.filter((p) => typeof p.cpuNsPerOp === 'number' && p.sampleMs > 0)
  .map((p) => (p.cpuNsPerOp * p.samplesNsPerOp.length * p.iterationsPerSample) / (p.sampleMs * 1e6));

// How often a t-interval over na process medians holds the mean of nb other medians when every
// process is an independent draw from one distribution: P(|T(na-1)| < t975 * sqrt(nb / (na + nb))).
export function idealCoverage(na, nb) {
  if (na < 2) return NaN;
  return 1 - tTwoSidedP(t975(na - 1) * Math.sqrt(nb / (na + nb)), na - 1);
}

const holds = (cell, estimate) => cell.summary.ci.low <= estimate && estimate <= cell.summary.ci.high;
const rerunHolds = (cell, estimate) => Boolean(cell.summary.rerun) && cell.summary.rerun.low <= estimate && estimate <= cell.summary.rerun.high;

export function aaExperiment({ pairs, run, dir, seed }) {
  const results = [];
  const trials = Array.from({ length: pairs }, (_, i) => async () => {
    const a = await invokeEngine({ benchmarks: ['base'], run, seed: seed + 2 * i, dir, name: `aa-${i}-a` });
    const b = await invokeEngine({ benchmarks: ['base'], run, seed: seed + 2 * i + 1, dir, name: `aa-${i}-b` });
    const ca = a.cells.base;
    const cb = b.cells.base;
    // As `nodebench diff a.json b.json` compares two separate runs: with the invocation drift term.
    const c = compareCells(ca, cb, { driftCv: INVOCATION_DRIFT });
    results.push({
      a: ca.summary.estimate, b: cb.summary.estimate, ratio: c.ratio, p: c.p, significant: c.significant,
      aHoldsB: holds(ca, cb.summary.estimate), bHoldsA: holds(cb, ca.summary.estimate),
      aRerunHoldsB: rerunHolds(ca, cb.summary.estimate), bRerunHoldsA: rerunHolds(cb, ca.summary.estimate),
      processCv: [ca.summary.processCv, cb.summary.processCv], wallMs: [a.wallMs, b.wallMs],
      processWallMs: [...ca.processes, ...cb.processes].map((p) => p.wallMs), processCounts: [ca.processes.length, cb.processes.length],
      cpuShares: [...cpuShares(ca), ...cpuShares(cb)]
    });
  });
  return { name: 'A/A + intervals', trials, results };
}

// Figures and table rows from the raw pairs (kept in the harness's JSON, so a report can be
// rendered again from it: node bench/harness.js --from FILE).
export function aaSummary(results) {
  const n = results.length;
  const fp = rate(results.filter((r) => r.significant).length, n);
  const coverage = rate(results.reduce((k, r) => k + r.aHoldsB + r.bHoldsA, 0), 2 * n);
  const rerunCoverage = rate(results.reduce((k, r) => k + Boolean(r.aRerunHoldsB) + Boolean(r.bRerunHoldsA), 0), 2 * n);
  const estimates = results.flatMap((r) => [r.a, r.b]);
  const counts = results.flatMap((r) => r.processCounts);
  const processes = `${(mean(counts)).toFixed(1)} (${Math.min(...counts)}-${Math.max(...counts)})`;
  const ideal = mean(results.flatMap((r) => [idealCoverage(r.processCounts[0], r.processCounts[1]), idealCoverage(r.processCounts[1], r.processCounts[0])]));
  const withinCv = Math.sqrt(mean(results.flatMap((r) => r.processCv).map((x) => x * x)));
  const shares = results.flatMap((r) => r.cpuShares);
  const share = { median: quantile(shares, 0.5), p10: quantile(shares, 0.1), below95: shares.filter((x) => x < 0.95).length / shares.length };
  return {
    figures: { cpuShare: share, falsePositives: fp, coverage, rerunCoverage, idealCoverage: ideal, runToRunCv: cv(estimates), withinInvocationCv: withinCv },
    rows: [
      { id: 'aa', figure: 'A/A false positives (separate invocations)', value: rateText(fp), target: `<= ${pct(ALPHA, 0)}`, verdict: atMost(fp, ALPHA),
        how: `${n} pairs of separate runMatrix invocations (different seeds) of one ~${(mean(estimates) / 1000).toFixed(1)} µs cell, processes per cell ${processes}; compareCells at alpha ${ALPHA}` },
      { id: 'intervals', figure: 'honest intervals (rerun interval holds a rerun)', value: rateText(rerunCoverage), target: '>= 90%', verdict: atLeast(rerunCoverage, 0.9),
        how: 'each invocation\'s summary.rerun (95% prediction interval for a rerun\'s estimate, sqrt(2) wider than the interval for the mean) vs the other invocation\'s estimate, both ways' },
      { id: 'ci-coverage', figure: 'CI of the mean holds a rerun', value: rateText(coverage), target: '', verdict: '',
        how: `each invocation's summary.ci (95% interval for the mean) vs the other invocation's estimate, both ways; it is not meant to hold a rerun: if every process were an independent draw from one distribution the rate would be ${pct(ideal)} for these process counts` },
      { id: 'cv', figure: 'spread of a cell', value: `CV ${pct(cv(estimates), 2)} between invocations (${pct(withinCv / Math.sqrt(mean(counts)), 2)} if processes were independent); ${pct(withinCv, 2)} between processes`, target: '', verdict: '',
        how: 'CV of the A/A cell estimates across invocations, against what the spread between processes alone predicts (process CV / sqrt(processes per cell)): the excess is drift shared by the processes of one invocation; process CV: root-mean-square of per-invocation process CVs (stats/summary.js processCv)' },
      { id: 'cpu-share', figure: 'CPU share of worker processes', value: `median ${pct(share.median, 0)}, 10th percentile ${pct(share.p10, 0)}; ${pct(share.below95, 0)} of processes below 95%`, target: '', verdict: '',
        how: `CPU time (process.cpuUsage) of each A/A worker process while sampling / wall time of its samples (${shares.length} processes): below ~95%, other programs had the core` }
    ]
  };
}
