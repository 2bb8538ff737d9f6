// A team's own HTTP server under load (examples/own-server): started in the runtime under test from
// service.createServer, loaded over loopback, reported with req/s, latency percentiles, errors, CPU
// and peak RSS, on an old and a current runtime; a benchmark may be a load profile alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodebench, root } from './helpers/cli.js';
import { benchmarkValue, testRuntime } from './helpers/runtimes.js';
import { schemaErrors } from './helpers/schema.js';

const SUITE = path.join(root, 'examples', 'own-server', 'bench.cjs');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-own-server-'));

test('the example server runs under load on Node 4.9.1 and 22 with req/s, latencies, errors, CPU and RSS', { timeout: 180_000 }, async () => {
  const current = await testRuntime('22');
  const out = path.join(tmp, 'server.json');
  const run = await nodebench(['run', SUITE, '--node', `4.9.1,${current.version}`, '--processes', '1', '--max-processes', '1',
    '--param', 'durationSec=1', '--param', 'warmupSec=1', '--param', 'rate=200', '--out', out]);
  assert.equal(run.exitCode, 0, run.stderr);
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.deepEqual(schemaErrors(result), []);
  assert.equal(result.cells.length, 4);
  for (const cell of result.cells) {
    assert.equal(cell.status, 'ok', cell.error);
    assert.equal(cell.benchmarkType, 'service');
    const service = cell.processes[0].service;
    assert.ok(service.requests > 50, `${cell.benchmark} on ${cell.runtime}: ${service.requests} requests`);
    assert.equal(service.errors + service.non2xx, 0);
    assert.ok(service.latencyMs.p99 >= service.latencyMs.p50);
    assert.ok(service.peakRssBytes > 10 * 1048576);
  }
  assert.match(run.stdout, /orders-api under load/);
});

test('what the app answers is checked in-process on both runtimes; a load profile alone runs under load only', async () => {
  for (const spec of ['4.9.1', '22']) assert.equal(await benchmarkValue(spec, SUITE, 'create-order'), 50.73);
  await assert.rejects(benchmarkValue('22', SUITE, 'fixed-rate'), /is a load profile of a service suite \(no fn\): it runs under load only/);
});
