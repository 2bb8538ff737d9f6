import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { estimateDrift, driftFromPValues, solveMedianP, AUTO_MIN_SUITE_CELLS, AUTO_FLOOR } from '../cli/stats/drift-estimate.js';
import { diffResults } from '../cli/diff/compare.js';
import { prng } from '../cli/stats/random.js';
import { nodebench } from './helpers/cli.js';
import { writeResultFile, resultObject } from './helpers/result-file.js';
import { history } from './helpers/history.js';
import { summarize } from '../cli/stats/summary.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const gaussianFrom = (random) => () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

// A cell whose processes spread `processCv` around center·e^shift.
function cell(gaussian, benchmark, center, shift, { processes = 5, processCv = 0.02, suite = 's' } = {}) {
  const values = Array.from({ length: processes }, () => center * Math.exp(shift + processCv * gaussian()));
  return {
    id: 0, runtime: '16.20.2', runtimeLabel: '16.20.2', flagSet: 'baseline', flags: [], suite, benchmark, status: 'ok',
    processes: values.map((v, round) => ({
      round, iterationsPerSample: 1000, warmup: { batches: 1, ms: 1, stable: true },
      samplesNsPerOp: Array.from({ length: 10 }, () => v * (1 + 0.002 * gaussian()))
    })),
    summary: { unit: 'ns/op', opsPerSec: 1e9 / center, median: center, mean: center, rme: 1, samples: processes * 10, processes, ci: { level: 0.95, low: center, high: center, method: 'test' } }
  };
}

// Two invocations of `count` benchmarks, each side of each cell moved by drift·N(0,1).
function invocations(seed, count, drift, options = {}) {
  const gaussian = gaussianFrom(prng(seed));
  return Array.from({ length: count }, (_, i) => ({
    a: cell(gaussian, `b${i}`, 100, drift * gaussian(), options),
    b: cell(gaussian, `b${i}`, 100, drift * gaussian(), options)
  }));
}

// The same pairs with B's cells listed in `which` made `factor` times slower (ns/op times factor).
const slowDown = (pairs, which, factor) => pairs.map((p, i) => (!which(i) ? p : {
  a: p.a,
  b: { ...p.b, processes: p.b.processes.map((proc) => ({ ...proc, samplesNsPerOp: proc.samplesNsPerOp.map((x) => x * factor) })) }
}));

const withoutSummary = ({ summary, ...rest }) => rest;
const flaggedSlower = (rows) => rows.filter((r) => r.comparison.verdict === 'slower').length;

test('drift auto recovers a known drift per side from the scatter of the cells', () => {
  for (const seed of [1, 2, 3]) {
    const estimate = diffResults(invocations(seed, 60, 0.05), { driftCv: 'auto' }).drift;
    assert.ok(estimate.pooled > 0.035 && estimate.pooled < 0.07, `seed ${seed}: estimated ${estimate.pooled} for 0.05`);
    assert.equal(estimate.bySuite.get('s').used, estimate.pooled);
  }
});

test('a minority of real changes raises the estimate little and those cells are still flagged; the default 1% flags unchanged ones', () => {
  const base = invocations(4, 60, 0.05);
  const clean = diffResults(base, { driftCv: 'auto' }).drift.pooled;
  const changed = (i) => i % 6 === 0;
  const pairs = slowDown(base, changed, 1.4);
  const rows = diffResults(pairs, { driftCv: 'auto' });
  assert.ok(rows.drift.pooled < clean * 1.25, `${rows.drift.pooled} with 10 of 60 cells 40% slower, ${clean} without`);
  assert.ok(rows.filter((r, i) => changed(i) && r.comparison.verdict === 'slower').length >= 9);
  const unchangedFlagged = (list) => list.filter((r, i) => !changed(i) && r.comparison.significant).length;
  const fixed = unchangedFlagged(diffResults(pairs, { driftCv: 0.01 }));
  assert.ok(unchangedFlagged(rows) <= 4 && fixed > 10, `unchanged cells flagged: ${unchangedFlagged(rows)} with auto, ${fixed} with 1%`);
});

