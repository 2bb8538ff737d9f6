// Metrics as measures (cli/stats/metrics.js): a cell's metric is the mean of its metrics processes
// with a 95% interval; two cells' metric compares as a ratio with an interval and a p-value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { metricInterval, compareMetric, summarizeMetricRuns, metricValues, METRIC_IDS } from '../cli/stats/metrics.js';

const run = (gcShare, markMs, p99) => ({
  windowMs: 1000, cpuNsPerOp: 90, wallNsPerOp: 100,
  gc: { windowMs: 1000, gcShare, scavenges: 3, scavengeMs: 10, markCompacts: markMs ? 1 : 0, markCompactMs: markMs, gcMs: 10 + markMs },
  eventLoopDelay: { p50Ms: 1, p99Ms: p99, maxMs: p99 * 2, samples: 100, method: 'x' },
  memory: { peakRssBytes: 100e6 }
});

test('the interval holds the values\' centre, is empty with one process, and never goes below 0 (property)', () => {
  fc.assert(fc.property(fc.array(fc.double({ min: 0, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 12 }), (values) => {
    const interval = metricInterval(values);
    assert.equal(interval.n, values.length);
    if (values.length === 1) {
      assert.equal(interval.low, null);
      return;
    }
    assert.ok(interval.low >= 0 && interval.low <= interval.estimate + 1e-9 && interval.estimate <= interval.high + 1e-9);
    assert.ok(interval.estimate >= Math.min(...values) - 1e-9 && interval.estimate <= Math.max(...values) + 1e-9);
  }));
});

test('a doubled metric compares as a ratio near 2 whose interval excludes 1; the same values as a ratio of 1', () => {
  const a = [0.10, 0.11, 0.09, 0.10];
  const b = a.map((x) => x * 2);
  const doubled = compareMetric(a, b);
  assert.ok(Math.abs(doubled.ratio - 2) < 1e-9);
  assert.ok(doubled.ci.low > 1 && doubled.p < 0.05);
  const same = compareMetric(a, a);
  assert.equal(same.ratio, 1);
  assert.ok(same.ci.low <= 1 && same.ci.high >= 1 && same.p === 1);
  // Zeros on one side: compared on the values, the interval from the difference.
  const zeros = compareMetric([0, 0, 1, 0], [5, 6, 5, 7]);
  assert.ok(zeros.ratio > 10 && zeros.ci.low > 1);
  assert.match(zeros.method, /some are 0/);
  assert.equal(compareMetric([1], [2, 3]), null);
});

test('a cell keeps every metrics process, their means in the grid\'s shape, each metric\'s interval, and the failures', () => {
  const summary = summarizeMetricRuns([run(0.2, 30, 10), { error: 'the metrics process failed: x' }, run(0.3, 50, 14)]);
  assert.equal(summary.processes.length, 3);
  assert.equal(summary.failedProcesses, 1);
  assert.ok(Math.abs(summary.gc.gcShare - 0.25) < 1e-12);
  assert.equal(summary.eventLoopDelay.p99Ms, 12);
  assert.equal(summary.intervals['gc-share'].n, 2);
  assert.ok(summary.intervals['mark-compact-ms'].low > 0);
  assert.deepEqual(metricValues(summary.processes, 'loop-delay-p99'), [10, 14]);
  assert.ok(METRIC_IDS.every((id) => id in summary.intervals));
  assert.match(summarizeMetricRuns([{ error: 'boom' }]).error, /boom/);
});
