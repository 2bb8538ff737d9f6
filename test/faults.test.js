// Faults in the runtime under test end as one cell's status and reason; every other cell is kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { nodebench, cliPath, root } from './helpers/cli.js';
import { schemaErrors } from './helpers/schema.js';
import { taggedBy, settled } from './helpers/processes.js';

const FAULTS = path.join(root, 'test', 'fixtures', 'suites', 'faults', 'index.js');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-faults-'));

test('crashes, OOM, early exits, rejections and unparsable syntax fail their own cells only', { timeout: 240_000 }, async () => {
  const out = path.join(tmp, 'faults.json');
  const run = await nodebench(['matrix', '--matrix', path.join(root, 'test', 'fixtures', 'faults-matrix.yaml'), '--out', out]);
  assert.equal(run.exitCode, 1, run.stderr);
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.deepEqual(schemaErrors(result), []);
  const cells = (benchmark, flagSet) => result.cells.filter((c) => c.benchmark === benchmark && (!flagSet || c.flagSet === flagSet));
  for (const c of cells('honest')) assert.equal(c.status, 'ok');
  assert.equal(cells('out-of-memory').length, 2);
  for (const c of cells('out-of-memory')) {
    assert.equal(c.status, 'failed');
    assert.match(c.error, /^ran out of memory \(.*\); raise --max-old-space-size in the flag set or shrink the benchmark$/);
  }
  for (const c of cells('crashes')) assert.match(c.error, /^crashed with SIGSEGV/);
  for (const c of cells('exits-early')) assert.match(c.error, /^exited before reporting a result: the benchmark's promise never settled/);
  for (const c of cells('rejects')) assert.equal(c.error, 'threw: the service answered 503');
  for (const c of cells('undeclared-new-syntax').filter((x) => x.runtime === '4.9.1')) {
    assert.equal(c.status, 'failed');
    assert.match(c.error, /^threw during load: .*\(syntax this runtime cannot parse: declare minNode in the suite or benchmark\)$/);
  }
  for (const c of cells('undeclared-new-syntax').filter((x) => x.runtime !== '4.9.1')) assert.equal(c.status, 'ok');
});

test('Ctrl-C keeps what finished: status interrupted, exit 130, no worker left behind', { timeout: 120_000 }, async () => {
  const out = path.join(tmp, 'interrupted.json');
  const child = execa(process.execPath, [cliPath, 'run', FAULTS, '--node', 'system', '--benchmarks', 'honest', '--processes', '20', '--out', out], { reject: false, stdin: 'ignore' });
  // Wait until at least one process has finished and been saved.
  const deadline = Date.now() + 60_000;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const saved = fs.existsSync(out) && JSON.parse(fs.readFileSync(out, 'utf8'));
    if (saved && saved.cells.some((c) => c.processes.length >= 2)) break;
    assert.ok(Date.now() < deadline, 'no process finished within 60 s');
  }
  child.kill('SIGINT');
  const run = await child;
  assert.equal(run.exitCode, 130, run.stderr);
  assert.match(run.stderr, /SIGINT: stopping; keeping what finished/);
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.equal(result.status, 'interrupted');
  assert.deepEqual(schemaErrors(result), []);
  const [cell] = result.cells;
  assert.equal(cell.status, 'ok');
  assert.ok(cell.processes.length >= 2 && cell.processes.length < 20);
  assert.match(cell.warnings.map((w) => w.message).join('\n'), /interrupted after \d+ of 20 processes/);
  // No worker of this run is left (found by its tag: a worker's command line does not name the
  // suite), given a moment for a killed one to exit on a loaded host.
  assert.deepEqual(await settled(() => taggedBy(child.pid)), []);
});

test('process.exit(0) in a suite\'s setup is reported as such, not as a promise that never settled', { timeout: 60_000 }, async () => {
  const out = path.join(tmp, 'exits.json');
  const run = await execa(process.execPath, [cliPath, 'run', path.join(root, 'test', 'fixtures', 'suites', 'exits', 'index.js'), '--node', 'system', '--processes', '1', '--out', out], { reject: false, stdin: 'ignore' });
  assert.equal(run.exitCode, 1, run.stderr);
  const [cell] = JSON.parse(fs.readFileSync(out, 'utf8')).cells;
  assert.equal(cell.status, 'failed');
  assert.match(cell.error, /^the suite called process\.exit\(0\) in its setup, before the benchmark ran, so the worker could not report/);
});
