// A benchmark file whose library comes through a module it imports (issue 39, item 12): the layout of
// nodejs-bench-operations, where bench/stream-readable.mjs imports createBenchmarkSuite from
// ../common.mjs and only common.mjs imports bench-node. nodebench looked for library imports in the
// entry alone, so the real bench-node loaded (it is installed here, as it was there) and the file
// was refused with bench-node's own "must be run with --allow-natives-syntax". Real runs through
// the CLI, on this Node and on 24.21.0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodebench, root } from './helpers/cli.js';
import { testRuntime } from './helpers/runtimes.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-helpers-'));
const fixture = (...parts) => path.join(root, 'test', 'fixtures', 'own-code', ...parts);
const TINY = ['--processes', '1', '--max-processes', '1', '--samples', '3'];

test('an ES module entry whose bench-node comes through ../common.mjs runs every task as bench-node', { timeout: 300_000 }, async () => {
  await testRuntime('24.21.0');
  const out = path.join(tmp, 'esm.json');
  const run = await nodebench(['run', fixture('helper-import', 'bench', 'stream-readable.mjs'), '--node', 'system,24.21.0', ...TINY, '--out', out]);
  assert.equal(run.exitCode, 0, run.stdout + run.stderr);
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.equal(result.suites[0].format, 'bench-node');
  assert.deepEqual(result.cells.map((c) => [c.benchmark, c.status]).sort(), [
    ['Array.from 100 strings', 'ok'], ['Array.from 100 strings', 'ok'], ['Readable.from 100 chunks', 'ok'], ['Readable.from 100 chunks', 'ok']
  ]);
});

test('a CommonJS entry whose bench-node comes through require(\'./lib/suite\') runs as bench-node', { timeout: 300_000 }, async () => {
  const out = path.join(tmp, 'cjs.json');
  const run = await nodebench(['run', fixture('helper-import-cjs', 'index.js'), ...TINY, '--out', out]);
  assert.equal(run.exitCode, 0, run.stdout + run.stderr);
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.equal(result.suites[0].format, 'bench-node');
  assert.deepEqual(result.cells.map((c) => [c.benchmark, c.status]), [['join', 'ok']]);
});

test('a library beyond the imports nodebench follows ran for real, and the sentence says so and what to add', { timeout: 120_000 }, async () => {
  const run = await nodebench(['run', fixture('helper-deep', 'entry.mjs'), ...TINY, '--out', path.join(tmp, 'deep.json')]);
  assert.equal(run.exitCode, 2, run.stdout + run.stderr);
  assert.match(run.stderr, /the real bench-node ran, not nodebench's stand-in: the file imports it through a module nodebench does not look into \(it follows relative imports 3 levels deep, not packages\); add import 'bench-node' \(or require\('bench-node'\)\) to the file itself/);
  assert.doesNotMatch(run.stderr, /\n\s+at /);
});
