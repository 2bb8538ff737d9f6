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
import { gateFailures } from '../cli/diff/gate.js';
import { confirmationLines } from '../cli/diff/confirm.js';

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
