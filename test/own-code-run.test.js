// Your own code through the real CLI: every example in examples/ measured by `nodebench matrix` on
// real runtimes (the ES module forms on Node 18.20.8, where tinybench 6 itself would not install,
// and on the host's Node; the CommonJS library files on Node 4.9.1 too), the recognised format in
// the result file and the table titles, a task that throws failing only its own cells, refused
// options as failed cells with their sentence, and the user errors a file of no known form gets.
// Budgets are tiny: these check what runs and what is said, never how fast.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodebench, root } from './helpers/cli.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-own-code-'));
const fixture = (name) => path.join(root, 'test', 'fixtures', 'own-code', name);
const example = (name) => path.join(root, 'examples', name);
const TINY = { processes: 1, maxProcesses: 1, samples: 3, minSampleMs: 2, warmupMinMs: 5, warmupMaxMs: 100, metrics: false, timeoutSec: 30 };
const TINY_FLAGS = ['--processes', '1', '--max-processes', '1', '--samples', '3'];

const readResult = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
const cellsOf = (result, suite) => result.cells.filter((c) => c.suite === suite);

test('every example runs through nodebench matrix: ok cells on Node 18.20.8 and the host\'s Node, the CommonJS library files on Node 4.9.1 too', { timeout: 600_000 }, async () => {
  const matrix = path.join(tmp, 'examples.yaml');
  const suites = ['esm-suite.mjs', 'typescript-suite.ts', 'tinybench.mjs', 'mitata.mjs', 'bench-node.cjs', 'benchmark.cjs'];
  fs.writeFileSync(matrix, [
    'runtimes: [4.9.1, 18.20.8, system]',
    'flagSets:',
    '  baseline: []',
    'suites:',
    ...suites.map((s) => `  - name: ${JSON.stringify(example(s))}`),
    'run:',
    ...Object.entries(TINY).map(([k, v]) => `  ${k}: ${v}`)
  ].join('\n'));
  const out = path.join(tmp, 'examples.json');
  const run = await nodebench(['matrix', '--matrix', matrix, '--out', out, '--seed', '7']);
  assert.equal(run.exitCode, 0, run.stderr);
  const result = readResult(out);
  const formats = Object.fromEntries(result.suites.map((s) => [s.name, [s.format, s.moduleKind]]));
  assert.deepEqual(formats, {
    'esm-suite': ['nodebench', 'esm'],
    'typescript-suite': ['nodebench', 'typescript'],
    tinybench: ['tinybench', 'esm'],
    mitata: ['mitata', 'esm'],
    'bench-node': ['bench-node', 'commonjs'],
    benchmark: ['benchmark.js', 'commonjs']
  });
  assert.deepEqual(cellsOf(result, 'tinybench').filter((c) => c.runtime === '18.20.8').map((c) => c.benchmark), ['slice', 'spread', 'JSON round trip (async)']);
  for (const cell of result.cells) {
    const commonjs = ['bench-node', 'benchmark'].includes(cell.suite);
    if (cell.runtime === '4.9.1' && !commonjs) {
      assert.equal(cell.status, 'unsupported', `${cell.suite}/${cell.benchmark}`);
      assert.equal(cell.error, 'Node 4.9.1 cannot import ES modules from a CommonJS worker (needs >= 12.17)');
    } else {
      assert.equal(cell.status, 'ok', `${cell.suite}/${cell.benchmark} on ${cell.runtime}: ${cell.error}`);
    }
  }
  assert.match(run.stdout, /^tinybench \(a tinybench file, ES module\) {2}\(ops\/s/m);
  assert.match(run.stdout, /^typescript-suite \(TypeScript\) {2}\(ops\/s/m);
  assert.match(run.stdout, /^benchmark \(a benchmark\.js file\) {2}\(ops\/s/m);
  assert.match(run.stdout, /^esm-suite \(ES module\) {2}\(ops\/s/m);
});

test('a tinybench task that throws fails only its own cells, with its error; nodebench run exits 1', { timeout: 300_000 }, async () => {
  const out = path.join(tmp, 'hooks.json');
  const run = await nodebench(['run', fixture('tinybench-hooks.mjs'), '--node', 'system', '--out', out, ...TINY_FLAGS]);
  assert.equal(run.exitCode, 1, run.stderr);
  const byName = Object.fromEntries(readResult(out).cells.map((c) => [c.benchmark, c]));
  assert.equal(byName.throws.status, 'failed');
  assert.match(byName.throws.error, /task broke on purpose/);
  for (const name of ['counted', 'awaited', 'second / counted']) assert.equal(byName[name].status, 'ok', `${name}: ${byName[name].error}`);
});

test('refused library options fail their cells with the sentence; the other benchmarks of the file run', { timeout: 300_000 }, async () => {
  const out = path.join(tmp, 'refused.json');
  const run = await nodebench(['run', fixture('mitata-refused.mjs'), '--node', 'system', '--out', out, ...TINY_FLAGS]);
  assert.equal(run.exitCode, 1, run.stderr);
  const result = readResult(out);
  const byName = Object.fromEntries(result.cells.map((c) => [c.benchmark, c]));
  assert.equal(byName.plain.status, 'ok');
  assert.equal(byName.manual.status, 'failed');
  assert.match(byName.manual.error, /^threw during setup: mitata benchmark "manual" yields a manual-timing benchmark/);
  const concurrentOut = path.join(tmp, 'refused-concurrency.json');
  const refused = await nodebench(['run', fixture('tinybench-refused.mjs'), '--node', 'system', '--out', concurrentOut, ...TINY_FLAGS]);
  assert.equal(refused.exitCode, 1, refused.stderr);
  assert.match(readResult(concurrentOut).suites[0].benchmarks.find((b) => b.name === 'in parallel').refused, /^tinybench task "in parallel" belongs to a Bench with concurrency/);
});

function assertUserError(run, pattern) {
  assert.equal(run.exitCode, 2, `exit code (stderr: ${run.stderr})`);
  assert.match(run.stderr, pattern);
  assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
  assert.equal(run.stderr.trim().split('\n').length, 1, `one line: ${run.stderr}`);
}

test('a file of no known form, and ES module and CommonJS mix-ups, are one sentence and exit 2', { timeout: 120_000 }, async () => {
  const out = path.join(tmp, 'never.json');
  assertUserError(await nodebench(['run', fixture('neither.mjs'), '--node', 'system', '--out', out]),
    /neither\.mjs is none of the forms nodebench runs: export a benchmarks object \(nodebench's suite format, as CommonJS, an ES module or TypeScript\), or build benchmarks with tinybench, mitata, bench-node or benchmark\.js and call their run\(\)\.$/m);
  assertUserError(await nodebench(['run', fixture('esm-syntax.js'), '--node', 'system', '--out', out]),
    /esm-syntax\.js uses import or export but Node loads it as CommonJS .*: rename it to \.mjs, or add \{"type": "module"\}/);
  assertUserError(await nodebench(['run', fixture('module-pkg/wrong-require.js'), '--node', 'system', '--out', out]),
    /wrong-require\.js uses require or module\.exports but Node loads it as an ES module .*: rename it to \.cjs, or write it with export\./);
  assertUserError(await nodebench(['run', fixture('two-libraries.mjs'), '--node', 'system', '--out', out]), /uses mitata and tinybench; nodebench runs one library's benchmarks per file: split it into one file per library\.$/m);
  assert.ok(!fs.existsSync(out), 'no result file for a run that never started');
});
