// Fan-out: each runner runs its share of benchmarks (all columns of a benchmark on one machine);
// merge joins the shards into one file that reads like a single run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodebench, root } from './helpers/cli.js';
import { schemaErrors } from './helpers/schema.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-shard-'));
const matrix = path.join(tmp, 'm.yaml');
fs.writeFileSync(matrix, `runtimes: [4.9.1, system]
suites:
  - {name: ${path.join(root, 'test', 'fixtures', 'suites', 'smoke')}, benchmarks: [sum-loop, promise-chain, noisy-output]}
run: {processes: 1, maxProcesses: 1, samples: 3, minSampleMs: 2, warmupMinMs: 5, warmupMaxMs: 50, metrics: false, seed: 3}
`);

test('two shards split the benchmarks, keep every column of a benchmark together, and merge into one file', { timeout: 120_000 }, async () => {
  const shards = [1, 2].map((i) => path.join(tmp, `shard-${i}.json`));
  for (const [i, out] of shards.entries()) {
    const run = await nodebench(['matrix', '--matrix', matrix, '--shard', `${i + 1}/2`, '--out', out]);
    assert.equal(run.exitCode, 0, run.stderr);
  }
  const [a, b] = shards.map((f) => JSON.parse(fs.readFileSync(f, 'utf8')));
  const benchmarks = (r) => [...new Set(r.cells.map((c) => c.benchmark))];
  assert.deepEqual(benchmarks(a), ['sum-loop', 'noisy-output']);
  assert.deepEqual(benchmarks(b), ['promise-chain']);
  assert.equal(a.cells.length, 4, 'both runtimes of each benchmark in one shard');
  assert.deepEqual(a.shard, { index: 1, count: 2 });

  const merged = path.join(tmp, 'merged.json');
  const run = await nodebench(['merge', ...shards, '--out', merged]);
  assert.equal(run.exitCode, 0, run.stderr);
  const result = JSON.parse(fs.readFileSync(merged, 'utf8'));
  assert.deepEqual(schemaErrors(result), []);
  assert.equal(result.cells.length, 6);
  assert.equal(result.mergedFrom.length, 2);
  const report = await nodebench(['report', merged]);
  assert.match(report.stdout, /promise-chain\s+\S+/);

  const twice = await nodebench(['merge', shards[0], shards[0], '--out', path.join(tmp, 'x.json')]);
  assert.equal(twice.exitCode, 2);
  assert.match(twice.stderr, /is in both .*shard-1\.json and .*shard-1\.json; merge each shard once/);
  const badShard = await nodebench(['matrix', '--matrix', matrix, '--shard', '3/2']);
  assert.equal(badShard.exitCode, 2);
  assert.match(badShard.stderr, /--shard "3\/2" must look like 1\/3/);
});
