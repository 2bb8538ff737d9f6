// The statistics of a verdict: q-values (stats/fdr.js), the one definition of "decided"
// (stats/decision.js), and the optimised-away rule (stats/folding.js through warningsFor), as
// properties over open-ended inputs and on known examples.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { qValues } from '../cli/stats/fdr.js';
import { decide, judgeAll, equivalenceInterval, EQUIVALENCE, ALPHA } from '../cli/stats/decision.js';
import { compareCells } from '../cli/stats/compare.js';
import { warningsFor, summarize } from '../cli/stats/summary.js';
import { foldingEvidence, looksFolded, FOLDED_RATIO } from '../cli/stats/folding.js';
import { prng } from '../cli/stats/random.js';

const pValue = fc.double({ min: 0, max: 1, noNaN: true });

// The step-up procedure as Benjamini and Hochberg state it: reject the k smallest, k the largest
// with p(k) <= k alpha / m.
function stepUp(ps, alpha) {
  const sorted = [...ps].sort((a, b) => a - b);
  let k = 0;
  sorted.forEach((p, i) => { if (p <= ((i + 1) * alpha) / ps.length) k = i + 1; });
  return k === 0 ? -Infinity : sorted[k - 1];
}

test('Benjamini-Hochberg on the example of their 1995 paper: 4 of 15 hypotheses rejected at 0.05', () => {
  const ps = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.000];
  const q = qValues(ps);
  assert.equal(q.filter((x) => x <= 0.05).length, 4);
  assert.ok(Math.abs(q[0] - 0.0015) < 1e-12);
  assert.deepEqual(qValues([0.01, 0.02, 0.03, 0.04, 0.05]).map((x) => +x.toFixed(12)), [0.05, 0.05, 0.05, 0.05, 0.05]);
  // Benjamini-Yekutieli: BH times sum 1/i (here 1 + 1/2 + 1/3).
  assert.ok(Math.abs(qValues([0.01, 0.5, 0.9], 'by')[0] - 0.03 * (1 + 1 / 2 + 1 / 3)) < 1e-12);
  assert.deepEqual(qValues([NaN, 0.02, undefined]).map(Number.isNaN), [true, false, true]);
  assert.equal(qValues([0.02, NaN])[0], 0.02, 'a missing p-value does not count among the comparisons');
});

test('property: q >= p, q <= 1, q keeps the order of p, BY >= BH, and q <= alpha is exactly the step-up procedure', () => {
  fc.assert(fc.property(fc.array(pValue, { minLength: 1, maxLength: 60 }), fc.double({ min: 0.001, max: 0.5, noNaN: true }), (ps, alpha) => {
    const bh = qValues(ps);
    const by = qValues(ps, 'by');
    ps.forEach((p, i) => {
      assert.ok(bh[i] >= p - 1e-15 && bh[i] <= 1);
      assert.ok(by[i] >= bh[i] - 1e-15);
      ps.forEach((p2, j) => { if (p <= p2) assert.ok(bh[i] <= bh[j] + 1e-15); });
    });
    const cut = stepUp(ps, alpha);
    ps.forEach((p, i) => assert.equal(bh[i] <= alpha, p <= cut, `p ${p}, q ${bh[i]}, step-up cut ${cut}`));
  }), { numRuns: 300 });
});

test('property: weighted q-values are the plain ones of p / w (weights normalised to mean 1); equal weights change nothing', () => {
  fc.assert(fc.property(fc.array(fc.tuple(pValue, fc.double({ min: 0.05, max: 5, noNaN: true })), { minLength: 1, maxLength: 40 }), (items) => {
    const ps = items.map(([p]) => p);
    const ws = items.map(([, w]) => w);
    const mean = ws.reduce((a, b) => a + b, 0) / ws.length;
    assert.deepEqual(qValues(ps, 'bh', ws), qValues(ps.map((p, i) => Math.min(1, p / (ws[i] / mean)))));
    assert.deepEqual(qValues(ps, 'bh', ws.map(() => 3)), qValues(ps));
  }), { numRuns: 200 });
  assert.throws(() => qValues([0.1, 0.2], 'bh', [1, 0]), /positive/);
});

const comparison = fc.record({
  logRatio: fc.double({ min: -0.5, max: 0.5, noNaN: true }),
  half: fc.double({ min: 0, max: 0.3, noNaN: true }),
  q: pValue
}).map(({ logRatio, half, q }) => ({ ratio: Math.exp(logRatio), low: Math.exp(logRatio - half), high: Math.exp(logRatio + half), q }));

