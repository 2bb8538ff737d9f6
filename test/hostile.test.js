// A benchmark that attacks the harness from inside its worker fails its own cell with a sentence
// that says what happened; it never ends the run or passes as a measurement.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodebench, root } from './helpers/cli.js';
import { schemaErrors } from './helpers/schema.js';

const HOSTILE = path.join(root, 'test', 'fixtures', 'suites', 'hostile', 'index.js');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-hostile-'));

test('a malformed result on the report channel fails only its cell, with the reason', async () => {
  const out = path.join(tmp, 'malformed.json');
  const run = await nodebench(['run', HOSTILE, '--node', 'system', '--benchmarks', 'honest,malformed-result', '--quick', '--out', out]);
  assert.equal(run.exitCode, 1, run.stderr);
  assert.doesNotMatch(run.stderr, /internal error/);
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.deepEqual(schemaErrors(result), []);
  const cell = (name) => result.cells.find((c) => c.benchmark === name);
  assert.equal(cell('honest').status, 'ok');
  assert.equal(cell('malformed-result').status, 'failed');
  assert.match(cell('malformed-result').error, /malformed result \(it has no measurement\): something in the benchmark wrote to file descriptor 3/);
});

test('a hang after its cell\'s other processes took under a second costs seconds, not run.timeoutSec: once is run again, twice fails the cell', { timeout: 120_000 }, async () => {
  const out = path.join(tmp, 'hang.json');
  const started = Date.now();
  const run = await nodebench(['run', HOSTILE, '--node', 'system', '--benchmarks', 'hangs-third-process,hangs-from-third-process', '--processes', '4', '--max-processes', '4', '--samples', '3', '--timeout', '120', '--out', out]);
  const elapsed = Date.now() - started;
  assert.equal(run.exitCode, 1, run.stderr);
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.deepEqual(schemaErrors(result), []);
  const cell = (name) => result.cells.find((c) => c.benchmark === name);
  const once = cell('hangs-third-process');
  assert.equal(once.status, 'ok');
  assert.equal(once.processes.filter((p) => !p.rerun).length, 4);
  assert.equal(once.hangs.length, 1);
  assert.match(once.warnings.find((w) => w.code === 'hung').message, /^one process hung and was run again: it did not finish within 10 s while its cell's other processes took \d+\.\d s/);
  const twice = cell('hangs-from-third-process');
  assert.equal(twice.status, 'timeout');
  assert.match(twice.error, /^did not finish within 10 s while its cell's other processes took \d+\.\d s, so it was taken for a hang/);
  assert.ok(elapsed < 75_000, `three hangs cost ${elapsed} ms`);
});
