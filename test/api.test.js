import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

test('import "nodebench": run a matrix, load its result, compare two columns', { timeout: 120_000 }, async () => {
  const api = await import('nodebench');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-api-'));
  const matrix = api.parseMatrix(`runtimes: [system]\nflagSets: {baseline: [], young-8: ["--max-semi-space-size=8"]}\nsuites: [{name: ${path.join(root, 'test', 'fixtures', 'suites', 'smoke', 'index.js')}, benchmarks: [sum-loop]}]\nrun: {processes: 3, samples: 3, metrics: false}\n`);
  const out = path.join(dir, 'r.json');
  const { result, interrupted } = await api.runMatrix({ ...matrix, baseDir: root }, { out });
  assert.equal(interrupted, false);
  assert.deepEqual(result.cells.map((c) => c.status), ['ok', 'ok']);
  const loaded = await api.loadResult(out);
  assert.equal(loaded.cells.length, 2);
  const [a, b] = loaded.cells;
  const comparison = api.compare(a, b);
  assert.ok(comparison.ratio > 0 && ['faster', 'slower', 'same', 'undecided'].includes(comparison.verdict));
  assert.match(api.renderTables(loaded), /sum-loop/);
  assert.equal(api.DEFAULT_RUN.processes, api.RUN_OPTIONS.find((o) => o.name === 'processes').default);
  await assert.rejects(api.runMatrix(matrix, {}), api.UserError);
  // A matrix object that did not come through parseMatrix: its runtime specs are still checked.
  await assert.rejects(api.runMatrix({ ...matrix, runtimes: [{ spec: 'system' }, { spec: 'x' }] }, { out: path.join(dir, 'x.json') }),
    (err) => err instanceof api.UserError && /^Runtime spec "x" is not a version, range/.test(err.message));
});
