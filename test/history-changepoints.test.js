// The change-point search (cli/history/changepoints.js) and the pooling of runs (series.js), as
// properties over generated series: nothing on a series that does not move, a large step always
// found where it is with its size inside its interval, positions unchanged by a common factor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { changePoints, extraSpread } from '../cli/history/changepoints.js';
import { poolRuns } from '../cli/history/series.js';
import { bisectHint } from '../cli/history/analysis.js';
import { INVOCATION_DRIFT } from '../cli/stats/drift.js';

const runs = Number(process.env.FUZZ_RUNS || 40);
// A point's variance: relative standard errors of 0.5% to 5% (the shipped suites' range and more).
const variance = fc.double({ min: 0.005, max: 0.05, noNaN: true }).map((se) => se * se);

test('a series that does not move has no change point and no excess spread', () => {
  fc.assert(fc.property(fc.array(variance, { minLength: 1, maxLength: 60 }), fc.double({ min: -20, max: 20, noNaN: true }), (variances, level) => {
    const points = variances.map((v) => ({ y: level, v }));
    assert.equal(extraSpread(points), 0);
    assert.deepEqual(changePoints(points).changes, []);
  }), { numRuns: runs * 5 });
});

test('a step of many standard errors is found exactly where it is, its size inside its interval', () => {
  const series = fc.integer({ min: 2, max: 50 }).chain((n) => fc.record({
    variances: fc.array(variance, { minLength: n, maxLength: n }),
    at: fc.integer({ min: 1, max: n - 1 }),
    // Both directions, from 8 of the largest standard errors up to a factor of 3.
    size: fc.double({ min: 8, max: 40, noNaN: true }),
    down: fc.boolean()
  }));
  fc.assert(fc.property(series, ({ variances, at, size, down }) => {
    const step = (down ? -1 : 1) * Math.min(Math.log(3), size * Math.sqrt(Math.max(...variances)));
    const points = variances.map((v, i) => ({ y: i >= at ? step : 0, v }));
    const { changes } = changePoints(points);
    assert.deepEqual(changes.map((c) => c.index), [at]);
    const [change] = changes;
    assert.ok(Math.abs(Math.log(change.ratio) - step) < 1e-9, `ratio ${change.ratio} for a step of ${step}`);
    assert.ok(change.low < change.ratio && change.ratio < change.high);
    assert.ok(change.p < 0.05);
  }), { numRuns: runs * 5 });
});

test('the positions of change points do not depend on the unit: a common factor changes nothing', () => {
  const noisy = fc.array(fc.record({ y: fc.double({ min: -0.2, max: 0.2, noNaN: true }), v: variance }), { minLength: 2, maxLength: 40 });
  fc.assert(fc.property(noisy, fc.double({ min: -5, max: 5, noNaN: true }), (points, shift) => {
    const at = (ps) => changePoints(ps).changes.map((c) => c.index);
    assert.deepEqual(at(points.map((p) => ({ y: p.y + shift, v: p.v }))), at(points));
  }), { numRuns: runs * 5 });
});

test('the excess spread grows with scatter the intervals do not explain, and a single shift hardly moves it', () => {
  // Alternating +-d around a level: successive differences of 2d against intervals of se.
  const alternating = (n, d, se) => Array.from({ length: n }, (_, i) => ({ y: i % 2 ? d : -d, v: se * se }));
  const small = extraSpread(alternating(30, 0.01, 0.01));
  const large = extraSpread(alternating(30, 0.05, 0.01));
  assert.ok(small < large, `${small} < ${large}`);
  const withStep = alternating(30, 0.05, 0.01).map((p, i) => ({ ...p, y: p.y + (i >= 15 ? 0.5 : 0) }));
  assert.ok(Math.abs(extraSpread(withStep) - large) / large < 0.2, 'one step moves one difference out of 29');
});

test('pooling runs of one version: the mean stays between the runs, the drift between runs is never below the 1% floor', () => {
  const run = fc.record({ y: fc.double({ min: -1, max: 1, noNaN: true }), se: fc.double({ min: 0.001, max: 0.1, noNaN: true }) });
  fc.assert(fc.property(fc.array(run, { minLength: 1, maxLength: 30 }), (runsOfVersion) => {
    const pooled = poolRuns(runsOfVersion);
    const ys = runsOfVersion.map((r) => r.y);
    assert.ok(pooled.y >= Math.min(...ys) - 1e-12 && pooled.y <= Math.max(...ys) + 1e-12);
    assert.ok(pooled.spread >= INVOCATION_DRIFT);
    // More runs never make a point less precise than the most precise run with the drift.
    const best = Math.min(...runsOfVersion.map((r) => r.se ** 2 + pooled.spread ** 2));
    assert.ok(pooled.v <= best + 1e-15);
  }), { numRuns: runs * 5 });
  // Runs that disagree far beyond their intervals: the pooled interval says so.
  const agreeing = poolRuns([{ y: 0, se: 0.01 }, { y: 0.001, se: 0.01 }, { y: -0.001, se: 0.01 }]);
  const disagreeing = poolRuns([{ y: 0, se: 0.01 }, { y: 0.2, se: 0.01 }, { y: -0.2, se: 0.01 }]);
  assert.equal(agreeing.spread, INVOCATION_DRIFT);
  assert.ok(disagreeing.spread > 0.1 && disagreeing.v > 10 * agreeing.v);
});

test('a level below what the simulated draws resolve (1 / 200) still finds a change far beyond it, by the bound', () => {
  // analysis.js judges one series selected of 21 at 5% / 21 = 0.24%: a 2x change between two
  // points of ±2.5% went unfound, the draws' early stop answering 0.5 before any draw was made.
  const points = [{ y: 0, v: 0.0125 ** 2 }, { y: Math.log(0.5), v: 0.0125 ** 2 }];
  for (const alpha of [0.05, 0.0024, 0.0001]) {
    const { changes } = changePoints(points, { alpha, minSegment: 1, extra: 0 });
    assert.equal(changes.length, 1, `alpha ${alpha}`);
    assert.ok(changes[0].p < alpha && changes[0].ratio < 0.51, JSON.stringify(changes[0]));
  }
  // Two points that do not differ beyond their intervals stay one segment at any level.
  assert.equal(changePoints([{ y: 0, v: 0.0125 ** 2 }, { y: 0.01, v: 0.0125 ** 2 }], { alpha: 0.0024, minSegment: 1, extra: 0 }).changes.length, 0);
});

// A change found in counts is searched in counts: bisect's default, time, can move the other way
// (gc cells, docs/instructions.md).
test('the bisect command a change point suggests measures what found it', () => {
  const series = (measure) => ({ measure, flags: [], suite: 'gc', benchmark: 'old-gen-marking' });
  const hint = (measure) => bisectHint(series(measure), { runtimes: ['4.9.1'] }, { runtimes: ['6.17.1'] }, null).command;
  assert.equal(hint('instructions'), 'nodebench bisect --good 4.9.1 --bad 6.17.1 --suite gc --benchmark old-gen-marking --measure instructions');
  assert.equal(hint('time'), 'nodebench bisect --good 4.9.1 --bad 6.17.1 --suite gc --benchmark old-gen-marking');
});
