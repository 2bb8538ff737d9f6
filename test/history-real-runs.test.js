// History on two real default-matrix runs of one commit (issue 39, item 5). The fixtures are the gc
// and promises suites, every cell and process as measured, of the two result files in
// ../shared/evidence/2026-11-27 (25 minutes apart on this project's 2-core VM, the host in a slow
// mode for most of the second run); a suite's cells are kept whole, so each (runtime, flag set,
// suite) group's host fast mode and each suite's drift between the runs are those of the full files.
// Made with: gunzip, keep cells and suites of gc and promises, drop each cell's `metrics`, gzip -9.
//
// Before: by version, the excess spread was estimated from the differences between consecutive
// releases, which are real, so the 4.9.1 -> 6.17.1 drops (young-gen-churn 20.1 -> 9.34 ops/s,
// intervals far apart) were taken for noise; by date, the two runs were compared with a fixed 1%
// drift and no allowance for the host's speed, so unchanged code got change points and failed the gate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { root } from './helpers/cli.js';
import { history } from './helpers/history.js';
import { restsOnDisturbed } from '../cli/cell-identity.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-history-aa-'));
const store = path.join(dir, 'store');
const fixture = (name) => {
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(file, zlib.gunzipSync(fs.readFileSync(path.join(root, 'test', 'fixtures', 'history', 'aa', `${name}.json.gz`))));
  return file;
};

const added = history(['add', fixture('m1'), fixture('m2'), '--store', store]);
const show = async (args) => {
  assert.equal((await added).exitCode, 0, (await added).stderr);
  const run = await history(['show', '--store', store, '--format', 'json', ...args]);
  assert.equal(run.exitCode, 0, run.stderr);
  return JSON.parse(run.stdout);
};

test('by version: the largest drops between consecutive runtimes are change points', async () => {
  const { series } = await show([]);
  for (const benchmark of ['gc/young-gen-churn', 'gc/old-gen-marking-async', 'promises/chain-native']) {
    const s = series.find((x) => `${x.suite}/${x.benchmark}` === benchmark && x.flagSet === 'baseline');
    const [before, after] = s.points;
    assert.ok(after.opsPerSec < before.opsPerSec / 1.5, `${benchmark}: ${before.opsPerSec} -> ${after.opsPerSec}`);
    const change = s.changes.find((c) => c.from === '4.9.1' && c.to === '6.17.1');
    assert.ok(change, `${benchmark}: a change point 4.9.1 -> 6.17.1, found ${JSON.stringify(s.changes.map((c) => [c.from, c.to, c.ratio]))}`);
    assert.ok(change.ratio < 0.7 && change.high < 1, `${benchmark}: ${JSON.stringify(change)}`);
  }
});

test('by date: two runs of one commit have no change point, and the gate passes', async () => {
  const { series } = await show(['--by', 'date']);
  assert.ok(series.length >= 80, `${series.length} series`);
  const changes = series.flatMap((s) => s.changes.map((c) => `${s.suite}/${s.benchmark} [${s.flagSet}] on ${s.line}: ${c.ratio}`));
  assert.deepEqual(changes, []);
  const check = await history(['check', '--store', store, '--by', 'date']);
  assert.equal(check.exitCode, 0, check.stdout + check.stderr);
  assert.match(check.stdout, /^no new change points in .* \(2 run\(s\), by date\)$/);
});

// The A/A pair of bench/verdicts.js's gate trials (test/fixtures/host-shift/gate-aa-*, 2026-11-28):
// in the second run, every process of three cells ran while two valgrind processes held the cores.
// Their points hold the rate with that disturbance (at least 2x) taken out, as diff's comparisons do;
// taken as measured, the same values drew -53.9% and -48.9% change points and failed the gate.
test('by date: a cell whose processes all ran on a disturbed machine widens its point by the disturbance, and unchanged code passes the gate', async () => {
  const pairDir = fs.mkdtempSync(path.join(dir, 'disturbed-'));
  const read = (name) => JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(root, 'test', 'fixtures', 'host-shift', `${name}.json.gz`))).toString('utf8'));
  const write = (name, result) => {
    const file = path.join(pairDir, `${name}.json`);
    fs.writeFileSync(file, JSON.stringify(result));
    return file;
  };
  const [first, second] = [write('p0', read('gate-aa-p0')), write('p1', read('gate-aa-p1'))];
  const marked = path.join(pairDir, 'store');
  assert.equal((await history(['add', first, second, '--store', marked])).exitCode, 0);
  const check = await history(['check', '--store', marked, '--by', 'date', '--fail-on-regression', '5']);
  assert.equal(check.exitCode, 0, check.stdout + check.stderr);
  const shown = JSON.parse((await history(['show', '--store', marked, '--by', 'date', '--format', 'json'])).stdout);
  const chain = shown.series.find((s) => s.benchmark === 'chain-bluebird' && s.line === '24.21.0');
  const [, disturbed] = chain.points;
  assert.ok(disturbed.hostSlowdown >= 2, JSON.stringify(disturbed));
  assert.ok(disturbed.high / disturbed.opsPerSec >= 2, `the interval holds twice the measured rate: ${JSON.stringify(disturbed)}`);

  const unmarked = read('gate-aa-p1');
  for (const cell of unmarked.cells.filter(restsOnDisturbed)) for (const p of cell.processes) delete p.setAside;
  const plain = path.join(pairDir, 'store-unmarked');
  assert.equal((await history(['add', first, write('p1-unmarked', unmarked), '--store', plain])).exitCode, 0);
  const failed = await history(['check', '--store', plain, '--by', 'date', '--fail-on-regression', '5']);
  assert.equal(failed.exitCode, 1, failed.stdout);
  assert.match(failed.stderr, /promises\/chain-bluebird: \[baseline\] on 24\.21\.0, .* -\d+\.\d% /);
});

// Another A/A pair of the same gate trials (gate-aa-p5, gate-aa-p6): the second ran 18.7% slower in
// every promises benchmark while its reference loop read the same host speed (two valgrind
// processes beside were competing for memory, not for the cores). The drift estimate centres each
// pair of runs on its suite's shift, so that shift stayed in the points: with the drift of before
// (4.3% per side on this pair), `check` drew -39.8% and -31.8% change points and failed the gate.
// A suite's drift is now at least its median shared shift between consecutive runs / √2, as diff's.
test('by date: a shift a whole suite shares between two runs is allowed for as in diff, and unchanged code passes the gate', async () => {
  const pairDir = fs.mkdtempSync(path.join(dir, 'shifted-'));
  const files = ['gate-aa-p5', 'gate-aa-p6'].map((name) => {
    const file = path.join(pairDir, `${name}.json`);
    fs.writeFileSync(file, zlib.gunzipSync(fs.readFileSync(path.join(root, 'test', 'fixtures', 'host-shift', `${name}.json.gz`))));
    return file;
  });
  const shifted = path.join(pairDir, 'store');
  assert.equal((await history(['add', ...files, '--store', shifted])).exitCode, 0);
  const check = await history(['check', '--store', shifted, '--by', 'date', '--fail-on-regression', '5']);
  assert.equal(check.exitCode, 0, check.stdout + check.stderr);
  const shown = await history(['show', '--store', shifted, '--by', 'date']);
  const [, shift] = /promises \d+\.\d% \(its median shared shift between consecutive runs, (\d+\.\d\d)x either way, \/ √2\)/.exec(shown.stdout) ?? [];
  assert.ok(Number(shift) > 1.15, `the drift line names the shared shift: ${shown.stdout.split('\n').find((l) => l.startsWith('drift'))}`);
});
