// Sensitivity: the fixed-work benchmark against the same function doing 2% and 5% more work
// (bench/fixtures/work.js: base, plus-2pct, plus-5pct differ only in their loop count), all cells
// measured in ONE engine invocation at the given budget, as a matrix comparing two variants is
// (launches interleaved by the engine's schedule). Per invocation: is the difference detected
// (compareCells significant, in the right direction), and what time ratio was estimated?
// The same invocations carry a second copy of base ("base-again"): an A/A inside one invocation.
import { compareCells } from '../../cli/stats/compare.js';
import { invokeEngine } from './engine-run.js';
import { rate, mean } from './trial-rates.js';
import { median } from '../../cli/stats/basic.js';
import { rateText, atLeast, atMost, pct } from './targets.js';

export const PARAMS = { roundsPerUs: 600, baseUs: 10 };
const rounds = (scale) => Math.round(PARAMS.roundsPerUs * PARAMS.baseUs * scale);
export const EXPECTED = { 'plus-2pct': rounds(1.02) / rounds(1), 'plus-5pct': rounds(1.05) / rounds(1) };

function judge(base, other) {
  const c = compareCells(base, other);
  // ratio is the change in rate (other / base); more work is slower, so a detection is "slower".
  return { timeRatio: 1 / c.ratio, detected: c.significant && c.ratio < 1, significant: c.significant, p: c.p };
}

export function sensitivityExperiment({ reps, run, dir, seed, withAa = true, variants = ['plus-2pct', 'plus-5pct'], name = 'sensitivity' }) {
  const results = [];
  const benchmarks = ['base', ...(withAa ? ['base-again'] : []), ...variants];
  const trials = Array.from({ length: reps }, (_, i) => async () => {
    const inv = await invokeEngine({ benchmarks, run, seed: seed + i, dir, name: `${name}-${i}` });
    const entry = { wallMs: inv.wallMs, processes: Object.fromEntries(Object.entries(inv.cells).map(([k, c]) => [k, c.processes.length])) };
    for (const v of variants) entry[v] = judge(inv.cells.base, inv.cells[v]);
    if (withAa) entry.aa = judge(inv.cells.base, inv.cells['base-again']);
    results.push(entry);
  });
  return { name, trials, results };
}

// Figures from the raw per-invocation results (kept in the harness's JSON).
export function sensitivitySummary(results) {
  const n = results.length;
  const variants = Object.keys(EXPECTED).filter((v) => results[0] && results[0][v]);
  const counts = results.flatMap((r) => Object.values(r.processes));
  const figures = { reps: n, processes: `${mean(counts).toFixed(1)} (${Math.min(...counts)}-${Math.max(...counts)})`, wallMs: mean(results.map((r) => r.wallMs)) };
  for (const v of variants) {
    const ratios = results.map((r) => r[v].timeRatio);
    figures[v] = {
      detected: rate(results.filter((r) => r[v].detected).length, n),
      meanTimeRatio: mean(ratios),
      medianTimeRatio: median(ratios),
      expected: EXPECTED[v],
      ratios
    };
  }
  if (results[0]?.aa) figures.aa = rate(results.filter((r) => r.aa.significant).length, n);
  return { figures };
}

export function sensitivityRows(summary, { label = '', targets = { 'plus-5pct': 0.95, 'plus-2pct': 0.8 } } = {}) {
  const f = summary.figures;
  const rows = [];
  for (const v of ['plus-5pct', 'plus-2pct']) {
    if (!f[v]) continue;
    const size = v === 'plus-5pct' ? '+5%' : '+2%';
    rows.push({
      id: `sens-${v}${label ? `-${label.trim().replace(/\W+/g, '-')}` : ''}`,
      figure: `sensitivity ${size}${label}: detected`,
      value: rateText(f[v].detected),
      target: `>= ${pct(targets[v], 0)}`,
      verdict: atLeast(f[v].detected, targets[v]),
      how: `${f.reps} invocations with base and ${size} cells (processes per cell ${f.processes}, interleaved); significant and slower at alpha 0.05`
    });
    rows.push({
      id: `ratio-${v}${label ? `-${label.trim().replace(/\W+/g, '-')}` : ''}`,
      figure: `sensitivity ${size}${label}: time ratio`,
      value: `mean ${f[v].meanTimeRatio.toFixed(4)}, median ${f[v].medianTimeRatio.toFixed(4)} (expected ${f[v].expected.toFixed(4)})`,
      target: '',
      verdict: '',
      how: 'mean and median over invocations of 1 / compareCells ratio (time of the variant / time of base)'
    });
  }
  if (f.aa) {
    rows.push({
      id: 'aa-inside', figure: 'A/A false positives (inside one invocation)', value: rateText(f.aa), target: '<= 5%', verdict: atMost(f.aa, 0.05),
      how: 'base vs base-again in the sensitivity invocations (cells interleaved by the engine)'
    });
  }
  return rows;
}
