// diff and its gate on runtime metrics: a change in GC share or loop delay with unchanged
// throughput is reported with its interval and verdict, in the JSON's `metrics`, and fails the gate
// when a --metric asks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodebench } from './helpers/cli.js';
import { okCell, writeResultFile } from './helpers/result-file.js';
import { summarizeMetricRuns } from '../cli/stats/metrics.js';

// Metrics processes with a GC share around `share` and a p99 delay around `p99` (small spread).
const metricsRuns = (share, p99) => [0.97, 1, 1.03, 0.99].map((k) => ({
  windowMs: 1000, cpuNsPerOp: 90, wallNsPerOp: 100,
  gc: { windowMs: 1000, gcShare: share * k, scavenges: 10, scavengeMs: 20 * k, markCompacts: 2, markCompactMs: 1000 * share * k - 20 * k, gcMs: 1000 * share * k },
  eventLoopDelay: { p50Ms: 1, p99Ms: p99 * k, maxMs: p99 * 2, samples: 200, method: 'test' },
  memory: { peakRssBytes: 200e6 * k }
}));
const cellWith = (share, p99) => ({ ...okCell('log-service', 'ok', { suite: 'gc' }), metrics: summarizeMetricRuns(metricsRuns(share, p99)) });

test('a GC share that doubles with the same throughput is decided higher and fails a gate on gc-share, not one on ops/s alone', async () => {
  const a = writeResultFile([cellWith(0.05, 10)]);
  const b = writeResultFile([cellWith(0.10, 10)]);
  const json = await nodebench(['diff', a, b, '--format', 'json']);
  assert.equal(json.exitCode, 0, json.stderr);
  const metrics = JSON.parse(json.stdout).metrics;
  const share = metrics.find((m) => m.metric === 'gc-share');
  assert.equal(share.verdict, 'higher');
  assert.ok(Math.abs(share.ratio - 2) < 0.01 && share.ci.low > 1.5, JSON.stringify(share));
  assert.equal(share.suite, 'gc');
  assert.equal(share.benchmark, 'log-service');
  assert.ok(['same', 'undecided'].includes(metrics.find((m) => m.metric === 'loop-delay-p99').verdict));

  const plain = await nodebench(['diff', a, b, '--fail-on-regression', '10']);
  assert.equal(plain.exitCode, 0, plain.stderr);
  assert.match(plain.stdout, /runtime metrics: \d+ comparisons .*higher/);
  assert.match(plain.stdout, /gc\/log-service .*gc-share\s+\+100\.0%/);

  const gated = await nodebench(['diff', a, b, '--fail-on-regression', '10', '--metric', 'gc-share', '--metric', 'loop-delay-p99']);
  assert.equal(gated.exitCode, 1);
  assert.match(gated.stderr, /gc\/log-service: 16\.20\.2\/baseline gc-share \+100\.0% higher \(95% CI/);
  // The first line names both gated metrics; only gc-share fails.
  assert.match(gated.stderr, /^nodebench: 1 benchmark\(s\) fail the gate \(slower by more than 10%, gc-share, loop-delay-p99 higher by more than 10%, or no longer ok;/);
  assert.doesNotMatch(gated.stderr.split('\n').slice(1).join('\n'), /loop-delay-p99/);

  const md = await nodebench(['diff', a, b, '--format', 'markdown']);
  assert.match(md.stdout, /### Runtime metrics/);
});

test('--metric names a known metric and goes with --fail-on-regression, or is one sentence and exit 2', async () => {
  const a = writeResultFile([cellWith(0.05, 10)]);
  const bogus = await nodebench(['diff', a, a, '--fail-on-regression', '5', '--metric', 'gc-shares']);
  assert.equal(bogus.exitCode, 2);
  assert.match(bogus.stderr, /^nodebench: --metric "gc-shares" is not a runtime metric; use one of gc-share, /);
  const alone = await nodebench(['diff', a, a, '--metric', 'gc-share']);
  assert.equal(alone.exitCode, 2);
  assert.match(alone.stderr, /--metric gates on a runtime metric; give --fail-on-regression too/);
});
