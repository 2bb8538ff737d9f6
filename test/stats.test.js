import { test } from 'node:test';
import assert from 'node:assert/strict';
import { quantile, median, mean, sd, t975, geomean } from '../cli/stats/basic.js';
import { summarize, countOutliers, warningsFor } from '../cli/stats/summary.js';
import { scheduleRound } from '../cli/policy/schedule.js';
import { prng } from '../cli/stats/random.js';
import { logInterval, yuen, trimCount, hasFarOutlier } from '../cli/stats/robust.js';
import { judgeProcess, keptSampleIndexes, quietReferences } from '../cli/stats/disturbance.js';

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

test('with up to 4 processes the interval is a t-interval over the logs of per-process medians', () => {
  const processes = [[100, 101, 99], [110, 111, 109], [105, 104, 106]].map((s) => ({ samplesNsPerOp: s }));
  const s = summarize(processes);
  const logs = [100, 110, 105].map(Math.log);
  const m = mean(logs);
  assert.ok(Math.abs(s.estimate - Math.exp(m)) < 1e-9);
  const half = 4.303 * sd(logs) / Math.sqrt(3);
  assert.ok(Math.abs(s.ci.high - Math.exp(m + half)) < 1e-9);
  assert.ok(Math.abs(s.ci.low - Math.exp(m - half)) < 1e-9);
  assert.match(s.ci.method, /mean with a t-interval over the logs of 3 per-process medians/);
  assert.equal(s.samples, 9);
  assert.equal(s.min, 99);
});

test('from 5 processes on, one process on a slow period cannot blow up the estimate or its margin', () => {
  const steady = [262, 305, 292, 274, 321];
  const withSlow = [...steady, 666];
  const quiet = summarize(steady.map((m) => ({ samplesNsPerOp: [m * 0.99, m, m * 1.01] })));
  const disturbed = summarize(withSlow.map((m) => ({ samplesNsPerOp: [m * 0.99, m, m * 1.01] })));
  // The plain mean moves by 21% and its t-interval gives +-46% (the example).
  assert.ok(Math.abs(disturbed.estimate / quiet.estimate - 1) < 0.03, `${disturbed.estimate} vs ${quiet.estimate}`);
  assert.ok(disturbed.rme < 1.5 * quiet.rme, `rme ${disturbed.rme} vs ${quiet.rme}`);
  assert.match(disturbed.ci.method, /20%-trimmed mean/);
});

test('without a far outlier, five processes get the t-interval over all of them, not a trimmed one 2.6x as wide', () => {
  const logs = [262, 305, 292, 274, 321].map(Math.log);
  const t = logInterval(logs, 'per-process medians');
  assert.match(t.method, /mean with a t-interval over the logs of 5/);
  const half = t975(4) * sd(logs) / Math.sqrt(5);
  assert.ok(Math.abs(Math.log(t.high) - (mean(logs) + half)) < 1e-9);
  assert.equal(hasFarOutlier(logs), false);
  assert.equal(hasFarOutlier([...logs, Math.log(666)]), true);
  // Values that agree to 0.1% do not make a 1% neighbour an outlier (the MAD floor).
  assert.equal(hasFarOutlier([100, 100.1, 99.9, 100.05, 101].map(Math.log)), false);
});

test('the trimmed interval covers the true value about 95% of the time for normal data', () => {
  const random = prng(7);
  const normal = () => Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random());
  let covered = 0;
  const trials = 2000;
  for (let i = 0; i < trials; i++) {
    const logs = Array.from({ length: 6 }, () => 0.02 * normal());
    const t = logInterval(logs, 'x');
    if (t.low <= 1 && t.high >= 1) covered++;
  }
  assert.ok(covered / trials > 0.92 && covered / trials < 0.985, `coverage ${covered / trials}`);
});

