// suites/gc on the real Node 4.9.1 and the current runtime: each workload returns the same
// deterministic checksum on both runtimes (and the sync and async old-generation variants agree),
// measured runs report samples, and young-gen-churn runs under --max-semi-space-size=64 on both.
// Whether a flag set changes GC time is a measurement for the harness, not a pass/fail test here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { benchmarkValue, runWorkerIn } from './helpers/runtimes.js';

const require = createRequire(import.meta.url);
const suiteFile = fileURLToPath(new URL('../suites/gc/index.js', import.meta.url));

const SPECS = ['4.9.1', 'system'];
const small = {
  inflight: 8, tasksPerOp: 20, recordsPerTask: 25, payloads: 4,
  retainedMB: 4, listLength: 256, listsPerOp: 3, garbagePerNode: 1, chunk: 64, seed: 5
};
const tinySampler = { minSampleMs: 2, samples: 3, warmupMinMs: 5, warmupMaxMs: 50 };

test('the suite lists its benchmarks and default parameters', () => {
  const suite = require(suiteFile);
  assert.deepEqual(Object.keys(suite.benchmarks), ['young-gen-churn', 'old-gen-marking', 'old-gen-marking-async']);
  assert.equal(suite.benchmarks['young-gen-churn'].type, 'promise');
  assert.equal(suite.benchmarks['old-gen-marking-async'].type, 'callback');
  assert.equal(suite.params.inflight, 64);
  assert.equal(suite.params.retainedMB, 64);
});

const valuesBySpec = {};

for (const spec of SPECS) {
  test(`the workloads return their checksums on ${spec}`, async () => {
    const names = ['young-gen-churn', 'old-gen-marking', 'old-gen-marking-async'];
    const values = await Promise.all(names.map((name) => benchmarkValue(spec, suiteFile, name, small)));
    const [young, old, oldAsync] = values;

    assert.equal(young.tasks, small.tasksPerOp);
    assert.equal(young.records, small.tasksPerOp * small.recordsPerTask);
    for (const key of ['cents', 'tags', 'bytes']) {
      assert.ok(Number.isInteger(young[key]) && young[key] > 0, `young-gen-churn ${key}: ${young[key]}`);
    }
    // Each task counts between one and three tags per record.
    assert.ok(young.tags >= young.records && young.tags <= 3 * young.records);

    assert.equal(old.replaced, small.listsPerOp * small.listLength);
    assert.ok(Number.isInteger(old.checksum) && old.checksum > 0);
    assert.deepEqual(oldAsync, old, 'the async variant does the same replacements');
    valuesBySpec[spec] = values;
  });
}

test('Node 4.9.1 and the current runtime compute the same checksums', (t) => {
  if (!valuesBySpec['4.9.1'] || !valuesBySpec.system) return t.skip('an earlier test failed');
  assert.deepEqual(valuesBySpec['4.9.1'], valuesBySpec.system);
});

function assertSamples(run, label) {
  const result = run.byType.result;
  assert.ok(result, `no result for ${label}: ${JSON.stringify(run.byType.error || run.stderrTail)}`);
  assert.ok(result.measurement.samplesNsPerOp.length >= 3, label);
  for (const ns of result.measurement.samplesNsPerOp) assert.ok(ns > 0, `${label}: sample ${ns}`);
  return result;
}

for (const spec of SPECS) {
  test(`measured runs report samples on ${spec}, young-gen-churn also under --max-semi-space-size=64`, async () => {
    const request = (benchmark) => ({ mode: 'run', suite: suiteFile, benchmark, params: small, sampler: tinySampler });
    const [old, oldAsync, young] = await Promise.all([
      runWorkerIn(spec, request('old-gen-marking')),
      runWorkerIn(spec, request('old-gen-marking-async')),
      runWorkerIn(spec, request('young-gen-churn'), { flags: ['--max-semi-space-size=64'] })
    ]);
    assert.equal(assertSamples(old, `old-gen-marking on ${spec}`).benchmarkType, 'sync');
    assert.equal(assertSamples(oldAsync, `old-gen-marking-async on ${spec}`).benchmarkType, 'callback');
    assert.equal(assertSamples(young, `young-gen-churn on ${spec}`).benchmarkType, 'promise');
    assert.ok(young.byType.hello.runtime.execArgv.includes('--max-semi-space-size=64'),
      `the flag reached the worker: ${JSON.stringify(young.byType.hello.runtime.execArgv)}`);
  });
}
