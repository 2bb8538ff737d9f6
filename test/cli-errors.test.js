// User errors: one sentence naming the thing and the fix, exit code 2, no stack trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodebench } from './helpers/cli.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-errors-'));
const write = (name, text) => {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, text);
  return file;
};

function assertUserError(run, pattern) {
  assert.equal(run.exitCode, 2, `exit code (stderr: ${run.stderr})`);
  assert.match(run.stderr, pattern);
  assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
  assert.equal(run.stderr.trim().split('\n').length, 1, `one line: ${run.stderr}`);
}

test('a bad matrix file names file, line and fix', async () => {
  const file = write('bad.yaml', 'runtimes:\n  - 16\nflagSets:\n  young: --max-semi-space-size=64\n');
  assertUserError(await nodebench(['matrix', '--matrix', file]), /bad\.yaml:4: flag set "young" must be a list of flags/);
});

test('a missing matrix file', async () => {
  assertUserError(await nodebench(['matrix', '--matrix', path.join(tmp, 'nope.yaml')]), /Matrix file .*nope\.yaml does not exist/);
});

test('an unknown suite lists the real ones', async () => {
  assertUserError(await nodebench(['matrix', '--runtimes', 'system', '--suites', 'nosuch']), /There is no suite "nosuch"; built-in suites are .*promises/);
});

test('an unknown flag set lists the real ones', async () => {
  assertUserError(await nodebench(['matrix', '--flags', 'turbo']), /Flag set "turbo" is not in matrix\.yaml; it has baseline, semi-space-64, no-concurrent-marking/);
});

test('an unknown benchmark in a filter lists the real ones', async () => {
  const file = write('filter.yaml', `runtimes: [system]\nsuites:\n  - {name: ${path.resolve('test/fixtures/suites/smoke')}, benchmarks: [nope]}\n`);
  assertUserError(await nodebench(['matrix', '--matrix', file]), /Suite "smoke" has no benchmark "nope"; it has sum-loop, /);
});

test('bad option values', async () => {
  assertUserError(await nodebench(['matrix', '--processes', 'many']), /--processes must be a whole number from 1 to 100, not "many"/);
  assertUserError(await nodebench(['matrix', '--target-rme', '0']), /--target-rme must be a number from 0.1 to 100, not "0"/);
  const run = await nodebench(['matrix', '--bogus']);
  assert.equal(run.exitCode, 2);
  assert.match(run.stderr, /unknown option '--bogus'/);
});

test('a suite file that does not exist, or is not a suite', async () => {
  assertUserError(await nodebench(['run', path.join(tmp, 'missing.js')]), /Suite file .*missing\.js does not exist/);
  const notSuite = write('not-a-suite.cjs', 'module.exports = 42;\n');
  assertUserError(await nodebench(['run', notSuite]), /not-a-suite\.cjs is none of the forms nodebench runs: export a benchmarks object .*, or build benchmarks with tinybench, mitata, bench-node or benchmark\.js and call their run\(\)\./);
});

test('CommonJS in an ES-module package gets told how to be either', async () => {
  const dir = fs.mkdtempSync(path.join(tmp, 'esm-'));
  fs.writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');
  fs.writeFileSync(path.join(dir, 'bench.js'), "'use strict';\nmodule.exports = { benchmarks: { a: function () {} } };\n");
  assertUserError(await nodebench(['run', path.join(dir, 'bench.js')]), /bench\.js uses require or module\.exports but Node loads it as an ES module \(a package\.json above it says "type": "module"\): rename it to \.cjs, or write it with export\./);
});

test('--help explains the commands', async () => {
  const run = await nodebench(['--help']);
  assert.equal(run.exitCode, 0);
  for (const word of ['matrix', 'run', 'runtimes', 'Examples:']) assert.match(run.stdout, new RegExp(word));
  const matrixHelp = await nodebench(['matrix', '--help']);
  assert.match(matrixHelp.stdout, /--quick/);
  assert.match(matrixHelp.stdout, /--baseline <column>/);
});

test('empty lists and "any version" specs are refused, not silently widened', async () => {
  assertUserError(await nodebench(['matrix', '--runtimes', '']), /--runtimes is empty; give a comma-separated list/);
  assertUserError(await nodebench(['matrix', '--flags', ' ']), /--flags is empty/);
  assertUserError(await nodebench(['run', 'test/fixtures/suites/smoke/index.js', '--node', '']), /--node is empty/);
  for (const spec of ['x', '*', '  ']) assertUserError(await nodebench(['runtimes', 'which', spec]), /is not a version, range, "lts", "latest", "system" or a path/);
});

test('bisect --measure: a measure it does not know, instructions with --flag, a pairing it does not know', async () => {
  const bisect = (...args) => nodebench(['bisect', '--good', '16.13.2', '--bad', '16.14.0', ...args]);
  assertUserError(await bisect('--suite', 'gc', '--benchmark', 'young-gen-churn', '--measure', 'cycles'), /^nodebench: --measure "cycles" is not a measure; give time or instructions\.$/);
  assertUserError(await bisect('--flag', 'concurrent-marking', '--measure', 'instructions'), /--measure instructions applies to a bisect on a benchmark, and --flag reads flag defaults without measuring; leave out one of them\./);
  assertUserError(await bisect('--suite', 'gc', '--benchmark', 'young-gen-churn', '--measure', 'instructions', '--pairing', 'both'), /--pairing "both" is not a way to pair processes; give sequential, duet or concurrent\./);
});