test('Yuen reduces to Welch without trimming', () => {
  const a = [1, 2, 3].map(Math.log);
  const b = [2, 3, 4, 5].map(Math.log);
  const y = yuen(a, b);
  const va = (sd(a) ** 2) / 3;
  const vb = (sd(b) ** 2) / 4;
  assert.ok(Math.abs(y.se - Math.sqrt(va + vb)) < 1e-12);
  assert.ok(Math.abs(y.df - (va + vb) ** 2 / (va ** 2 / 2 + vb ** 2 / 3)) < 1e-9);
  assert.equal(trimCount(4), 0);
  assert.equal(trimCount(5), 1);
  assert.equal(trimCount(10), 2);
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
  assert.deepEqual(warnings.map((w) => w.code), ['outliers', 'warmup-unstable', 'processes-disagree']);
  const text = warnings.map((w) => w.message).join('\n');
  assert.match(text, /far outliers.*close them/);
  assert.match(text, /never reached a stable rate/);
  assert.match(text, /processes disagree by/);
});

test('a round runs in blocks: every cell of one benchmark back to back, blocks shuffled by a seed', () => {
  const cells = [];
  for (const benchmark of ['a', 'b', 'c']) {
    for (const runtimeLabel of ['4', '16', '24']) cells.push({ id: cells.length, suite: 's', benchmark, runtimeLabel });
  }
  const launches = scheduleRound(cells, 2, 42);
  assert.equal(launches.length, 9);
  assert.ok(launches.every((l) => l.round === 2));
  const rows = launches.map((l) => cells[l.cellId].benchmark);
  for (let block = 0; block < 3; block++) assert.equal(new Set(rows.slice(block * 3, block * 3 + 3)).size, 1);
  assert.deepEqual(launches.map((l) => l.cellId).sort((x, y) => x - y), cells.map((c) => c.id));
  assert.deepEqual(scheduleRound(cells, 2, 42), launches);
  assert.notDeepEqual(scheduleRound(cells, 2, 43).map((l) => l.cellId), launches.map((l) => l.cellId));
  const r = prng(1);
  const draws = Array.from({ length: 1000 }, r);
  assert.ok(draws.every((x) => x >= 0 && x < 1));
  assert.ok(Math.abs(mean(draws) - 0.5) < 0.05);
});

function record(medianNs, referenceNs, { waits = [], steal = 0 } = {}) {
  const samplesNsPerOp = Array.from({ length: 10 }, (_, i) => medianNs * (1 + (i - 5) / 1000));
  return { round: 0, samplesNsPerOp, iterationsPerSample: 1000, disturbance: { referenceNs: samplesNsPerOp.map(() => referenceNs), runQueueWaitNs: samplesNsPerOp.map((_, i) => waits[i] ?? 0), stealShare: steal } };
}