test('a shift every benchmark of a suite shares may be the host\'s: allowed for and not decided; a slowdown of some benchmarks beyond it still is', () => {
  const pairs = slowDown(invocations(5, 30, 0.01), () => true, 1.05);
  const rows = diffResults(pairs, { driftCv: 'auto' });
  const suite = rows.drift.bySuite.get('s');
  assert.ok(Math.abs(suite.shift - 1 / 1.05) < 0.01, `shift ${suite.shift}`);
  // Both sides' drift together make the whole shift.
  assert.ok(Math.abs(suite.used - Math.log(1.05) / Math.SQRT2) < 0.005, `used ${suite.used}`);
  assert.equal(flaggedSlower(rows), 0);
  // With the 1% of before, the shared shift was decided in about half the cells: between two
  // separate runs that is as likely the host (an A/A pair of gate trials on 2026-11-28 moved 18.7%).
  assert.ok(flaggedSlower(diffResults(pairs, { driftCv: 0.01 })) >= 12);
  // A third of the benchmarks 15% slower, the rest unchanged: the median does not move, and they are decided.
  const some = (i) => i % 3 === 0;
  const partly = diffResults(slowDown(invocations(6, 30, 0.01), some, 1.15), { driftCv: 'auto' });
  assert.ok(partly.drift.bySuite.get('s').shiftAllowance < 0.01, JSON.stringify([...partly.drift.bySuite]));
  assert.ok(partly.filter((r, i) => some(i) && r.comparison.verdict === 'slower').length >= 9, `${flaggedSlower(partly)} slower`);
  assert.equal(partly.filter((r, i) => !some(i) && r.comparison.verdict === 'slower').length, 0);
});

test('a suite of one or two benchmarks has no shared shift of its own: its change is decided against the shift all cells share', () => {
  // Before, its own median was its change, and the allowance (|shift| / √2 per side) kept it
  // undecided however large: 2x slower came out 0.50x [0.11, 2.21], undecided (review, 2026-11-28).
  const inSuite = (suite) => (p) => ({ a: { ...p.a, suite }, b: { ...p.b, suite } });
  const unchanged = invocations(14, 20, 0.01);
  const lone = slowDown(invocations(15, 1, 0.01), () => true, 2).map(inSuite('lone'));
  const pair = slowDown(invocations(16, 2, 0.01), () => true, 1.5).map(inSuite('pair'));
  const rows = diffResults([...unchanged, ...lone, ...pair], { driftCv: 'auto' });
  for (const suite of ['lone', 'pair']) {
    const own = rows.drift.bySuite.get(suite);
    assert.equal(own.shiftFrom, 'all', JSON.stringify(own));
    assert.ok(own.shiftAllowance < 0.01, JSON.stringify(own));
    const ownRows = rows.filter((r) => r.a.suite === suite);
    assert.equal(ownRows.length, suite === 'lone' ? 1 : 2);
    for (const row of ownRows) assert.equal(row.comparison.verdict, 'slower', JSON.stringify(row.comparison));
  }
  assert.equal(rows.drift.bySuite.get('s').shiftFrom, 'suite');
  assert.equal(rows.filter((r) => r.a.suite === 's' && r.comparison.verdict === 'slower').length, 0);
});

test('history: a one-benchmark suite 2x slower between two runs is a change point beside an unchanged suite', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-small-suite-'));
  const unchanged = invocations(17, 20, 0.01);
  const [lone] = slowDown(invocations(18, 1, 0.01), () => true, 2).map((p) => ({ a: { ...p.a, suite: 'lone' }, b: { ...p.b, suite: 'lone' } }));
  // History reads each cell's summary: the product's own, from the processes.
  const summarized = (cells) => cells.map((c) => ({ ...c, summary: summarize(c.processes) }));
  const write = (name, cells, createdAt) => {
    const result = { ...resultObject(summarized(cells)), createdAt, suites: ['s', 'lone'].map((suite) => ({ name: suite, file: `${suite}.js`, params: {}, benchmarks: [] })) };
    const file = path.join(dir, `${name}.json`);
    fs.writeFileSync(file, JSON.stringify(result));
    return file;
  };
  const files = [write('a', [...unchanged.map((p) => p.a), lone.a], '2026-11-28T03:00:00.000Z'), write('b', [...unchanged.map((p) => p.b), lone.b], '2026-11-28T04:00:00.000Z')];
  const store = path.join(dir, 'store');
  const added = await history(['add', ...files, '--store', store]);
  assert.equal(added.exitCode, 0, added.stderr);
  const check = await history(['check', '--store', store, '--by', 'date', '--fail-on-regression', '5']);
  assert.equal(check.exitCode, 1, check.stdout + check.stderr);
  assert.match(check.stderr, /^nodebench: 1 benchmark\(s\) have a new change point slower by more than 5%/);
  assert.match(check.stderr, /lone\/b0: \[baseline\] on 16\.20\.2, .* -\d+\.\d% /);
});