test('property: decisions follow the interval and the q-value, and more evidence never undoes one', () => {
  fc.assert(fc.property(comparison, fc.double({ min: 0, max: 0.2, noNaN: true }), (c, equivalence) => {
    const verdict = decide(c, { equivalence });
    const band = equivalenceInterval(c);
    const inside = band.low >= 1 - equivalence && band.high <= 1 + equivalence;
    assert.equal(verdict === 'same', inside);
    // The 90% interval lies inside the 95% one, around the same ratio.
    assert.ok(band.low >= c.low - 1e-12 && band.high <= c.high + 1e-12 && band.low <= c.ratio + 1e-12 && band.high >= c.ratio - 1e-12);
    if (verdict === 'faster') assert.ok(c.ratio > 1 && c.q < ALPHA);
    if (verdict === 'slower') assert.ok(c.ratio < 1 && c.q < ALPHA);
    if (verdict === 'undecided') assert.ok(!inside && !(c.q < ALPHA && c.ratio !== 1));
    // A smaller q-value never turns a decision into "undecided"; a wider band never loses "same".
    assert.ok(verdict === 'undecided' || decide({ ...c, q: c.q / 2 }, { equivalence }) !== 'undecided');
    if (verdict === 'same') assert.equal(decide(c, { equivalence: equivalence + 0.01 }), 'same');
    // A narrower interval around the same ratio keeps "same".
    if (verdict === 'same') assert.equal(decide({ ...c, low: (c.low + c.ratio) / 2, high: (c.high + c.ratio) / 2 }, { equivalence }), 'same');
  }), { numRuns: 500 });
  assert.equal(decide({ ratio: 1.01, low: 0.99, high: 1.03, q: 0.2 }), 'undecided', 'an interval reaching past the band is not "same"');
  // ±2.3% at 95% is ±1.93% at 90% (normal quantiles): same; with df 3 (t quantiles) ±1.70%.
  assert.equal(decide({ ratio: 1, low: 1 / 1.023, high: 1.023, q: 0.9 }), 'same');
  assert.ok(Math.abs(Math.log(equivalenceInterval({ ratio: 1, low: 1 / 1.023, high: 1.023 }).high) - Math.log(1.023) * 1.6448536 / 1.959964) < 1e-9);
  assert.ok(equivalenceInterval({ ratio: 1, low: 1 / 1.023, high: 1.023, df: 3 }).high < equivalenceInterval({ ratio: 1, low: 1 / 1.023, high: 1.023 }).high);
  assert.equal(decide({ ratio: 1.005, low: 1.001, high: 1.009, q: 0.001 }), 'same', 'a significant change inside the band is the same within it');
  assert.equal(decide({ ratio: NaN, low: NaN, high: NaN, q: NaN }), 'undecided');
  assert.equal(EQUIVALENCE, 0.02);
});

// A cell of `processes` processes whose per-process values spread `cv` around `center` ns/op.
// (Declared below; the simulation of "same" uses it.)
function syntheticCell(random, center, { processes = 5, cv = 0.02 } = {}) {
  const gaussian = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return {
    suite: 's', benchmark: 'b', status: 'ok',
    processes: Array.from({ length: processes }, (_, round) => {
      const value = center * Math.exp(cv * gaussian());
      return { round, iterationsPerSample: 1000, warmup: { batches: 1, ms: 1, stable: true }, samplesNsPerOp: Array.from({ length: 5 }, () => value * (1 + 0.001 * gaussian())) };
    })
  };
}

test('property: a comparison judged alone is decided exactly when its 95% interval excludes no change or lies in the band', () => {
  fc.assert(fc.property(fc.integer({ min: 1, max: 1e6 }), fc.double({ min: 0.8, max: 1.25, noNaN: true }), fc.double({ min: 0.001, max: 0.1, noNaN: true }), (seed, factor, cv) => {
    const random = prng(seed);
    const c = compareCells(syntheticCell(random, 100, { cv }), syntheticCell(random, 100 * factor, { cv }));
    const excludesOne = c.ci.low > 1 || c.ci.high < 1;
    // A comparison's band uses the normal quantiles' ratio (no df), a little wider than t's for few
    // processes: with t's, a true 2% change was called "same" 6.2% of the time at 15 processes (the
    // simulation below), over the 5% the test promises.
    const band = equivalenceInterval({ ratio: c.ratio, low: c.ci.low, high: c.ci.high });
    const inBand = band.low >= 1 - EQUIVALENCE && band.high <= 1 + EQUIVALENCE;
    // p < 0.05 and the 95% t-interval excluding 1 are the same statement (up to rounding at the edge).
    if (Math.abs(c.p - ALPHA) > 1e-6) assert.equal(c.p < ALPHA, excludesOne, `p ${c.p}, interval ${c.ci.low}..${c.ci.high}`);
    assert.equal(c.verdict === 'undecided', !inBand && !(c.p < ALPHA));
    assert.equal(c.q, c.p);
  }), { numRuns: 200 });
});