test('a process whose reference (clock reads) ran slow, or that lost its CPU, is set aside with the reason; the others are kept', () => {
  const quiet = 1e6;
  assert.equal(judgeProcess(record(100, quiet * 1.03), quiet, { thresholdPct: 8 }), null);
  // The reference's own spread between quiet processes of one cell reaches 20%: not a disturbance.
  assert.equal(judgeProcess(record(100, quiet * 1.2), quiet, { thresholdPct: 8 }), null);
  assert.match(judgeProcess(record(100, quiet * 1.3), quiet, { thresholdPct: 8 }).reason, /ran 30% slower than this runtime's quiet processes in this run/);
  assert.equal(judgeProcess(record(100, quiet * 1.3), quiet, { thresholdPct: 40 }), null, 'a larger disturbancePct raises the bar');
  assert.match(judgeProcess(record(100, quiet * 1.9), quiet, { thresholdPct: 8 }).reason, /reference \(clock reads\) ran 90% slower/);
  assert.match(judgeProcess(record(100, quiet, { steal: 0.1 }), quiet, { thresholdPct: 8, cores: 2 }).reason, /steal/);
  // Samples of 100 ns x 1000 iterations = 100 µs; a 50 µs wait sets that sample aside.
  const lostCpu = record(100, quiet, { waits: [50e3, 0, 0, 50e3] });
  assert.deepEqual(keptSampleIndexes(lostCpu, 8), [1, 2, 4, 5, 6, 7, 8, 9]);
  assert.equal(judgeProcess(lostCpu, quiet, { thresholdPct: 8 }), null);
  assert.match(judgeProcess(record(100, quiet, { waits: Array(8).fill(50e3) }), quiet, { thresholdPct: 8 }).reason, /held its CPU during 8 of 10 samples/);
});

test('the quiet reference of a cell is a low quantile of its processes\' fastest readings, so slow periods and single slow readings do not raise it', () => {
  const cell = (id, refs) => ({ id, processes: refs.map((r) => record(100, r)) });
  const quiet = quietReferences([cell(1, [100, 101, 99, 200, 210]), cell(2, [300, 300])]);
  assert.ok(quiet.get(1) >= 99 && quiet.get(1) <= 101);
  assert.equal(quiet.get(2), 300);
  const oneGcInAReading = record(100, 100);
  oneGcInAReading.disturbance.referenceNs[3] = 900;
  assert.equal(quietReferences([{ id: 3, processes: [oneGcInAReading] }]).get(3), 100);
});

test('set-aside processes are left out; all count again only when a multi-process cell keeps fewer than two', async () => {
  const { keptProcesses } = await import('../cli/cell-identity.js');
  const p = (round, { setAside = false, rerun = false } = {}) => ({ round, setAside: setAside ? { reason: 'slow' } : undefined, rerun: rerun || undefined, samplesNsPerOp: [1] });
  assert.equal(keptProcesses({ processes: [p(0), p(1, { setAside: true }), p(2), p(1, { rerun: true })] }).length, 3);
  // --quick: one planned process, set aside and replaced: the quiet replacement alone counts.
  assert.equal(keptProcesses({ processes: [p(0, { setAside: true }), p(0, { rerun: true })] }).length, 1);
  // Four planned, one quiet left: all count (with the warning).
  assert.equal(keptProcesses({ processes: [p(0), p(1, { setAside: true }), p(2, { setAside: true }), p(3, { setAside: true })] }).length, 4);
});

// A whole command run once per column (exec --processes 1) is one observation a side: its ratio is
// shown, but no margin and no verdict: a zero-width interval from one number would decide anything.
test('one observation a side: no margin, an unbounded ratio interval, never decided', async () => {
  const { compareCells } = await import('../cli/stats/compare.js');
  const once = (ns) => ({ status: 'ok', processes: [{ samplesNsPerOp: [ns] }], summary: summarize([{ samplesNsPerOp: [ns] }]) });
  assert.equal(once(1e9).summary.rme, null);
  const c = compareCells(once(1e9), once(0.5e9));
  assert.ok(Math.abs(c.ratio - 2) < 1e-12);
  assert.equal(c.verdict, 'undecided');
  assert.equal(c.p, 1);
  assert.deepEqual([c.ci.low, c.ci.high], [0, Infinity]);
  // Two samples of one process give no interval either: the samples of one process say nothing of
  // the next (2026-11-27: processes of one cell 2x apart, each one's samples in agreement).
  const twice = { status: 'ok', processes: [{ samplesNsPerOp: [1e9, 1.1e9] }] };
  assert.equal(compareCells(twice, twice).ci.high, Infinity);
  assert.match(compareCells(twice, twice).method, /one process on a side/);
});

// A single process whose disturbed samples were set aside: its ratio and verdict are judged on the
// samples the table counts, not on all of them (a real --quick cell printed 26.9M against 28.9M
// ops/s and was called 0.32x slower).
test('one process: the comparison uses the kept samples and the table\'s value', async () => {
  const { compareCells } = await import('../cli/stats/compare.js');
  const clean = { status: 'ok', processes: [{ samplesNsPerOp: [100, 101, 99, 100, 100] }] };
  const disturbed = { status: 'ok', processes: [{ samplesNsPerOp: [100, 101, 1000, 1000, 1000], keptSamples: [0, 1] }] };
  const c = compareCells(clean, disturbed);
  assert.ok(Math.abs(c.ratio - 1) < 0.02, `ratio ${c.ratio}`);
  assert.notEqual(c.verdict, 'slower');
});
