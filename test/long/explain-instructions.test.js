// nodebench explain --measure instructions on real runtimes under real valgrind, as a user runs it:
// a function of a user's suite that does exactly 1% more steps in one flag set
// (test/fixtures/suites/explain-counted) is named from V8's perf map and called "more" by +1%,
// the function beside it that does the same work is within its floor, the totals are the cells'
// figures, and nothing is left in the suite's folder or in /tmp; on Node 24.21.0 (perf map in the
// process's folder) and Node 6.17.1 (perf map in /tmp, removed). Errors before anything runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodebench, root } from '../helpers/cli.js';
import { onPath } from '../../cli/process/host-tools.js';

const fixture = path.join(root, 'test', 'fixtures', 'suites', 'explain-counted', 'index.js');
const STEADY = 'holder.\u001b[31m<b>steady</b>';
const noValgrind = !onPath('valgrind') && 'valgrind is not installed';

// Perf maps in /tmp that name a file of `dir`: what a process of this test would have left there.
const mapsNaming = (dir) => fs.readdirSync('/tmp').filter((name) => /^perf-\d+\.map$/.test(name)).filter((name) => {
  try {
    return fs.readFileSync(path.join('/tmp', name), 'utf8').includes(dir);
  } catch {
    return false;
  }
});

for (const version of ['24.21.0', '6.17.1']) {
  test(`explain --measure instructions on ${version}: the planted 1% is named and found, the same work is within its floor`, { timeout: 900_000, skip: noValgrind }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-explain-instr-'));
    const suite = path.join(dir, 'index.js');
    fs.copyFileSync(fixture, suite);
    const out = path.join(dir, 'explain.json');
    const started = Date.now();
    const run = await nodebench(['explain', '--suite', suite, '--from', `${version}/baseline`, '--to', `${version}/--stack-size=984`, '--benchmark', 'planted-and-steady', '--measure', 'instructions', '--format', 'json', '--out', out]);
    assert.equal(run.exitCode, 0, `${run.stdout}\n${run.stderr}`);
    const doc = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.equal(doc.measure, 'instructions');
    for (const id of ['a', 'b']) {
      const processes = doc.sides[id].counting.processes;
      assert.equal(processes.length, 2, JSON.stringify(processes));
      assert.ok(processes.every((p) => p.perfMapEntries > 100), JSON.stringify(processes));
      // Processes of one side count alike, and the functions add up to the cell's figure.
      assert.ok(doc.functions.sides[id].agreementPpm < 10, `${id}: ${doc.functions.sides[id].agreementPpm} ppm`);
      assert.ok(doc.functions.sides[id].residual < 1e-6, `${id}: residual ${doc.functions.sides[id].residual}`);
    }
    const row = (name) => doc.functions.rows.find((r) => r.name === name);
    const planted = row('planted');
    assert.ok(planted, doc.functions.rows.map((r) => r.name).join(', '));
    assert.equal(planted.location, 'index.js:12' + (version === '24.21.0' ? ':17' : ''));
    assert.equal(planted.change.verdict, 'more', JSON.stringify(planted.change));
    assert.ok(Math.abs(planted.change.relative - 0.01) < 0.001, `planted: ${planted.change.relative}`);
    assert.ok(planted.a.share > 0.2, `planted's share: ${planted.a.share}`);
    assert.equal(row(STEADY).change.verdict, 'same', JSON.stringify(row(STEADY).change));
    assert.equal(doc.functions.rows[0].name, 'planted');
    assert.match(doc.summary, /planted \(index\.js:12\S*\) \+\d+(\.\d+)? \(\+1\.0\d%\)/);
    // Nothing of V8's log or perf map stays in the suite's folder or in /tmp.
    assert.deepEqual(fs.readdirSync(dir).sort(), ['explain.json', 'index.js']);
    assert.deepEqual(mapsNaming(dir), []);
    fs.rmSync(dir, { recursive: true });
    console.log(`explain --measure instructions on ${version}: ${((Date.now() - started) / 1000).toFixed(0)} s; planted ${planted.a.estimate} -> ${planted.b.estimate} instructions/op (${(planted.change.relative * 100).toFixed(2)}%), totals ${doc.functions.sides.a.total.estimate} -> ${doc.functions.sides.b.total.estimate}`);
  });
}

test('explain --measure instructions: no valgrind, or a profiler option, is one sentence and exit 2 before anything runs', async () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-no-valgrind-'));
  const args = ['explain', '--suite', fixture, '--from', '24.21.0/baseline', '--to', '24.21.0/--stack-size=984', '--benchmark', 'planted-and-steady', '--measure', 'instructions'];
  const missing = await nodebench(args, { env: { PATH: empty } });
  assert.equal(missing.exitCode, 2, missing.stderr);
  assert.match(missing.stderr, /valgrind, which is not installed here/);
  const interval = await nodebench([...args, '--interval', '100']);
  assert.equal(interval.exitCode, 2, interval.stderr);
  assert.match(interval.stderr, /--interval applies to explain in time .* leave out --interval\./);
  assert.doesNotMatch(interval.stderr, /counting instructions/);
  fs.rmSync(empty, { recursive: true });
});

test('diff --explain of a file of counts explains in counts: the planted function named, no profile folder made', { timeout: 900_000, skip: noValgrind }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-diff-explain-instr-'));
  const suite = path.join(dir, 'index.js');
  fs.copyFileSync(fixture, suite);
  const file = path.join(dir, 'counts.json');
  const run = await nodebench(['run', suite, '--node', '24.21.0', '--flags', '--stack-size=984', '--benchmarks', 'planted-and-steady', '--measure', 'instructions', '--out', file], { cwd: dir });
  assert.equal(run.exitCode, 0, run.stderr);
  const diff = await nodebench(['diff', file, '--from', '24.21.0/baseline', '--to', '24.21.0/--stack-size=984', '--equivalence', '0.1', '--explain', '--no-color'], { cwd: dir });
  assert.equal(diff.exitCode, 0, diff.stderr);
  assert.match(diff.stdout, /planted-and-steady/);
  assert.match(diff.stdout, /self instructions|instructions per operation/i);
  assert.match(diff.stdout, /planted \(index\.js:12\S*\)/);
  assert.doesNotMatch(diff.stdout, /cpuprofile/);
  assert.deepEqual(fs.readdirSync(dir).filter((name) => name.startsWith('nodebench-explain-')), []);
  const profileDir = await nodebench(['diff', file, '--from', '24.21.0/baseline', '--to', '24.21.0/--stack-size=984', '--explain', '--profile-dir', path.join(dir, 'p')], { cwd: dir });
  assert.equal(profileDir.exitCode, 2, profileDir.stderr);
  assert.match(profileDir.stderr, /--profile-dir keeps the profiles of explain in time.*leave out --profile-dir\.$/m);
  fs.rmSync(dir, { recursive: true });
});