test('judgeAll: one family, q-values over the comparisons that exist, a summary that names the method', () => {
  const items = [{ ratio: 0.9, low: 0.85, high: 0.95, p: 0.001 }, null, { ratio: 1.0, low: 0.99, high: 1.01, p: 0.9 }, { ratio: 1.04, low: 1.001, high: 1.08, p: 0.04 }];
  const { judged, summary } = judgeAll(items);
  assert.equal(judged[1], null);
  assert.deepEqual(judged.filter(Boolean).map((j) => j.verdict), ['slower', 'same', 'undecided']);
  assert.ok(Math.abs(judged[3].q - 0.06) < 1e-12, 'p 0.04 among 3 comparisons: q = 0.04 x 3 / 2');
  assert.equal(summary.comparisons, 3);
  assert.equal(summary.method, 'Benjamini-Hochberg');
  assert.match(summary.text, /5% false discovery rate over 3 comparisons \(Benjamini-Hochberg q-values\); same: the 90% interval within ±2% \(two one-sided tests at 5%\)/);
});

const process = (samples, empty) => ({ round: 0, iterationsPerSample: 1e6, warmup: { batches: 1, ms: 1, stable: true }, samplesNsPerOp: samples, emptyNsPerOp: empty });

test('optimized-away: the median process decides, fastest against fastest; no empty readings, no verdict', () => {
  const folded = [process([0.52, 0.55, 0.6], [0.7, 0.5, 0.51]), process([0.5, 0.53], [0.49, 0.5]), process([2.5, 2.6], [0.5, 0.5])];
  const evidence = foldingEvidence(folded.map((p) => ({ fastestNs: Math.min(...p.samplesNsPerOp), emptyNs: Math.min(...p.emptyNsPerOp) })));
  assert.equal(evidence.processes, 3);
  assert.ok(evidence.ratio < FOLDED_RATIO && looksFolded(evidence));
  const summary = summarize(folded);
  assert.ok(Math.abs(summary.emptyNsPerOp - 0.5) < 1e-12);
  const warning = warningsFor(summary, folded).find((w) => w.code === 'optimized-away');
  assert.match(warning.message, /x what an empty benchmark of its kind cost in the same processes \(0\.500 ns; below 1\.8x counts as empty\)/);
  // Node 24.21.0's folded constants on the AMD EPYC of 2026-11-29: 0.53 against an empty 0.33 ns.
  const node24 = [process([0.53, 0.55], [0.33, 0.34]), process([0.54], [0.335]), process([0.52], [0.33])];
  assert.equal(warningsFor(summarize(node24), node24).some((w) => w.code === 'optimized-away'), true);
  const real = [process([1.0, 1.1], [0.5, 0.52]), process([0.98], [0.5]), process([1.05], [0.49])];
  assert.equal(warningsFor(summarize(real), real).some((w) => w.code === 'optimized-away'), false);
  const old = [process([0.5], undefined), process([0.5], [])];
  assert.equal(foldingEvidence([]), null);
  assert.equal(summarize(old).emptyNsPerOp, undefined);
  assert.equal(warningsFor(summarize(old), old).some((w) => w.code === 'optimized-away'), false, 'files from before the empty benchmark are never flagged');
});

// Schuirmann's promise, simulated: a true change of exactly the band's edge (2%, either way) is
// called "same" at most alpha of the time, a larger one less often, whatever the spread and the
// number of processes; a true zero change is called "same" often once the intervals are narrow.
test('simulation: a true 2% change is called "same" at most 5% of the time (plus chance), a 3% change less, no change often', () => {
  const random = prng(20261124);
  const trials = 2000;
  const rate = (factor, options) => {
    let same = 0;
    for (let i = 0; i < trials; i++) {
      const a = syntheticCell(random, 100, options);
      const b = syntheticCell(random, 100 * factor, options);
      if (compareCells(a, b).verdict === 'same') same++;
    }
    return same / trials;
  };
  // 5% of 2,000 trials: 100; a binomial 95% bound above it is ~120 (6%).
  for (const options of [{ processes: 4, cv: 0.01 }, { processes: 8, cv: 0.01 }, { processes: 15, cv: 0.015 }]) {
    for (const factor of [1.02, 1 / 1.02]) {
      const edge = rate(factor, options);
      assert.ok(edge <= 0.06, `true change ${((factor - 1) * 100).toFixed(1)}% called same ${(edge * 100).toFixed(1)}% of the time (${JSON.stringify(options)})`);
    }
    assert.ok(rate(1.03, options) <= 0.06);
  }
  assert.ok(rate(1, { processes: 15, cv: 0.01 }) >= 0.8, 'no change, narrow intervals: mostly "same"');
});
