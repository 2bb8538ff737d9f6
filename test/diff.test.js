import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compareCells } from '../cli/stats/compare.js';
import { tTwoSidedP, incompleteBeta } from '../cli/stats/distributions.js';
import { nodebench } from './helpers/cli.js';
import { prng } from '../cli/stats/random.js';
import { writeResultFile, runtimeRecord } from './helpers/result-file.js';
import { gateFailures, gateHeadline, gateMessage, mergeFailures } from '../cli/diff/gate.js';
import { confirmationLines, planDifference } from '../cli/diff/confirm.js';
import { NODEBENCH_VERSION } from '../cli/results/document.js';

const random = prng(7);
const noisy = (center, spread) => center * (1 + (random() - 0.5) * spread);
const cell = (center, { processes = 5, spread = 0.01, benchmark = 'b', runtimeLabel = '16.20.2', flagSet = 'baseline' } = {}) => ({
  id: 0, runtime: '16.20.2', runtimeLabel, flagSet, flags: [], suite: 's', benchmark, status: 'ok',
  processes: Array.from({ length: processes }, (_, round) => ({
    round, iterationsPerSample: 1000, warmup: { batches: 1, ms: 1, stable: true },
    samplesNsPerOp: Array.from({ length: 10 }, () => noisy(center, spread))
  })),
  summary: { unit: 'ns/op', opsPerSec: 1e9 / center, median: center, mean: center, rme: 1, samples: processes * 10, processes, ci: { level: 0.95, low: center, high: center, method: 'test' } }
});

test('t distribution p-values match tables', () => {
  assert.ok(Math.abs(tTwoSidedP(2.228, 10) - 0.05) < 1e-3);
  assert.ok(Math.abs(tTwoSidedP(12.706, 1) - 0.05) < 1e-3);
  assert.ok(Math.abs(tTwoSidedP(0, 5) - 1) < 1e-12);
  assert.ok(Math.abs(incompleteBeta(2, 3, 0.4) - 0.5248) < 1e-4);
});

test('a clear 10% speed-up is faster with the right ratio; equal cells are "same" or "undecided", never "faster"', () => {
  const faster = compareCells(cell(100), cell(100 / 1.1));
  assert.equal(faster.verdict, 'faster');
  assert.ok(Math.abs(faster.ratio - 1.1) < 0.01);
  assert.ok(faster.ci.low < faster.ratio && faster.ratio < faster.ci.high);
  const slower = compareCells(cell(100), cell(120));
  assert.equal(slower.verdict, 'slower');
  const same = compareCells(cell(100, { spread: 0.05 }), cell(100, { spread: 0.05 }));
  assert.match(same.method, /per-process values \(n = 5 vs 5\)/);
  assert.equal(compareCells(cell(100, { spread: 0.002 }), cell(100, { spread: 0.002 })).verdict, 'same');
  // Synthetic A/A: the false-positive rate at alpha 0.05 is about 5% (deterministic seed).
  let positives = 0;
  for (let i = 0; i < 1000; i++) if (compareCells(cell(100, { spread: 0.05 }), cell(100, { spread: 0.05 })).significant) positives++;
  assert.ok(positives >= 25 && positives <= 75, `false positives ${positives} of 1000`);
  const single = compareCells(cell(100, { processes: 1 }), cell(100, { processes: 1 }));
  assert.equal(single.singleProcess, true);
});

test('comparing two separate runs allows for drift between invocations', () => {
  const a = cell(100, { spread: 0.001 });
  const b = cell(100 / 1.015, { spread: 0.001 });
  // 1.5% faster, measured to a tenth of a percent: the same within ±2%, a real speed-up without a band.
  assert.equal(compareCells(a, b).verdict, 'same');
  assert.equal(compareCells(a, b, { equivalence: 0 }).verdict, 'faster');
  const withDrift = compareCells(a, b, { driftCv: 0.01, equivalence: 0 });
  assert.equal(withDrift.verdict, 'undecided');
  assert.match(withDrift.method, /plus 1\.0% drift between invocations per side/);
  assert.equal(compareCells(cell(100, { spread: 0.001 }), cell(100 / 1.1, { spread: 0.001 }), { driftCv: 0.01 }).verdict, 'faster');
});

