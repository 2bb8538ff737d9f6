import { test } from 'node:test';
import assert from 'node:assert/strict';
import { digamma, trigamma, trigammaInverse, fitVariancePrior, moderateVariance, MAX_PRIOR_DF } from '../cli/stats/moderate.js';
import { logInterval, trimmedMean, unitVariance } from '../cli/stats/robust.js';
import { summarize } from '../cli/stats/summary.js';
import { variancePriors } from '../cli/results/cell.js';
import { prng } from '../cli/stats/random.js';
import { pairedRatio, pairedPrior, compareCells } from '../cli/stats/compare.js';
import { diffResults } from '../cli/diff/compare.js';

const close = (a, b, tol) => assert.ok(Math.abs(a - b) < tol, `${a} is not within ${tol} of ${b}`);

// Standard normal draws (Box-Muller) from the seeded PRNG, so every run sees the same numbers.
function normals(random) {
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

test('digamma, trigamma and the inverse of trigamma match their known values', () => {
  close(digamma(1), -0.5772156649, 1e-8);
  close(digamma(0.5), -1.9635100260, 1e-8);
  close(trigamma(1), Math.PI ** 2 / 6, 1e-8);
  close(trigamma(0.5), Math.PI ** 2 / 2, 1e-8);
  for (const y of [0.3, 1, 2.5, 40]) close(trigammaInverse(trigamma(y)), y, 1e-6);
});

// cells: true sd of each cell's log values; n values each. Returns [{ logs, sd }].
function simulateCells(sds, n, random) {
  const z = normals(random);
  return sds.map((s) => ({ sd: s, logs: Array.from({ length: n }, () => s * z()) }));
}

test('cells that share one spread give a large prior (capped) at that spread', () => {
  const cells = simulateCells(Array(40).fill(0.04), 4, prng(7));
  const prior = fitVariancePrior(cells.map((c) => unitVariance(trimmedMean(c.logs))));
  assert.ok(prior.d0 >= 15, `d0 ${prior.d0}`);
  assert.ok(prior.d0 <= MAX_PRIOR_DF);
  close(Math.sqrt(prior.s02), 0.04, 0.008);
});

test('cells whose spreads differ tenfold get a small prior: little is borrowed', () => {
  const random = prng(11);
  const sds = Array.from({ length: 40 }, () => 0.01 * 10 ** (2 * random()));
  const prior = fitVariancePrior(simulateCells(sds, 4, random).map((c) => unitVariance(trimmedMean(c.logs))));
  assert.ok(prior.d0 < 6, `d0 ${prior.d0}`);
});

test('too few cells, or cells of one process, give no prior', () => {
  assert.equal(fitVariancePrior([{ s2: 1e-3, df: 3 }, { s2: 2e-3, df: 3 }, { s2: 1e-3, df: 3 }]), null);
  assert.equal(fitVariancePrior([{ s2: 1e-3, df: 0 }, { s2: 2e-3, df: 0 }, { s2: 1e-3, df: 0 }, { s2: 1e-3, df: 0 }]), null);
  assert.deepEqual(moderateVariance({ s2: 0.5, df: 3 }, null), { s2: 0.5, df: 3 });
});

test('a moderated variance lies between the cell\'s own and the prior\'s, with the degrees of freedom added', () => {
  const m = moderateVariance({ s2: 4e-4, df: 3 }, { d0: 9, s02: 1e-4 });
  close(m.s2, (9 * 1e-4 + 3 * 4e-4) / 12, 1e-15);
  assert.equal(m.df, 12);
});

// The claim the tables rest on: with 4 processes per cell and spreads that differ from cell to
// cell by up to 3x, moderated 95% intervals still hold the true value about 95% of the time, and
// are narrower than each cell's own t-interval.
test('moderated intervals keep their coverage over cells of unequal spread, and are narrower', () => {
  const random = prng(2026);
  let covered = 0;
  let total = 0;
  const ratio = [];
  for (let suite = 0; suite < 60; suite++) {
    const sds = Array.from({ length: 30 }, () => 0.02 * 3 ** random());
    const cells = simulateCells(sds, 4, random);
    const prior = fitVariancePrior(cells.map((c) => unitVariance(trimmedMean(c.logs))));
    for (const cell of cells) {
      const own = logInterval(cell.logs, 'simulated', null);
      const moderated = logInterval(cell.logs, 'simulated', prior);
      total++;
      if (moderated.low <= 1 && moderated.high >= 1) covered++;
      ratio.push((moderated.high - moderated.low) / (own.high - own.low));
    }
  }
  const coverage = covered / total;
  assert.ok(coverage >= 0.93 && coverage <= 0.97, `coverage ${coverage}`);
  ratio.sort((a, b) => a - b);
  assert.ok(ratio[ratio.length >> 1] < 0.8, `median width ratio ${ratio[ratio.length >> 1]}`);
});

test('a cell with one far outlier process is still trimmed under a prior, and its method says both', () => {
  const prior = { d0: 10, s02: 0.03 ** 2, cells: 20 };
  const values = [262, 305, 292, 274, 321, 666];
  const s = summarize(values.map((m) => ({ samplesNsPerOp: [m * 0.99, m, m * 1.01] })), { prior });
  assert.ok(s.estimate < 310, `estimate ${s.estimate}`);
  assert.match(s.ci.method, /trimmed mean .* moderated toward the suite's \(10\.0 prior degrees of freedom, 20 cells\)/);
  assert.equal(s.variancePrior.d0, 10);
});

test('variancePriors pools per suite, over the cells with two or more kept processes', () => {
  const random = prng(5);
  const z = normals(random);
  const cell = (suite, n, s) => ({
    suite, status: 'ok',
    processes: Array.from({ length: n }, (_, round) => ({ round, samplesNsPerOp: [1000 * Math.exp(s * z())] }))
  });
  const cells = [
    ...Array.from({ length: 12 }, () => cell('tight', 4, 0.01)),
    ...Array.from({ length: 12 }, () => cell('wide', 4, 0.1)),
    cell('single', 1, 0.1), { suite: 'failed', status: 'failed', processes: [] }
  ];
  const priors = variancePriors(cells);
  assert.ok(Math.sqrt(priors.get('tight').s02) < 0.02);
  assert.ok(Math.sqrt(priors.get('wide').s02) > 0.05);
  assert.equal(priors.has('single'), false);
  assert.equal(priors.has('failed'), false);
});

// Synthetic ok cells of one suite: `n` processes, one per round, log values spread by `s`.
function syntheticCells(count, n, s, random) {
  const z = normals(random);
  return Array.from({ length: count }, (_, i) => ({
    suite: 'promises', benchmark: `b${i}`, runtimeLabel: '16', flagSet: 'baseline', status: 'ok',
    processes: Array.from({ length: n }, (_, round) => ({ round, samplesNsPerOp: [1000 * Math.exp(s * z())] }))
  }));
}

test('paired ratios under a prior get the pooled degrees of freedom and say so', () => {
  const random = prng(9);
  const bases = syntheticCells(12, 4, 0.03, random);
  const cells = syntheticCells(12, 4, 0.03, random);
  const prior = pairedPrior(bases.map((b, i) => [b, cells[i]]));
  assert.ok(prior && prior.d0 > 0);
  const own = pairedRatio(bases[0], cells[0]);
  const moderated = pairedRatio(bases[0], cells[0], prior);
  assert.equal(moderated.ratio, own.ratio);
  assert.match(moderated.method, /moderated toward the suite's/);
  assert.doesNotMatch(own.method, /moderated/);
});

test('diff judges each side with its suite prior, as the tables do', () => {
  const random = prng(21);
  const a = syntheticCells(10, 4, 0.03, random);
  const b = syntheticCells(10, 4, 0.03, random).map((c) => ({ ...c, runtimeLabel: '16' }));
  const rows = diffResults(a.map((cell, i) => ({ label: cell.benchmark, column: '16/baseline', a: cell, b: b[i] })));
  for (const row of rows) assert.match(row.comparison.method, /variances moderated toward each suite's/);
  const bare = compareCells(a[0], b[0]);
  assert.doesNotMatch(bare.method, /moderated/);
});
