import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { estimateDrift, driftFromPValues } from '../cli/stats/drift-estimate.js';
import { diffResults } from '../cli/commands/diff.js';
import { prng } from '../cli/stats/random.js';
import { nodebench } from './helpers/cli.js';
import { writeResultFile } from './helpers/result-file.js';

const random = prng(11);
const gaussian = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

// A cell of `processes` processes whose values spread `processCv` around center * e^(shift).
const cell = (benchmark, center, shift, { processes = 5, processCv = 0.02 } = {}) => {
  const values = Array.from({ length: processes }, () => center * Math.exp(shift + processCv * gaussian()));
  return {
    id: 0, runtime: '16.20.2', runtimeLabel: '16.20.2', flagSet: 'baseline', flags: [], suite: 's', benchmark, status: 'ok',
    processes: values.map((v, round) => ({
      round, iterationsPerSample: 1000, warmup: { batches: 1, ms: 1, stable: true },
      samplesNsPerOp: Array.from({ length: 10 }, () => v * (1 + 0.002 * gaussian()))
    })),
    summary: { unit: 'ns/op', opsPerSec: 1e9 / center, median: center, mean: center, rme: 1, samples: processes * 10, processes, ci: { level: 0.95, low: center, high: center, method: 'test' } }
  };
};

// Two invocations of `count` benchmarks: each side of each cell moved by drift·N(0,1); the cells
// named in `changed` really became `factor` times slower in B.
function invocations(count, drift, { changed = new Set(), factor = 1 } = {}) {
  return Array.from({ length: count }, (_, i) => ({
    a: cell(`b${i}`, 100, drift * gaussian()),
    b: cell(`b${i}`, 100, drift * gaussian() + (changed.has(i) ? Math.log(factor) : 0))
  }));
}

test('drift auto recovers a known drift between invocations, and is not raised by a minority of real changes', () => {
  const clean = diffResults(invocations(60, 0.05), { driftCv: 'auto' }).drift.pooled;
  assert.ok(clean > 0.03 && clean < 0.075, `estimated ${clean} for a drift of 0.05 per side`);
  const changed = new Set([0, 5, 10, 15, 20, 25, 30, 35, 40, 45]);
  const pairs = invocations(60, 0.05, { changed, factor: 1.4 });
  const rows = diffResults(pairs, { driftCv: 'auto' });
  const withChanges = rows.drift.pooled;
  assert.ok(withChanges < clean * 1.5 && withChanges < 0.08, `estimated ${withChanges} with 10 of 60 cells 40% slower`);
  const flagged = rows.filter((r) => r.comparison.verdict === 'slower').map((r) => Number(r.a.benchmark.slice(1)));
  assert.ok([...changed].filter((i) => flagged.includes(i)).length >= 8, `flagged ${flagged}`);
  // The default 1% would flag many unchanged cells in the same files.
  const fixed = diffResults(pairs, { driftCv: 0.01 }).filter((r, i) => !changed.has(i) && r.comparison.significant).length;
  const auto = rows.filter((r, i) => !changed.has(i) && r.comparison.significant).length;
  assert.ok(auto <= 4 && fixed > auto, `unchanged cells flagged: ${auto} with auto, ${fixed} with 1%`);
});

test('without drift the estimate is the floor; a suite with too few cells uses the pooled estimate', () => {
  const quiet = estimateDrift(invocations(40, 0));
  assert.equal(quiet.pooled, 0.01);
  const pairs = invocations(30, 0.04).map((p, i) => (i < 4 ? { a: { ...p.a, suite: 'small' }, b: { ...p.b, suite: 'small' } } : p));
  const estimate = estimateDrift(pairs);
  assert.equal(estimate.bySuite.get('small').estimate, null);
  assert.equal(estimate.driftFor('small'), estimate.pooled);
  assert.equal(estimate.bySuite.get('s').cells, 26);
  assert.equal(estimateDrift(invocations(9, 0.04)).pooled, null);
});

test('property: the drift estimate is in [0, 1], 0 for identical cells, and never lower when every change grows', () => {
  const item = fc.record({
    logRatio: fc.double({ min: -2, max: 2, noNaN: true }),
    variance: fc.double({ min: 1e-8, max: 0.05, noNaN: true }),
    df: fc.double({ min: 1, max: 60, noNaN: true })
  });
  fc.assert(fc.property(fc.array(item, { minLength: 1, maxLength: 40 }), fc.double({ min: 1, max: 4, noNaN: true }), (items, grow) => {
    const drift = driftFromPValues(items);
    assert.ok(drift >= 0 && drift <= 1);
    assert.equal(driftFromPValues(items.map((i) => ({ ...i, logRatio: 0 }))), 0);
    const grown = driftFromPValues(items.map((i) => ({ ...i, logRatio: i.logRatio * grow })));
    assert.ok(grown >= drift - 1e-9, `${grown} < ${drift}`);
  }));
});

test('nodebench diff --drift auto: says what it estimated, in the table and the JSON; refuses one file and too few cells', async () => {
  const pairs = invocations(24, 0.05);
  const fileA = writeResultFile(pairs.map((p) => p.a));
  const fileB = writeResultFile(pairs.map((p) => p.b));
  const table = await nodebench(['diff', fileA, fileB, '--drift', 'auto', '--no-color']);
  assert.equal(table.exitCode, 0, table.stderr);
  assert.match(table.stdout, /drift between the two runs estimated from the files \(--drift auto\): s \d+\.\d% from 24 cells per side/);
  const json = JSON.parse((await nodebench(['diff', fileA, fileB, '--drift', 'auto', '--json'])).stdout);
  assert.equal(json.drift.estimatedFrom, 24);
  assert.ok(json.drift.pooled >= 0.01);
  assert.match(json.rows[0].comparison.method, /drift between invocations per side/);
  const oneFile = await nodebench(['diff', fileA, '--from', '16.20.2/baseline', '--to', '16.20.2/baseline', '--drift', 'auto']);
  assert.equal(oneFile.exitCode, 2);
  assert.match(oneFile.stderr, /--drift auto estimates the drift between two separate result files/);
  const few = await nodebench(['diff', writeResultFile(pairs.slice(0, 5).map((p) => p.a)), writeResultFile(pairs.slice(0, 5).map((p) => p.b)), '--drift', 'auto']);
  assert.equal(few.exitCode, 2);
  assert.match(few.stderr, /needs at least 10 benchmarks .* these have 5/);
  assert.doesNotMatch(few.stderr, /\n\s+at /);
});
