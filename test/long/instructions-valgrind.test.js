// Counting instructions on real runtimes under real valgrind, through the launcher a run uses
// (runner/launcher.js with run.measure 'instructions'): Node 4.9.1 and 24.21.0 each count a loop
// in two processes that agree to within 0.1% (they agree exactly), and a loop of 101 steps about 1%
// more than one of 100. Small counting options keep each process to seconds of valgrind time; the
// warm-up's 30 M instructions take Node 24 to its optimising tier (at 5 M it is still on a lower one,
// where the call costs more than the loop and 1% more steps count 0.4% more).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createProcessLauncher } from '../../cli/runner/launcher.js';
import { onPath } from '../../cli/process/host-tools.js';
import { root } from '../helpers/cli.js';
import { testRuntime, OLDEST } from '../helpers/runtimes.js';

const suiteFile = path.join(root, 'test', 'fixtures', 'suites', 'counted', 'index.js');
const RUNTIMES = [OLDEST, '24.21.0'];
const OPTIONS = { minBatchInstructions: 1e6, warmupMinInstructions: 30e6, batches: 3 };
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

// Two at a time: this machine has two cores, and counts do not depend on what runs beside them.
async function inPairs(jobs) {
  const results = [];
  for (let i = 0; i < jobs.length; i += 2) results.push(...await Promise.all(jobs.slice(i, i + 2).map((job) => job())));
  return results;
}

test('Node 4.9.1 and 24.21.0 count a loop the same in two processes, and 1% more work about 1% more', { timeout: 900_000, skip: !onPath('valgrind') && 'valgrind is not installed' }, async () => {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-counted-'));
  try {
    const runtimes = new Map();
    for (const spec of RUNTIMES) runtimes.set(spec, await testRuntime(spec));
    const launcher = createProcessLauncher({
      runtimes, suites: new Map([['counted', { file: suiteFile, params: {} }]]), sampler: {}, runDir,
      run: { timeoutSec: 60, measure: 'instructions', instructions: OPTIONS }
    });
    const cells = RUNTIMES.flatMap((label) => ['loop-100', 'loop-100', 'loop-101'].map((benchmark) => ({ suite: 'counted', benchmark, flags: [], runtimeLabel: label })));
    const outcomes = await inPairs(cells.map((cell, round) => () => launcher.launch({ kind: 'timing', round }, cell)));
    for (const [i, outcome] of outcomes.entries()) {
      assert.equal(outcome.status, 'ok', `${cells[i].runtimeLabel} ${cells[i].benchmark}: ${outcome.error}`);
      const m = outcome.result.measurement;
      assert.equal(m.measure, 'instructions');
      assert.equal(m.instructionsPerOp.length, 3);
      assert.ok(m.instructionsPerOp.every((x) => x > 100 && x < 10_000), `${m.instructionsPerOp}`);
      assert.match(m.valgrind.version, /^3\.\d+/);
      assert.deepEqual(m.valgrind.determinismFlags, ['--predictable', '--hash-seed=1', '--random-seed=1']);
      assert.ok(m.valgrind.command.includes('--dump-before=fdatasync'));
      assert.ok(outcome.wallMs > 0);
      // The worker's own times read the synthetic clock, so its wall time is not split into phases.
      assert.match(m.valgrind.clock, /^synthetic: /);
      assert.equal(outcome.phasesMs, undefined);
    }
    for (const label of RUNTIMES) {
      const [a, b, more] = outcomes.filter((o, i) => cells[i].runtimeLabel === label).map((o) => mean(o.result.measurement.instructionsPerOp));
      assert.ok(Math.abs(a / b - 1) < 0.001, `${label}: two processes counted ${a} and ${b} instructions per operation`);
      const ratio = more / a;
      assert.ok(ratio > 1.005 && ratio < 1.02, `${label}: 101 steps counted ${more}, 100 steps ${a} (${ratio.toFixed(4)}x)`);
    }
    // Every process's counting folder is gone.
    assert.deepEqual(fs.readdirSync(runDir), []);
  } finally {
    fs.rmSync(runDir, { recursive: true, force: true });
  }
});