test('without drift the estimate is the floor (1%, the drift measured on a quiet machine); small suites use the pooled estimate, large ones their own; single processes are left out; too few cells, the 1% default', () => {
  assert.equal(diffResults(invocations(7, 40, 0), { driftCv: 'auto' }).drift.pooled, AUTO_FLOOR);
  const quietSuite = invocations(8, AUTO_MIN_SUITE_CELLS, 0).map((p) => ({ a: { ...p.a, suite: 'quiet' }, b: { ...p.b, suite: 'quiet' } }));
  const small = invocations(9, 5, 0.08).map((p) => ({ a: { ...p.a, suite: 'small' }, b: { ...p.b, suite: 'small' } }));
  const singles = invocations(10, 6, 0.3, { processes: 1 });
  const estimate = estimateDrift([...invocations(11, 25, 0.06), ...quietSuite, ...small, ...singles]);
  assert.equal(estimate.cells, 25 + AUTO_MIN_SUITE_CELLS + 5);
  // No drift: at or near the floor (5 processes of 2% spread: a cell whose interval came out small by
  // chance pushes the estimate up a little).
  assert.ok(estimate.bySuite.get('quiet').used >= AUTO_FLOOR && estimate.bySuite.get('quiet').used < 0.012, `quiet: ${estimate.bySuite.get('quiet').used}`);
  assert.ok(estimate.bySuite.get('s').used > 0.03, `s: ${estimate.bySuite.get('s').used}`);
  assert.equal(estimate.bySuite.get('small').estimate, null);
  assert.equal(estimate.driftFor('small'), estimate.pooled);
  assert.ok(estimate.pooled > 0.01 && estimate.pooled < estimate.bySuite.get('s').used);
  const few = estimateDrift(invocations(12, 9, 0.04));
  assert.equal(few.tooFew, true);
  assert.equal(few.driftFor('s'), 0.01);
});

test('property: the estimate is in [0, 1] and 0 for unchanged cells; the median-p solver never gives less when every change grows', () => {
  const item = fc.record({
    logRatio: fc.integer({ min: -500, max: 500 }).map((x) => x / 1000),
    variance: fc.integer({ min: 1, max: 2500 }).map((x) => (x / 1e4) ** 2),
    df: fc.integer({ min: 1, max: 60 })
  });
  let positive = 0;
  fc.assert(fc.property(fc.array(item, { minLength: 1, maxLength: 40 }), fc.integer({ min: 10, max: 40 }).map((x) => x / 10), (items, grow) => {
    const drift = driftFromPValues(items);
    if (drift > 0) positive++;
    assert.ok(drift >= 0 && drift <= 1);
    assert.equal(driftFromPValues(items.map((i) => ({ ...i, logRatio: 0 }))), 0);
    // The two-pass estimate can step down when growth moves a cell into "really changed"; the
    // single median-p solve it is built from cannot.
    const once = solveMedianP(items, 0.5);
    const grown = solveMedianP(items.map((i) => ({ ...i, logRatio: i.logRatio * grow })), 0.5);
    assert.ok(grown >= once - 1e-9, `${grown} < ${once}`);
  }), { numRuns: 300 });
  assert.ok(positive > 100, `only ${positive} of 300 cases estimated any drift`);
});

