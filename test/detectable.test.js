// The smallest change a run could have detected (cli/stats/detectable.js): its figures follow the
// intervals, and a change of the size it states is in fact detected about 80% of the time by diff's
// comparison (compareCells), simulated on synthetic cells.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { detectableChange, describeDetectable } from '../cli/stats/detectable.js';
import { compareCells } from '../cli/stats/compare.js';
import { summarize } from '../cli/stats/summary.js';
import { prng } from '../cli/stats/random.js';

const gaussianOf = (random) => () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

function syntheticCell(random, center, { processes, cv }) {
  const gaussian = gaussianOf(random);
  const records = Array.from({ length: processes }, (_, round) => {
    const value = center * Math.exp(cv * gaussian());
    return { round, iterationsPerSample: 1000, warmup: { batches: 1, ms: 1, stable: true }, samplesNsPerOp: Array.from({ length: 5 }, () => value * (1 + 0.0005 * gaussian())) };
  });
  return { suite: 's', benchmark: 'b', status: 'ok', processes: records, summary: summarize(records) };
}

const tablesOf = (ratios) => [{ rows: [{ values: ratios.map((c) => ({ ratioComparison: c })) }] }];

test('property: narrower intervals never state a larger detectable change, and "same" is reachable only where the 90% half-width fits ±2%', () => {
  fc.assert(fc.property(fc.array(fc.double({ min: 0.0005, max: 0.5, noNaN: true }), { minLength: 1, maxLength: 30 }), fc.double({ min: 0.1, max: 1, noNaN: true }), (halves, shrink) => {
    const ratios = (k) => halves.map((h) => ({ ratio: 1, low: Math.exp(-h * k), high: Math.exp(h * k) }));
    const wide = detectableChange(tablesOf(ratios(1)), []);
    const narrow = detectableChange(tablesOf(ratios(shrink)), []);
    assert.ok(narrow.ratios.medianPct <= wide.ratios.medianPct + 1e-9 && narrow.ratios.p90Pct <= wide.ratios.p90Pct + 1e-9);
    assert.ok(narrow.ratios.sameReachable >= wide.ratios.sameReachable);
    assert.equal(wide.ratios.sameReachable, halves.filter((h) => h * (1.6448536 / 1.959964) <= Math.log(1.02)).length);
    // A detectable change is larger than the interval's half-width (it needs power, not a coin toss).
    assert.ok(wide.ratios.medianPct > 0 && wide.rerun === null);
  }), { numRuns: 200 });
  assert.equal(describeDetectable(detectableChange([], [])), null);
  assert.equal(detectableChange(tablesOf([null, { ratio: 1, low: NaN, high: NaN }]), []).ratios, null);
});

test('simulation: a change of the size a run states for a rerun is detected by diff about 80% of the time', () => {
  const random = prng(31);
  for (const options of [{ processes: 6, cv: 0.02 }, { processes: 12, cv: 0.01 }]) {
    // What runs of these cells state (their median over 40 cells).
    const cells = Array.from({ length: 40 }, () => syntheticCell(random, 100, options));
    const stated = detectableChange([], cells).rerun.medianPct / 100;
    let detected = 0;
    const trials = 600;
    for (let i = 0; i < trials; i++) {
      const c = compareCells(syntheticCell(random, 100, options), syntheticCell(random, 100 / (1 + stated), options));
      // Detected: the test finds the change (its verdict may still be "same within ±2%" for a change
      // below the band, which is what a reader asked).
      if (c.significant && c.ratio > 1) detected++;
    }
    // The figure is conservative (normal quantiles for any df): at least ~70%, and a change a third
    // that size would be caught far less often.
    assert.ok(detected / trials >= 0.7, `${JSON.stringify(options)}: stated ${(stated * 100).toFixed(2)}%, detected ${(100 * detected / trials).toFixed(1)}%`);
    assert.ok(detected / trials <= 0.99, `${JSON.stringify(options)}: stated ${(stated * 100).toFixed(2)}% is far above what is detectable (${(100 * detected / trials).toFixed(1)}%)`);
  }
  const line = describeDetectable(detectableChange([], [syntheticCell(random, 100, { processes: 5, cv: 0.01 })]));
  assert.match(line, /^smallest change this run detects 80% of the time .*a cell against an equally precise rerun changed by \d+\.\d% \(median over 1 cells/);
});

test('a diff says what its "undecided" means: the change its intervals decide, and how many could be "same"', async () => {
  const { detectableInComparisons, describeUndecided } = await import('../cli/stats/detectable.js');
  const { diffSummaryLines } = await import('../cli/diff/rows.js');
  // ±10% intervals: a change of about 14% is decided 80% of the time; "same within ±2%" out of reach.
  const wide = Array.from({ length: 4 }, () => ({ ratio: 1, ci: { low: 1 / 1.1, high: 1.1 }, p: 0.9, verdict: 'undecided' }));
  const detectable = detectableInComparisons(wide);
  assert.equal(detectable.compared.comparisons, 4);
  assert.ok(Math.abs(detectable.compared.medianPct - (Math.exp(Math.log(1.1) * (1 + 0.8416 / 1.96)) - 1) * 100) < 0.05);
  assert.equal(detectable.compared.sameReachable, 0);
  assert.match(describeUndecided(detectable, 4), /^4 undecided: at these intervals a change of 14\.6% is decided 80% of the time .* "same within ±2%" is reachable for 0 of 4;/);
  assert.equal(describeUndecided(detectable, 0), null, 'nothing undecided: nothing to explain');
  // ±1% intervals: "same" is reachable for each.
  assert.equal(detectableInComparisons(wide.map((c) => ({ ...c, ci: { low: 0.99, high: 1.01 } }))).compared.sameReachable, 4);
  const rows = wide.map((comparison) => ({ comparison }));
  rows.detectable = detectable;
  assert.ok(diffSummaryLines(rows).some((line) => line.startsWith('4 undecided: ')));
});
