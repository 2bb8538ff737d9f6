// nodebench doctor and the harness benchmark: they run, on the host runtime and on Node 4.9.1, and
// report their figures with the methods behind them. No timing assertions: the figures are claims
// of the benchmark (docs/precision.md), not something a unit test on a shared machine can check.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { nodebench, root } from '../helpers/cli.js';
import { testRuntime, OLDEST } from '../helpers/runtimes.js';
import { detectableDifference, tQuantile, processesFor, simulatedPower, smallestDetectable } from '../../cli/doctor/detectable.js';
import { warningsFor, detectCi } from '../../cli/doctor/conditions.js';
import { DEFAULT_RUN } from '../../cli/engine.js';

function assertFigures(report, version) {
  assert.equal(report.runtime.version, version);
  assert.ok(report.timerResolution.ns > 0, 'timer resolution');
  assert.match(report.timerResolution.method, /process\.hrtime/);
  assert.ok(report.overhead.nsPerOp > 0, 'overhead');
  assert.match(report.overhead.method, /empty/);
  assert.ok(report.variability.cv > 0, 'variability');
  assert.equal(report.variability.processes, 10);
  assert.match(report.variability.method, /coefficient of variation/);
  assert.ok(report.detectable.fraction > 0, 'smallest detectable difference');
  assert.match(report.detectable.method, new RegExp(`sqrt\\(2/${DEFAULT_RUN.processes}\\)`));
  assert.ok(Array.isArray(report.warnings));
  assert.ok(report.conditions.cores >= 1);
  assert.ok(report.conditions.governor === null || typeof report.conditions.governor === 'string');
}

describe('nodebench doctor', { concurrency: true }, () => {
  test('--json reports positive figures and their methods for the host runtime', { timeout: 180_000 }, async () => {
    const run = await nodebench(['doctor', '--json']);
    assert.equal(run.exitCode, 0, run.stderr);
    assertFigures(JSON.parse(run.stdout), process.version.slice(1));
    assert.match(run.stderr, /doctor: Node/, 'progress goes to stderr');
  });

  test('--node 4.9.1 measures inside that runtime', { timeout: 180_000 }, async () => {
    await testRuntime(OLDEST);
    const run = await nodebench(['doctor', '--node', OLDEST, '--json']);
    assert.equal(run.exitCode, 0, run.stderr);
    assertFigures(JSON.parse(run.stdout), OLDEST);
  });

  test('a bad --node spec is one sentence and exit code 2', async () => {
    const run = await nodebench(['doctor', '--node', 'not-a-version']);
    assert.equal(run.exitCode, 2);
    assert.equal(run.stdout, '');
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
    assert.match(run.stderr, /--node "not-a-version" is not a Node version.*e\.g\. --node 4\.9\.1/);
    assert.doesNotMatch(run.stderr, /\n\s+at /);
  });

  test('the harness benchmark prints its table (--smoke), also again from its JSON (--from)', { timeout: 300_000 }, async () => {
    const harness = path.join(root, 'bench', 'harness.js');
    const run = await execa(process.execPath, [harness, '--smoke', '--json'], { reject: false, cwd: root, env: { NO_COLOR: '1' } });
    assert.equal(run.exitCode, 0, run.stderr);
    assert.match(run.stderr, /harness: \[1\//, 'progress goes to stderr');
    const report = JSON.parse(run.stdout);
    assert.equal(report.mode, 'smoke');
    assert.ok(report.raw.aa.length >= 1 && report.raw.sensitivity.length >= 1);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-harness-test-'));
    const file = path.join(dir, 'run.json');
    fs.writeFileSync(file, run.stdout);
    const table = await execa(process.execPath, [harness, '--from', file], { reject: false, cwd: root });
    fs.rmSync(dir, { recursive: true, force: true });
    assert.equal(table.exitCode, 0, table.stderr);
    for (const row of ['A/A false positives (separate invocations)', 'A/A false positives (inside one invocation)', 'honest intervals',
      'sensitivity +5%: detected', 'sensitivity +2%: detected', 'sensitivity +2%: time ratio', 'agreement ~1 µs: time/op',
      'agreement ~10 µs: spread (CV)', 'agreement ~100 µs: time/op', 'overhead (empty benchmark), host', `overhead (empty benchmark), Node ${OLDEST}`, 'cost: nodebench matrix']) {
      assert.ok(table.stdout.includes(row), `row "${row}" in:\n${table.stdout}`);
    }
    assert.match(table.stdout, /^figure\s+value\s+target\s+verdict/m);
    assert.match(table.stdout, /tinybench/);
    assert.match(table.stdout, /mitata/);
  });
});

test('smallest detectable difference: Welch with n = 3 per cell', () => {
  assert.ok(Math.abs(tQuantile(0.975, 4) - 2.776) < 1e-3);
  assert.ok(Math.abs(tQuantile(0.8, 4) - 0.941) < 1e-3);
  const d = detectableDifference(0.01, 3);
  assert.ok(Math.abs(d.fraction - (2.776 + 0.941) * 0.01 * Math.sqrt(2 / 3)) < 1e-4);
  assert.ok(d.justSignificantFraction < d.fraction);
  assert.equal(detectableDifference(0.01, 1), null);
  assert.ok(processesFor(0.02, 0.01) > 3);
  assert.ok(detectableDifference(0.01, processesFor(0.02, 0.01)).fraction <= 0.02);
  // The simulation runs nodebench diff's own test: no false alarms beyond alpha, power grows with n.
  assert.ok(simulatedPower(0.01, 3, 0, { trials: 1000 }) <= 0.05);
  assert.ok(simulatedPower(0.01, 10, 0.05, { trials: 500 }) > 0.95);
  assert.ok(simulatedPower(0.01, 6, 0.02, { trials: 1000 }) > simulatedPower(0.01, 3, 0.02, { trials: 1000 }));
  const s = smallestDetectable(0.01, 3, { trials: 500 });
  assert.ok(s.fraction >= s.analyticFraction * 0.9, 'the closed form is not more pessimistic than the simulation');
  assert.match(s.method, /simulated/);
});

test('noisy conditions each come with what to do', () => {
  const noisy = warningsFor({ loadAverage: [3, 2, 1], cores: 2, governor: 'powersave', ci: ['GITHUB_ACTIONS'] });
  assert.deepEqual(noisy.map((w) => w.code), ['load', 'governor', 'cores', 'ci']);
  assert.match(noisy.find((w) => w.code === 'governor').message, /"powersave", not "performance".*cpupower/);
  const unreadable = warningsFor({ loadAverage: [0, 0, 0], cores: 16, governor: null, ci: null });
  assert.deepEqual(unreadable.map((w) => w.code), ['governor-unknown']);
  assert.match(unreadable[0].message, /not readable/);
  assert.deepEqual(warningsFor({ loadAverage: [0.1, 0, 0], cores: 8, governor: 'performance', ci: null }), []);
  assert.deepEqual(detectCi({ GITHUB_ACTIONS: 'true' }), ['GITHUB_ACTIONS']);
  assert.equal(detectCi({ CI: 'false' }), null);
});
