import { test } from 'node:test';
import assert from 'node:assert/strict';
import { quantile, median, mean, sd, t975, geomean } from '../cli/stats/basic.js';
import { summarize, countOutliers, warningsFor } from '../cli/stats/summary.js';
import { scheduleLaunches, prng } from '../cli/runner/schedule.js';

test('quantiles interpolate like R type 7', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([1, 2, 3, 4]), 2.5);
  assert.equal(quantile([1, 2, 3, 4, 5], 0.75), 4);
  assert.equal(quantile([10, 20], 0.99), 19.9);
  assert.equal(mean([1, 2, 3]), 2);
  assert.ok(Math.abs(sd([2, 4, 4, 4, 5, 5, 7, 9]) - 2.138) < 0.001);
  assert.equal(t975(1), 12.706);
  assert.equal(t975(2), 4.303);
  assert.ok(Math.abs(geomean([1, 4]) - 2) < 1e-12);
});

test('the interval is a t-interval over per-process medians', () => {
  const processes = [[100, 101, 99], [110, 111, 109], [105, 104, 106]].map((s) => ({ samplesNsPerOp: s }));
  const s = summarize(processes);
  assert.equal(s.estimate, 105);
  assert.equal(s.opsPerSec, 1e9 / 105);
  const half = 4.303 * 5 / Math.sqrt(3);
  assert.ok(Math.abs(s.ci.high - (105 + half)) < 1e-9);
  assert.ok(Math.abs(s.rme - (half / 105) * 100) < 1e-9);
  assert.match(s.ci.method, /t-interval over per-process medians \(3 processes\)/);
  assert.equal(s.samples, 9);
  assert.equal(s.min, 99);
});

test('one process gets a bootstrap interval that says what it misses', () => {
  const s = summarize([{ samplesNsPerOp: [10, 11, 9, 10, 10, 12, 8, 10] }]);
  assert.ok(s.ci.low <= 10 && s.ci.high >= 10);
  assert.match(s.ci.method, /does not include between-process variation/);
});

test('outliers and disagreeing processes produce advice', () => {
  assert.equal(countOutliers([10, 10, 11, 10, 9, 10, 100]), 1);
  const processes = [{ samplesNsPerOp: [10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 500], warmup: { stable: false } }, { samplesNsPerOp: [20, 20, 20], warmup: { stable: true } }];
  const warnings = warningsFor(summarize(processes), processes);
  assert.equal(warnings.length, 3);
  assert.match(warnings.join('\n'), /far outliers.*close them/);
  assert.match(warnings.join('\n'), /never reached a stable rate/);
  assert.match(warnings.join('\n'), /processes disagree by/);
});

test('launches are interleaved: each round runs every cell once, in a seeded shuffled order', () => {
  const launches = scheduleLaunches([0, 1, 2, 3, 4], 3, 42);
  assert.equal(launches.length, 15);
  for (let round = 0; round < 3; round++) {
    const ids = launches.slice(round * 5, round * 5 + 5);
    assert.ok(ids.every((l) => l.round === round));
    assert.deepEqual(ids.map((l) => l.cellId).sort(), [0, 1, 2, 3, 4]);
  }
  assert.deepEqual(scheduleLaunches([0, 1, 2, 3, 4], 3, 42), launches);
  assert.notDeepEqual(scheduleLaunches([0, 1, 2, 3, 4], 3, 43), launches);
  const r = prng(1);
  const draws = Array.from({ length: 1000 }, r);
  assert.ok(draws.every((x) => x >= 0 && x < 1));
  assert.ok(Math.abs(mean(draws) - 0.5) < 0.05);
});
