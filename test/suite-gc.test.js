// suites/gc on the real Node 4.9.1 and the current runtime: each workload returns the same
// deterministic checksum on both runtimes (and the sync and async old-generation variants agree),
// measured runs report samples, and young-gen-churn runs under --max-semi-space-size=64 on both.
// The gc-marking suite (suites/gc/marking.js, log-service): the same checks, and its metrics
// process measures event-loop delay.
// Whether a flag set changes GC time is a measurement for the harness, not a pass/fail test here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchmarkValue, runWorkerIn } from './helpers/runtimes.js';

const require = createRequire(import.meta.url);
const suiteFile = fileURLToPath(new URL('../suites/gc/index.js', import.meta.url));
const markingFile = fileURLToPath(new URL('../suites/gc/marking.js', import.meta.url));

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

// A few MB instead of hundreds, and requests 2 ms apart, so that each process takes well under a second.
const smallService = { indexMB: 2, recentMB: 1, requestsPerSecond: 500, entriesPerRequest: 300, indexUpdatesPerRequest: 7, queryEntries: 11 };

test('gc-marking lists log-service, a callback benchmark, and is left out of `all`', () => {
  const suite = require(markingFile);
  assert.equal(suite.name, 'gc-marking');
  assert.deepEqual(Object.keys(suite.benchmarks), ['log-service']);
  assert.equal(suite.benchmarks['log-service'].type, 'callback');
  assert.ok(suite.sampler.metricsProcesses >= 3 && suite.sampler.metricsMs >= 10_000, JSON.stringify(suite.sampler));
  // `all` is every folder's index.js: the suite lives in the gc folder under another name.
  assert.notEqual(path.basename(markingFile), 'index.js');
});

test('log-service computes the same first request on Node 4.9.1, the current runtime and here', async () => {
  const service = require('../suites/gc/log-service.js');
  const ctx = service.setup({}, smallService);
  const expected = service.serve(ctx);
  assert.ok(Number.isInteger(expected) && expected > 0, `checksum ${expected}`);
  // Each entry is replaced in turn: the second request overwrites the next entries, another sum.
  assert.notEqual(service.serve(ctx), expected);
  const values = await Promise.all(SPECS.map((spec) => benchmarkValue(spec, markingFile, 'log-service', smallService)));
  assert.deepEqual(values, SPECS.map(() => expected));
});

test('log-service refuses a request rate that is not a positive number, naming the parameter', async () => {
  await assert.rejects(benchmarkValue('system', markingFile, 'log-service', { ...smallService, requestsPerSecond: 0 }),
    /params\.requestsPerSecond must be a positive number, not 0/);
});

for (const spec of SPECS) {
  test(`log-service reports samples on ${spec}, and its metrics process measures event-loop delay`, async () => {
    const [timed, metrics] = await Promise.all([
      runWorkerIn(spec, { mode: 'run', suite: markingFile, benchmark: 'log-service', params: smallService, sampler: tinySampler }),
      runWorkerIn(spec, { mode: 'metrics', suite: markingFile, benchmark: 'log-service', params: smallService, sampler: { ...tinySampler, samples: 1e9, maxSampleMs: 300 } }, { flags: ['--trace-gc'] })
    ]);
    assert.equal(assertSamples(timed, `log-service on ${spec}`).benchmarkType, 'callback');
    const report = metrics.byType.metrics;
    assert.ok(report, `no metrics report: ${JSON.stringify(metrics.byType.error || metrics.stderrTail)}`);
    assert.equal(report.benchmarkType, 'callback');
    assert.ok(report.eventLoopDelay.samples > 0 && Number.isFinite(report.eventLoopDelay.p99Ms), JSON.stringify(report.eventLoopDelay));
  });
}