test('nodebench diff --drift auto: the estimate and the shift in the table, Markdown and JSON; one sentence and exit 2 for misuse', async () => {
  const pairs = invocations(13, 24, 0.15);
  const fileA = writeResultFile(pairs.map((p) => p.a));
  const fileB = writeResultFile(pairs.map((p) => p.b));
  const table = await nodebench(['diff', fileA, fileB, '--drift', 'AUTO', '--no-color']);
  assert.equal(table.exitCode, 0, table.stderr);
  assert.match(table.stdout, /drift between the two runs estimated from the files \(the default for two files; --drift N fixes it\), per side, never below 1\.0% nor below a suite's shared shift \/ √2: s \d+\.\d% \((?:24 cells|its shared shift)\)/);
  // The estimate is the default for two files: the same table without --drift.
  assert.equal((await nodebench(['diff', fileA, fileB, '--no-color'])).stdout, table.stdout);
  assert.match(table.stdout, /median change per suite: s [+-]\d+\.\d% \(a shift every benchmark of a suite shares may be the host's/);
  assert.match(table.stdout, /note: a drift above 10\.0% means very noisy runs/);
  const markdown = await nodebench(['diff', fileA, fileB, '--drift', 'auto', '--format', 'markdown']);
  assert.match(markdown.stdout, /drift between the two runs estimated from the files/);
  const json = JSON.parse((await nodebench(['diff', fileA, fileB, '--drift', 'auto', '--json'])).stdout);
  assert.equal(json.drift.estimatedFrom, 24);
  assert.ok(json.drift.bySuite.s.estimate > 0.1, JSON.stringify(json.drift));
  assert.equal(json.drift.summary.length, 3);
  assert.match(json.rows[0].comparison.method, /drift between invocations per side/);
  // Too few cells (B's run mostly failed): the default drift, said so, and the failures still listed.
  const broken = pairs.slice(0, 12).map((p, i) => (i < 8 ? { ...withoutSummary(p.b), status: 'failed', error: 'boom', processes: [] } : p.b));
  const partial = await nodebench(['diff', writeResultFile(pairs.slice(0, 12).map((p) => p.a)), writeResultFile(broken), '--drift', 'auto', '--fail-on-regression', '5', '--no-color']);
  assert.equal(partial.exitCode, 1, partial.stderr);
  assert.match(partial.stdout, /drift between the runs: only 4 cells .* the default 1\.0% drift per side is used/);
  assert.match(partial.stdout, /ok -> failed \(boom\)/);
  for (const [args, message] of [
    [[fileA, '--from', '16.20.2/baseline', '--to', '16.20.2/baseline', '--drift', 'auto'], /--drift auto estimates the drift between two separate result files/],
    [[fileA, '--drift', 'auto'], /Give a second result file, or --from and --to columns/],
    [[fileA, fileB, '--drift', 'often'], /--drift takes a percentage like 1, or auto, not "often"/]
  ]) {
    const run = await nodebench(['diff', ...args]);
    assert.equal(run.exitCode, 2, args.join(' '));
    assert.match(run.stderr, message);
    assert.doesNotMatch(run.stderr, /\n\s+at /);
  }
});

// What the estimate must not cost: a true change of exactly the equivalence band called "same" more
// often than the equivalence test's 5%. Ten pairs of 140-cell files, a 0.3% true drift per side, 15
// processes of 1% spread (a cheap cell of the shipped matrix on a calm host), 14 cells changed by 3%
// either way, judged with --equivalence 3 (with the 1% floor per side, ±2% is out of reach between
// two files: the 90% half-width of the difference is at least 2.3%).
test('simulation: with the drift estimated, unchanged cells are mostly "same" within ±3% and 3% changes are not', () => {
  let changedSame = 0;
  let changed = 0;
  let unchangedSame = 0;
  let unchangedDecided = 0;
  let unchanged = 0;
  for (let seed = 1; seed <= 10; seed++) {
    const pairs = slowDown(slowDown(invocations(100 + seed, 140, 0.003, { processes: 15, processCv: 0.01 }), (i) => i % 20 === 0, 1.03), (i) => i % 20 === 10, 1 / 1.03);
    diffResults(pairs, { driftCv: 'auto', equivalence: 0.03 }).forEach((row, i) => {
      if (i % 10 === 0) {
        changed++;
        if (row.comparison.verdict === 'same') changedSame++;
      } else {
        unchanged++;
        if (row.comparison.verdict === 'same') unchangedSame++;
        if (row.comparison.significant && row.comparison.verdict !== 'same') unchangedDecided++;
      }
    });
  }
  assert.ok(changedSame / changed <= 0.05, `3% changes called same ${changedSame} of ${changed}`);
  assert.ok(unchangedSame / unchanged >= 0.6, `unchanged cells same ${unchangedSame} of ${unchanged}`);
  assert.ok(unchangedDecided / unchanged <= 0.05, `unchanged cells decided ${unchangedDecided} of ${unchanged}`);
});
