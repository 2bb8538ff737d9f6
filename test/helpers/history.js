// Real result files for the history tests: the trend suite (test/fixtures/history/trend) measured by
// `nodebench matrix` on real runtimes, small enough to run many times, and a history store.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import YAML from 'yaml';
import { nodebench, root } from './cli.js';

export const TREND_SUITE = path.join(root, 'test', 'fixtures', 'history', 'trend');
export const V1_FILE = path.join(root, 'test', 'fixtures', 'history', 'v1-trend.json');

// A temporary folder with the trend suite's matrix file: 4 processes per cell (intervals from
// df 3), short samples, no metrics processes; flagSets: more flag sets than baseline.
export function historyDir(name, { flagSets = {} } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `nodebench-${name}-`));
  fs.writeFileSync(path.join(dir, 'trend.yaml'), YAML.stringify({
    runtimes: ['system'],
    flagSets: { baseline: [], ...flagSets },
    suites: [{ name: TREND_SUITE }],
    run: { processes: 4, maxProcesses: 4, samples: 4, minSampleMs: 2, warmupMinMs: 5, warmupMaxMs: 100, timeoutSec: 30, metrics: false }
  }));
  return dir;
}

// One real run of the trend suite into dir/name.json. slow: the `sum` benchmark does eight times the work.
export async function trendRun(dir, name, { runtimes = 'system', slow = false, slowFrom, args = [] } = {}) {
  const out = path.join(dir, `${name}.json`);
  const env = { TREND_SLOW: slow ? '1' : '0', ...(slowFrom ? { TREND_SLOW_FROM: slowFrom } : {}) };
  const run = await nodebench(['matrix', '--matrix', path.join(dir, 'trend.yaml'), '--runtimes', runtimes, '--out', out, '--force', ...args], { env });
  assert.equal(run.exitCode, 0, run.stderr);
  return out;
}

// A copy of a result file, as dir/name, with `change` applied to its parsed JSON.
export function variant(file, dir, name, change) {
  const data = JSON.parse(fs.readFileSync(file, 'utf8'));
  change(data);
  const out = path.join(dir, name);
  fs.writeFileSync(out, JSON.stringify(data, null, 1));
  return out;
}

export const history = (args, options) => nodebench(['history', ...args], options);

export function assertUserError(run, pattern) {
  assert.equal(run.exitCode, 2, `exit code (stderr: ${run.stderr})`);
  assert.match(run.stderr, pattern);
  assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
  assert.equal(run.stderr.trim().split('\n').length, 1, `one line: ${run.stderr}`);
}
