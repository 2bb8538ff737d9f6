// suites/promises on the real Node 4.9.1 and the current runtime: every benchmark computes what it
// claims (native and Bluebird give the same checksums, equal to a plain loop's), the async/await
// variant is unsupported on Node 4 and agrees elsewhere, and a measured run reports samples.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { benchmarkValue, runWorkerIn } from './helpers/runtimes.js';

const require = createRequire(import.meta.url);
const suiteFile = fileURLToPath(new URL('../suites/promises/index.js', import.meta.url));
const { mix, chunkValue, MODULUS } = require('../suites/promises/shapes.js');

const SPECS = ['4.9.1', 'system'];
const params = { chunks: 40, stages: 3, concurrency: 4, steps: 150, width: 7, rounds: 6, seed: 5 };
const tinySampler = { minSampleMs: 2, samples: 3, warmupMinMs: 5, warmupMaxMs: 50 };

// What the shapes compute, written as plain synchronous loops.
function expectedPipeline(id, chunks, stages) {
  let sum = 0;
  for (let i = 0; i < chunks; i++) {
    let x = chunkValue(id, i);
    for (let k = 0; k < stages; k++) x = mix(x, k);
    sum += x;
  }
  return { chunks, sum };
}

function expectedConcurrent(chunks, stages, concurrency) {
  const sums = [];
  for (let id = 0; id < concurrency; id++) sums.push(expectedPipeline(id, chunks, stages).sum);
  return { pipelines: concurrency, chunks: chunks * concurrency, sum: sums.reduce((a, b) => a + b, 0), sums };
}

function expectedChain(steps, seed) {
  let value = seed;
  for (let i = 0; i < steps; i++) value = mix(value, i);
  return { steps, value };
}

function expectedFanout(width, rounds, seed) {
  let values = Array.from({ length: width }, (_, j) => mix(seed, j));
  for (let r = 0; r < rounds; r++) {
    values = values.map((v, j) => mix((v + values[(j + 1) % width]) % MODULUS, r * width + j));
  }
  return { width, rounds, sum: values.reduce((a, b) => a + b, 0), first: values[0], last: values[width - 1] };
}

const EXPECTED = {
  pipeline: expectedPipeline(0, params.chunks, params.stages),
  'pipeline-concurrent': expectedConcurrent(params.chunks, params.stages, params.concurrency),
  chain: expectedChain(params.steps, params.seed),
  fanout: expectedFanout(params.width, params.rounds, params.seed)
};

test('the suite exports its Bluebird version and loads on Node 4.9.1', async () => {
  assert.deepEqual(require(suiteFile).libraries, { bluebird: '3.7.2' });
  const { byType } = await runWorkerIn('4.9.1', { mode: 'list', suite: suiteFile });
  assert.ok(byType.suite, `no suite description: ${JSON.stringify(byType.error)}`);
  assert.deepEqual(byType.suite.suite.benchmarks.map((b) => b.name).sort(), [
    'chain-bluebird', 'chain-native', 'fanout-bluebird', 'fanout-native', 'pipeline-async-await',
    'pipeline-bluebird', 'pipeline-concurrent-bluebird', 'pipeline-concurrent-native', 'pipeline-native'
  ]);
});

for (const spec of SPECS) {
  test(`native and Bluebird compute the same checksums on ${spec}`, async () => {
    const shapes = Object.keys(EXPECTED);
    const values = await Promise.all(shapes.flatMap((shape) => ['native', 'bluebird'].map(
      (impl) => benchmarkValue(spec, suiteFile, `${shape}-${impl}`, params))));
    shapes.forEach((shape, i) => {
      assert.deepEqual(values[2 * i], EXPECTED[shape], `${shape}-native on ${spec}`);
      assert.deepEqual(values[2 * i + 1], EXPECTED[shape], `${shape}-bluebird on ${spec}`);
    });
  });
}

test('pipeline-async-await is unsupported on Node 4.9.1 and agrees with pipeline-native on current', async () => {
  const [old, current] = await Promise.all(SPECS.map((spec) => benchmarkValue(spec, suiteFile, 'pipeline-async-await', params)));
  assert.match(old.unsupported, /needs >= 7\.6\.0.*async functions/);
  assert.deepEqual(current, EXPECTED.pipeline);
});

for (const spec of SPECS) {
  test(`a measured run of pipeline-concurrent-bluebird reports positive samples on ${spec}`, async () => {
    const { byType, stderrTail } = await runWorkerIn(spec, {
      mode: 'run', suite: suiteFile, benchmark: 'pipeline-concurrent-bluebird', params, sampler: tinySampler
    });
    assert.ok(byType.result, `no result: ${JSON.stringify(byType.error)} ${stderrTail}`);
    assert.equal(byType.result.benchmarkType, 'promise');
    const samples = byType.result.measurement.samplesNsPerOp;
    assert.equal(samples.length, 3);
    for (const ns of samples) assert.ok(ns > 0, `sample ${ns}`);
  });
}
