import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parseMatrix, loadMatrix } from '../cli/matrix/load.js';
import { root } from './helpers/cli.js';
import { buildPlan } from '../cli/matrix/plan.js';
import { testRuntime } from './helpers/runtimes.js';

const rejects = (text, pattern) => assert.throws(() => parseMatrix(text, 'm.yaml'), (err) => {
  assert.equal(err.name, 'UserError');
  assert.equal(err.exitCode, 2);
  assert.match(err.message, pattern);
  return true;
});

test('the shipped matrix.yaml is valid and has the documented defaults', async () => {
  const m = await loadMatrix(path.join(root, 'matrix.yaml'));
  assert.deepEqual(m.runtimes.map((r) => r.spec), ['4', '6', '14', '16', 'lts']);
  assert.deepEqual(m.flagSets.map((f) => f.name), ['baseline', 'semi-space-64', 'no-concurrent-marking']);
  assert.deepEqual(m.flagSets[0].flags, []);
  assert.deepEqual(m.suites, [{ name: 'all', benchmarks: null, params: {} }]);
});

test('a full matrix with labels, filters and params parses', () => {
  const m = parseMatrix(`
runtimes:
  - 16
  - {spec: 16.13.0, label: old16}
  - ">=14 <15"
  - lts
  - latest
  - system
  - /usr/bin/node
flagSets:
  baseline: []
  young: ["--max-semi-space-size=64"]
  empty:
suites:
  - promises
  - {name: json, benchmarks: [bfj, JSONStream], params: {payloadKB: 512}}
run:
  processes: 5
  minSampleMs: 2.5
  baseline: old16/baseline
`);
  assert.equal(m.runtimes[1].label, 'old16');
  assert.equal(m.runtimes[2].spec, '>=14 <15');
  assert.deepEqual(m.flagSets[2], { name: 'empty', flags: [] });
  assert.deepEqual(m.suites[1], { name: 'json', benchmarks: ['bfj', 'JSONStream'], params: { payloadKB: 512 } });
  assert.equal(m.run.processes, 5);
});

test('an empty file means: system runtime, no flags, all suites', () => {
  const m = parseMatrix('');
  assert.deepEqual(m.runtimes, [{ spec: 'system', label: null }]);
  assert.deepEqual(m.flagSets, [{ name: 'baseline', flags: [] }]);
  assert.deepEqual(m.suites[0].name, 'all');
});

test('bad files get one sentence with file, line and fix', () => {
  rejects('runtimes: [4, 16\n', /^m\.yaml:\d+: is not valid YAML/);
  rejects('runtimes:\n  - 4\n  - banana\n', /^m\.yaml:3: runtime "banana" is not a version/);
  rejects('runtimes: []\n', /^m\.yaml:1: runtimes must be a non-empty list/);
  rejects('runtimes:\n  - {spec: 4, label: a}\n  - {spec: 6, label: a}\n', /^m\.yaml:3: runtime label "a" is used twice/);
  rejects('runtimes:\n  - {version: 4}\n', /^m\.yaml:2: each runtime needs a spec/);
  rejects('runtimes:\n  - {spec: 4, label: "a\\0b"}\n', /^m\.yaml:2: runtime label "a\\u0000b" contains a NUL character/);
  rejects('flagSets:\n  "a\\0b": []\n', /flag set name "a\\u0000b" contains a NUL character/);
  rejects('flagSets:\n  young: --max-semi-space-size=64\n', /^m\.yaml:2: flag set "young" must be a list of flags/);
  rejects('flagSets:\n  young:\n    - max-semi-space-size=64\n', /^m\.yaml:3: flag "max-semi-space-size=64" .* must be one string starting with --/);
  rejects('suites:\n  - {name: json, benchmarks: bfj}\n', /^m\.yaml:2: benchmarks of suite "json" must be a list/);
  rejects('suites:\n  - {nme: json}\n', /^m\.yaml:2: each suite needs a name/);
  rejects('run:\n  processes: 0\n', /^m\.yaml:2: run\.processes must be between 1 and 100/);
  rejects('run:\n  processes: 2.5\n', /run\.processes must be a whole number/);
  rejects('run:\n  procesess: 2\n', /^m\.yaml:2: unknown run option "procesess"; known options: processes/);
  rejects('runtime: [4]\n', /^m\.yaml:1: unknown top-level key "runtime"; use runtimes, flagSets, suites, commands, run/);
});

test('a flag set may name the suites it applies to; the plan gives the others no cell of it', async () => {
  const m = parseMatrix('flagSets:\n  baseline: []\n  semi: {flags: ["--max-semi-space-size=64"], suites: [gc]}\n', 'm.yaml');
  assert.deepEqual(m.flagSets, [{ name: 'baseline', flags: [] }, { name: 'semi', flags: ['--max-semi-space-size=64'], suites: ['gc'] }]);
  rejects('flagSets:\n  semi: {flags: ["--a"], suites: []}\n', /^m\.yaml:2: suites of flag set "semi" must be a non-empty list of suite names/);
  rejects('flagSets:\n  semi: {flags: ["--a"], suite: [gc]}\n', /^m\.yaml:2: flag set "semi" takes flags and suites, not suite/);
  rejects('flagSets:\n  semi:\n    flags: [a]\n    suites: [gc]\n', /^m\.yaml:3: flag "a" in flag set "semi" must be one string starting with --/);
  const runtime = { ...(await testRuntime('system')), label: 'system' };
  const suites = ['gc', 'json'].map((name) => ({ name, benchmarks: [{ name: 'b' }], selected: ['b'] }));
  const cells = await buildPlan({ runtimes: [runtime], flagSets: m.flagSets, suites });
  assert.deepEqual(cells.map((c) => `${c.flagSet} ${c.suite}`), ['baseline gc', 'baseline json', 'semi gc']);
  await assert.rejects(buildPlan({ runtimes: [runtime], flagSets: [{ name: 'x', flags: [], suites: ['gcc'] }], suites }),
    /^UserError: Flag set "x" lists suite "gcc", which does not exist; suites are autoload, gc, json, promises, service/);
});

test('a missing matrix file is a user error naming the file', async () => {
  await assert.rejects(loadMatrix('/nonexistent/matrix.yaml'), /Matrix file \/nonexistent\/matrix\.yaml does not exist; pass --matrix/);
});

test('every test fixture matrix is valid', async () => {
  for (const name of fs.readdirSync(path.join(root, 'test', 'fixtures')).filter((f) => f.endsWith('.yaml'))) {
    await loadMatrix(path.join(root, 'test', 'fixtures', name));
  }
});
