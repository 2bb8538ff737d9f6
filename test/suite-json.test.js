// suites/json on the real Node 4.9.1 and the current runtime: the three serialise pipelines produce
// base64 that inflates back to exactly JSON.stringify(payload), bfj is unsupported on Node 4, the
// parse benchmarks agree, profile-roundtrip applies its update, and a measured run reports samples.
// The payload generator is deterministic, so the host rebuilds the documents the worker built.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { benchmarkValue, runWorkerIn } from './helpers/runtimes.js';

const require = createRequire(import.meta.url);
const suiteFile = fileURLToPath(new URL('../suites/json/index.js', import.meta.url));
const payload = require('../suites/json/payload.js');

const SPECS = ['4.9.1', 'system'];
// 48 KB is enough for JSONStream to meet the deflate stream's back-pressure (its write returns false).
const params = { payloadKB: 48, documents: 6, documentKB: 1, profileKB: 2, seed: 3, requestTime: '2020-01-02T03:04:05.000Z' };
const tinySampler = { minSampleMs: 2, samples: 3, warmupMinMs: 5, warmupMaxMs: 50 };

const records = payload.records(params.payloadKB, params.seed);
const recordsText = JSON.stringify(records);

function inflateBase64(value) {
  assert.equal(typeof value, 'string', `expected base64, got ${JSON.stringify(value).slice(0, 200)}`);
  return zlib.inflateSync(Buffer.from(value, 'base64')).toString('utf8');
}

test('the suite exports its library versions and loads on Node 4.9.1', async () => {
  assert.deepEqual(require(suiteFile).libraries, { bfj: '7.1.0', JSONStream: '1.3.5' });
  const { byType } = await runWorkerIn('4.9.1', { mode: 'list', suite: suiteFile });
  assert.ok(byType.suite, `no suite description: ${JSON.stringify(byType.error)}`);
  assert.deepEqual(byType.suite.suite.benchmarks.map((b) => b.name), [
    'JSON.stringify+deflate', 'JSONStream', 'bfj', 'parse-individual', 'parse-aggregated', 'profile-roundtrip'
  ]);
});

test('the payload is a deterministic top-level array of nested request/response records', () => {
  assert.ok(Array.isArray(records) && records.length > 1);
  assert.ok(recordsText.length >= params.payloadKB * 1024);
  assert.equal(JSON.stringify(payload.records(params.payloadKB, params.seed)), recordsText);
  const r = records[0];
  for (const key of ['method', 'url', 'request', 'response', 'timing']) assert.ok(key in r, key);
  assert.equal(typeof r.request.headers, 'object');
  assert.match(recordsText, /\\n|\\"/, 'has characters a serialiser must escape');
});

for (const spec of SPECS) {
  test(`the serialise pipelines inflate back to the payload on ${spec}`, async () => {
    const names = ['JSON.stringify+deflate', 'JSONStream', 'bfj'];
    const values = await Promise.all(names.map((name) => benchmarkValue(spec, suiteFile, name, params)));
    names.forEach((name, i) => {
      if (name === 'bfj' && spec === '4.9.1') {
        assert.match(values[i].unsupported, /needs >= 8\.0\.0/);
        return;
      }
      const text = inflateBase64(values[i]);
      assert.equal(text, recordsText, `${name} on ${spec}`);
      assert.deepEqual(JSON.parse(text), records, `${name} on ${spec}`);
    });
  });

  test(`parse-individual and parse-aggregated give the same documents on ${spec}`, async () => {
    const expected = payload.cachedStrings(params.documents, params.documentKB, params.seed).map((s) => JSON.parse(s));
    const [individual, aggregated] = await Promise.all(['parse-individual', 'parse-aggregated'].map(
      (name) => benchmarkValue(spec, suiteFile, name, params)));
    assert.equal(individual.length, params.documents);
    assert.deepEqual(individual, expected);
    assert.deepEqual(aggregated, expected);
  });

  test(`profile-roundtrip parses, updates and stringifies a profile on ${spec}`, async () => {
    const original = payload.profile(params.profileKB, params.seed);
    const out = await benchmarkValue(spec, suiteFile, 'profile-roundtrip', params);
    const updated = JSON.parse(out);
    assert.equal(updated.lastSeen, params.requestTime);
    assert.equal(updated.stats.gamesPlayed, original.stats.gamesPlayed + 1);
    assert.equal(updated.stats.xp, original.stats.xp + 125);
    assert.equal(out, JSON.stringify(payload.applyRequest(original, params.requestTime)));
  });

  test(`a measured run of JSONStream reports positive samples on ${spec}`, async () => {
    const { byType, stderrTail } = await runWorkerIn(spec, {
      mode: 'run', suite: suiteFile, benchmark: 'JSONStream', params, sampler: tinySampler
    });
    assert.ok(byType.result, `no result: ${JSON.stringify(byType.error)} ${stderrTail}`);
    assert.equal(byType.result.benchmarkType, 'callback');
    const samples = byType.result.measurement.samplesNsPerOp;
    assert.equal(samples.length, 3);
    for (const ns of samples) assert.ok(ns > 0, `sample ${ns}`);
  });
}

test('bfj runs on the current runtime and is unsupported on Node 4.9.1', async () => {
  const [old, current] = await Promise.all(SPECS.map((spec) => benchmarkValue(spec, suiteFile, 'bfj', params)));
  assert.match(old.unsupported, /unsupported on Node 4\.9\.1 \(needs >= 8\.0\.0\)/);
  assert.equal(inflateBase64(current), recordsText);
});