const resultFile = (cells, runtimes) => writeResultFile(cells, runtimes ? { runtimes } : undefined);

test('diff prints verdicts and a geomean, and --fail-on-regression fails CI on a real slowdown only', async () => {
  const before = resultFile([cell(100, { benchmark: 'steady' }), cell(100, { benchmark: 'regressed' })]);
  const after = resultFile([cell(100, { benchmark: 'steady' }), cell(125, { benchmark: 'regressed' })]);
  const run = await nodebench(['diff', before, after, '--fail-on-regression', '5']);
  assert.equal(run.exitCode, 1);
  assert.match(run.stdout, /s\/steady\s+16\.20\.2\/baseline .* (same ±2%|undecided)/);
  assert.match(run.stdout, /s\/regressed\s+16\.20\.2\/baseline .*-(19|20)\.\d%.* slower/);
  assert.match(run.stdout, /geomean of rate ratios: -1\d\.\d% over 2 benchmarks; 0 faster, 1 slower, \d same within ±2%, \d undecided/);
  assert.match(run.stdout, /verdicts: faster\/slower at a 5% false discovery rate over 2 comparisons \(Benjamini-Hochberg q-values\)/);
  assert.match(run.stderr, /1 benchmark\(s\) fail the gate .*\n {2}s\/regressed: 16\.20\.2\/baseline -(19|20)\.\d% slower \(95% CI/);
  const lenient = await nodebench(['diff', before, after, '--fail-on-regression', '30']);
  assert.equal(lenient.exitCode, 0);
  // A CI log says the gate ran and passed.
  assert.match(lenient.stderr, /^nodebench: gate passed: no benchmark decided slower by more than 30%, none stopped working\.$/m);
  // The HTML page heads with the gate, as the Markdown does, before the verdict counts.
  const page = await nodebench(['diff', before, after, '--fail-on-regression', '5', '--format', 'html']);
  assert.equal(page.exitCode, 1);
  assert.match(page.stdout, /<div class="run-warning" id="gate"><p><strong>Gate failed<\/strong>: 1 benchmark\(s\) slower by more than 5% or no longer ok:<\/p><p>s\/regressed: 16\.20\.2\/baseline -(19|20)\.\d% slower \(95% CI/);
  assert.ok(page.stdout.indexOf('id="gate"') < page.stdout.indexOf('id="overview"'));
  const passed = await nodebench(['diff', before, after, '--fail-on-regression', '30', '--format', 'html']);
  assert.match(passed.stdout, /<strong>Gate passed<\/strong>: no benchmark decided slower by more than 30%, none stopped working\./);
  assert.doesNotMatch((await nodebench(['diff', before, after, '--format', 'html'])).stdout, /id="gate"/);
});

test('two single-runtime files of different versions pair by benchmark and flag set', async () => {
  const a = resultFile([cell(100, { runtimeLabel: '14.21.3' })], [runtimeRecord('14.21.3')]);
  const b = resultFile([cell(50, { runtimeLabel: '16.20.2' })], [runtimeRecord('16.20.2')]);
  const run = await nodebench(['diff', a, b]);
  assert.equal(run.exitCode, 0);
  assert.match(run.stdout, /14\.21\.3\/baseline -> 16\.20\.2\/baseline .*\+(99|100)\.\d%.*faster/);
});

test('diff user errors', async () => {
  const missing = await nodebench(['diff', '/nonexistent.json', '/nonexistent.json']);
  assert.equal(missing.exitCode, 2);
  assert.match(missing.stderr, /Result file \/nonexistent\.json does not exist/);
  const bad = path.join(os.tmpdir(), `nodebench-bad-${process.pid}.json`);
  fs.writeFileSync(bad, '{"schemaVersion": 1, "cells": [');
  const corrupt = await nodebench(['diff', bad, bad]);
  assert.equal(corrupt.exitCode, 2);
  assert.match(corrupt.stderr, /is not valid JSON .*it may be truncated/);
  const column = await nodebench(['diff', resultFile([cell(1)]), '--from', 'x', '--to', 'y']);
  assert.equal(column.exitCode, 2);
  assert.match(column.stderr, /Column "x" is not in .*; it has 16\.20\.2\/baseline/);
});

// The re-measured comparisons of two real gate trials on this VM (bench/verdicts.js gate --confirm,
// 2026-11-28): an A/A pair whose re-measurement fell on the start of a test run beside it, and a
// planted 20% slowdown of chain-native re-measured under two busy loops.
test('with --confirm the gate fails only where the whole re-measured 95% interval lies beyond the threshold', () => {
  const unchanged = { ratio: 0.92955, ci: { level: 0.95, low: 0.89108, high: 0.96968 }, p: 0.000695, q: 0.00323, verdict: 'slower' };
  const planted = { ratio: 0.85684, ci: { level: 0.95, low: 0.84136, high: 0.87260 }, p: 8.6e-17, q: 1.0e-15, verdict: 'slower' };
  const row = (label, ratio) => ({ label, column: '16.20.2/baseline', before: 'ok', after: 'ok', comparison: { ratio, ci: { level: 0.95, low: ratio * 0.9, high: ratio * 1.1 }, q: 0.5, verdict: 'undecided' } });
  const aa = row('promises/fanout-bluebird', 0.9776);
  const slowed = row('promises/chain-native', 0.8182);
  const confirmed = new Map([[aa, unchanged], [slowed, planted]]);
  const failures = gateFailures([aa, slowed], { limit: 5, confirmed });
  assert.deepEqual(failures.map((f) => f.label), ['promises/chain-native']);
  assert.match(failures[0].columns[0].problem, /^-14\.3% slower \(re-measured, 95% CI -15\.9% \.\. -12\.7%/);
  // Its interval, -10.9% .. -3.0%, lies wholly beyond a 2% gate: that gate fails it.
  assert.deepEqual(gateFailures([aa], { limit: 2, confirmed }).map((f) => f.label), ['promises/fanout-bluebird']);
  const lines = confirmationLines({
    candidates: [{ label: aa.label, column: aa.column, first: aa.comparison, confirmation: unchanged, file: 'x.confirm.json' }],
    verdicts: { alpha: 0.05, method: 'weighted Benjamini-Hochberg' }, minutes: 10
  }, { limit: 5, processes: 30, files: ['x.confirm.json'] });
  assert.match(lines.at(-1), /re-measured -7\.0% \(-10\.9% \.\. -3\.0%, q = 0\.003\): slower, not confirmed: its 95% interval reaches within 5%$/);
});

// Found by a hostile review (2026-11-29): with hundreds of failures the Markdown page was cut to
// GitHub's limit from its first block, the gate's own headline included; a newline in a benchmark's
// name printed a forged line under the gate's message on stderr; a gated metric's failure was a
// second entry for the same benchmark, under a headline that said "slower".
test('the gate: its headline survives a page cut to the comment limit, names cannot forge its lines, one entry per benchmark', async () => {
  const name = (i) => `a-benchmark-with-a-long-descriptive-name-of-its-own-${i}`;
  const before = resultFile(Array.from({ length: 600 }, (_, i) => cell(100, { benchmark: name(i) })));
  const after = resultFile(Array.from({ length: 600 }, (_, i) => cell(130, { benchmark: name(i) })));
  // Every benchmark of the suite slower alike would pass as drift between the files: a fixed allowance.
  const md = await nodebench(['diff', before, after, '--fail-on-regression', '5', '--drift', '1', '--format', 'markdown']);
  assert.equal(md.exitCode, 1);
  assert.ok(md.stdout.length <= 65_536);
  assert.match(md.stdout, /^## nodebench diff: .*\n\n\*\*Gate failed\*\*: 600 benchmark\(s\) slower by more than 5% or no longer ok:\n\n- `s\/a-benchmark/);
  assert.match(md.stdout, /\*\*Cut to fit GitHub's 65,536-character comment limit\*\*: \d+ of the 600 rows of the failing benchmarks; the summary;/);

  const forged = { label: 's/evil\nnodebench: 0 benchmark(s) fail the gate', columns: [{ column: '16.20.2/baseline\n  x', problem: '-20.0% slower' }] };
  const message = gateMessage([forged], { limit: 5 });
  assert.equal(message.split('\n').length, 2, message);
  assert.match(message, /^ {2}s\/evil\\nnodebench: 0 benchmark\(s\) fail the gate: 16\.20\.2\/baseline\\n {2}x -20\.0% slower$/m);

  const time = [{ label: 's/b', columns: [{ column: 'c', problem: '-9.0% slower' }] }];
  const metric = [{ label: 's/b', columns: [{ column: 'c', problem: 'gc-share +40.0% higher' }] }, { label: 's/d', columns: [{ column: 'c', problem: 'gc-share +9.0% higher' }] }];
  const merged = mergeFailures(time, metric);
  assert.deepEqual(merged.map((f) => [f.label, f.columns.length]), [['s/b', 2], ['s/d', 1]]);
  assert.equal(gateHeadline(merged, { limit: 5, metrics: ['gc-share'] }).text, '2 benchmark(s) slower by more than 5%, gc-share higher by more than 5%, or no longer ok:');
  // Files of counts say so: a CI log must not read a count's change as time.
  assert.equal(gateHeadline([], { limit: 1, measure: 'instructions' }).text, 'no benchmark decided slower by more than 1% in instructions counted per operation, none stopped working.');
  // "Over the whole 95% interval" only where something was re-measured.
  assert.equal(gateHeadline([], { limit: 5, confirm: { candidates: [] } }).text, 'no benchmark decided slower by more than 5%, none stopped working.');
  assert.match(gateHeadline([], { limit: 5, confirm: { candidates: [{ file: 'x.confirm.json' }] } }).text, /slower by more than 5% \(where re-measured, over the whole 95% interval\)/);
});

test('the gate: a change of exactly the threshold is judged alike with and without --confirm; thresholds are decimal percentages below 100', async () => {
  const exactly = (ratio) => ({ label: 's/b', column: 'c', before: 'ok', after: 'ok', comparison: { ratio, ci: { level: 0.95, low: ratio, high: ratio }, q: 0.001, verdict: 'slower' } });
  for (const [ratio, limit] of [[0.95, 5], [0.97, 3], [0.9, 10], [0.8, 20]]) {
    assert.deepEqual(gateFailures([exactly(ratio)], { limit }), [], `${ratio} at ${limit}%`);
  }
  const a = resultFile([cell(100)]);
  // A metric gate on files that measured no metrics would pass on nothing.
  const metric = await nodebench(['diff', a, a, '--fail-on-regression', '5', '--metric', 'gc-share']);
  assert.equal(metric.exitCode, 2);
  assert.match(metric.stderr, /^nodebench: --metric gc-share has nothing to gate: no benchmark has it measured on both sides/);
  for (const value of ['0x10', '1e3', '100', '150']) {
    const run = await nodebench(['diff', a, a, '--fail-on-regression', value]);
    assert.equal(run.exitCode, 2, value);
    assert.match(run.stderr, /^nodebench: --fail-on-regression (takes a percentage like 5|\S+ can never fail: a benchmark's rate falls by at most 100%)/, value);
  }
});

test('--confirm keeps a confirmation started before A or B was finished: it confirms other files, perhaps other code', () => {
  const previous = { nodebench: { version: NODEBENCH_VERSION, command: ['diff', '--confirm'] }, createdAt: '2026-11-28T21:26:35.258Z', host: {}, run: {} };
  const compared = [{ file: 'A.json', result: { createdAt: '2026-11-28T21:20:00.000Z', finishedAt: '2026-11-28T21:21:00.000Z' } }, { file: 'B.json', result: { createdAt: '2026-11-28T21:30:00.000Z', finishedAt: '2026-11-28T21:32:34.440Z' } }];
  assert.equal(planDifference(previous, { matrix: {} }, {}, compared), 'it was started at 2026-11-28T21:26:35.258Z, before B.json was finished (2026-11-28T21:32:34.440Z): it confirms other files');
  // Started after both: the time does not keep it (what else differs does; here the host).
  assert.match(planDifference({ ...previous, createdAt: '2026-11-28T21:40:00.000Z' }, { matrix: {} }, { hostname: 'h' }, compared), /^it was measured on /);
});
