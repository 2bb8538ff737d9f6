// Fan-out: each runner runs its share of benchmarks (all columns of a benchmark on one machine);
// merge joins the shards into one file that reads like a single run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodebench, root } from './helpers/cli.js';
import { schemaErrors } from './helpers/schema.js';
import { parseShard } from '../cli/matrix/shard.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-shard-'));
const matrix = path.join(tmp, 'm.yaml');
fs.writeFileSync(matrix, `runtimes: [4.9.1, system]
suites:
  - {name: ${path.join(root, 'test', 'fixtures', 'suites', 'smoke')}, benchmarks: [sum-loop, promise-chain, noisy-output]}
run: {processes: 1, maxProcesses: 1, samples: 3, minSampleMs: 2, warmupMinMs: 5, warmupMaxMs: 50, metrics: false, seed: 3}
`);

test('two shards split the benchmarks, keep every column of a benchmark together, and merge into one file', { timeout: 120_000 }, async () => {
  const shards = [1, 2].map((i) => path.join(tmp, `shard-${i}.json`));
  // The second runner finds its shard the way GitLab's parallel jobs say it (1-based).
  for (const [i, out] of shards.entries()) {
    const shardArgs = i === 0 ? ['--shard', '1/2'] : ['--shard', 'auto'];
    const run = await nodebench(['matrix', '--matrix', matrix, ...shardArgs, '--out', out], { env: i === 0 ? {} : { CI_NODE_INDEX: '2', CI_NODE_TOTAL: '2' } });
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
  assert.match(twice.stderr, /shard-1\.json and .*shard-1\.json are both shard 1\/2; merge each shard once/);

  // The same cells as one unsharded run of the matrix.
  const whole = path.join(tmp, 'whole.json');
  assert.equal((await nodebench(['matrix', '--matrix', matrix, '--out', whole])).exitCode, 0);
  const cellKeys = (r) => r.cells.map((c) => `${c.benchmark}/${c.runtimeLabel}/${c.flagSet}/${c.status}`).sort();
  assert.deepEqual(cellKeys(result), cellKeys(JSON.parse(fs.readFileSync(whole, 'utf8'))));
  assert.equal(result.hosts.length, 2, 'every shard keeps its host');

  const refuse = async (files, message, extra = []) => {
    const run = await nodebench(['merge', ...files, '--out', path.join(tmp, 'refused.json'), ...extra]);
    assert.equal(run.exitCode, 2, run.stderr);
    assert.match(run.stderr, message);
    assert.ok(!fs.existsSync(path.join(tmp, 'refused.json')));
  };
  await refuse([shards[0]], /Shard 2\/2 is missing; give every shard's file, or pass --allow-partial/);
  assert.equal((await nodebench(['merge', shards[0], '--allow-partial', '--out', path.join(tmp, 'partial.json')])).exitCode, 0);
  await refuse([shards[0], whole], /whole\.json is not a shard/);
  const tamper = (name, change) => {
    const data = JSON.parse(fs.readFileSync(shards[1], 'utf8'));
    change(data);
    const file = path.join(tmp, name);
    fs.writeFileSync(file, JSON.stringify(data));
    return file;
  };
  await refuse([shards[0], tamper('params.json', (d) => { d.suites[0].params.size = 999; })], /Suite smoke has parameters \{"size":999\} in .*params\.json but \{"size":200\} in .*shard-1\.json/);
  await refuse([shards[0], tamper('samples.json', (d) => { d.run.samples = 30; })], /samples\.json was run with different options from .*shard-1\.json \(samples: 30 vs 3\); merge only shards run with the same options/);
  await refuse([shards[0], tamper('count.json', (d) => { d.shard.count = 3; })], /count\.json is shard 2\/3 but .*shard-1\.json is one of 2/);
  // One benchmark's columns measured on two machines.
  const shard1 = JSON.parse(fs.readFileSync(shards[0], 'utf8'));
  const moved = shard1.cells.find((c) => c.benchmark === 'sum-loop');
  await refuse([shards[0], tamper('split-row.json', (d) => {
    d.host.hostname = 'other-runner';
    d.cells.push({ ...moved, runtimeLabel: moved.runtimeLabel, flagSet: 'extra' });
  })], /smoke\/sum-loop has cells from host \S+ \(.*shard-1\.json\) and host other-runner \(.*split-row\.json\); a benchmark's columns must be timed on one machine, so rerun it there, or count instructions \(--measure instructions\), which no host moves\./);
  // A shard that counted instructions (a real run, test/fixtures/history/counted-16.json) beside a
  // time shard: different units, refused before anything else about them.
  const counted = JSON.parse(fs.readFileSync(path.join(root, 'test', 'fixtures', 'history', 'counted-16.json'), 'utf8'));
  const countedShard = path.join(tmp, 'counted-shard.json');
  fs.writeFileSync(countedShard, JSON.stringify({ ...counted, shard: { index: 2, count: 2 }, mergedFrom: undefined, hosts: undefined }));
  await refuse([shards[0], countedShard], /^nodebench: .*counted-shard\.json measured instructions \(instructions\/op\) but .*shard-1\.json measured time \(ns\/op\); merge only shards of one measure \(run every shard with --measure time\)\.$/);
  const badShard = await nodebench(['matrix', '--matrix', matrix, '--shard', '3/2']);
  assert.equal(badShard.exitCode, 2);
  assert.match(badShard.stderr, /--shard "3\/2" must look like 1\/3/);
});

test('--shard auto reads each CI engine\'s variables', () => {
  assert.deepEqual(parseShard('auto', { NODEBENCH_SHARD_INDEX: '0', NODEBENCH_SHARD_COUNT: '3' }), { index: 1, count: 3 });
  assert.deepEqual(parseShard('auto', { CI_NODE_INDEX: '3', CI_NODE_TOTAL: '3' }), { index: 3, count: 3 });
  assert.deepEqual(parseShard('auto', { BUILDKITE_PARALLEL_JOB: '1', BUILDKITE_PARALLEL_JOB_COUNT: '4' }), { index: 2, count: 4 });
  assert.deepEqual(parseShard('auto', { CIRCLE_NODE_INDEX: '0', CIRCLE_NODE_TOTAL: '2' }), { index: 1, count: 2 });
  assert.deepEqual(parseShard('auto', { JOB_COMPLETION_INDEX: '4', NODEBENCH_SHARD_COUNT: '5' }), { index: 5, count: 5 });
  assert.throws(() => parseShard('auto', { JOB_COMPLETION_INDEX: '4' }), /read JOB_COMPLETION_INDEX="4" and NODEBENCH_SHARD_COUNT="" \(Kubernetes Indexed Job\), which is not a shard of a run/);
  assert.throws(() => parseShard('auto', {}), /--shard auto found no CI shard variables/);
});
