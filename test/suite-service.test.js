// suites/service + worker/serve.js + cli/runner/service.js on the real Node 4.9.1 and the current
// runtime: a launch under load returns ok with sane figures (throughput, 0 errors, ordered latency
// percentiles, CPU %, peak RSS); the service answers correctly (a real request with node:http, and
// the in-process request path through worker/child.js); and no process or port is left behind,
// whether the launch succeeds, times out mid-load, fails in setup, is refused a flag, or the
// service dies under load. Figures are not asserted beyond "> 0": numbers are claims for benchmarks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { runServiceLaunch } from '../cli/runner/service.js';
import { startService, allowedCores, pinServiceCores } from '../cli/runner/service-process.js';
import { processRecord } from '../cli/results/cell.js';
import { testRuntime, runWorkerIn, benchmarkValue } from './helpers/runtimes.js';

const require = createRequire(import.meta.url);
const suiteFile = fileURLToPath(new URL('../suites/service/index.js', import.meta.url));
const profiles = require('../suites/service/profiles.js');
const SPECS = ['4.9.1', 'system'];
const seen = [];   // every { pid, port } a test started, checked again at the end

// A pid checked again minutes later may belong to another process by then (the suite starts
// thousands; pid_max can be 32768): only a live worker/serve.js counts as the service still alive.
function gone(pid) {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return err.code === 'ESRCH';
  }
  try {
    return !fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('serve.js');
  } catch {
    return true;
  }
}

function refuses(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => { socket.destroy(); resolve(false); });
    socket.once('error', (err) => resolve(err.code === 'ECONNREFUSED'));
  });
}

async function assertNothingLeft(out, label) {
  assert.ok(Number.isInteger(out.pid), `${label}: a pid was recorded`);
  seen.push({ pid: out.pid, port: out.port });
  assert.ok(gone(out.pid), `${label}: process ${out.pid} is still alive`);
  if (out.port) {
    assert.ok(await refuses(out.port), `${label}: port ${out.port} still accepts connections`);
    assert.equal(out.cleanup.portClosed, true);
  }
}

function call(port, method, urlPath, body) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, agent: false,
      headers: body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => { text += chunk; });
      res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'], json: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function launch(spec, benchmark, params, { flags = [], timeoutMs = 20_000, onListening } = {}) {
  return testRuntime(spec).then((runtime) =>
    runServiceLaunch(runtime.path, flags, { suiteFile, benchmark, params }, { timeoutMs, onListening }));
}

function assertFigures(out, label) {
  assert.equal(out.status, 'ok', `${label}: ${out.error}`);
  const { measurement, memory, service } = out.result;
  assert.equal(out.result.benchmarkType, 'service');
  assert.ok(service.throughput > 0, `${label}: throughput ${service.throughput}`);
  assert.ok(service.requests > 0);
  assert.equal(service.errors, 0, `${label}: errors`);
  assert.equal(service.timeouts, 0, `${label}: timeouts`);
  assert.equal(service.non2xx, 0, `${label}: non-2xx answers`);
  const l = service.latencyMs;
  assert.ok(l.p50 > 0 && l.p50 <= l.p90 && l.p90 <= l.p95 && l.p95 <= l.p99 && l.p99 <= l.max,
    `${label}: percentiles out of order ${JSON.stringify(l)}`);
  assert.ok(service.cpuPercent > 0, `${label}: cpuPercent ${service.cpuPercent}`);
  assert.ok(service.peakRssBytes > 0 && memory.peakRssBytes === service.peakRssBytes);
  assert.ok(service.requestsHandled >= service.requests - service.connections, 'the service saw the requests');
  assert.ok(measurement.samplesNsPerOp.length >= 1 && measurement.samplesNsPerOp.every((s) => s > 0 && Number.isFinite(s)));
  assert.ok(measurement.cpuNsPerOp > 0);
  assert.equal(measurement.iterationsPerSample, 1);
  assert.ok(measurement.warmup.ms > 0, 'a warm-up ran');
  if (label.startsWith('4.9.1')) assert.equal(out.hello.runtime.node, '4.9.1');
  else assert.match(out.hello.runtime.node, /^\d+\.\d+\.\d+$/);
  const record = processRecord(1, out.result, out.wallMs);
  assert.deepEqual(record.samplesNsPerOp, measurement.samplesNsPerOp);
  assert.equal(record.service, service);
}

for (const spec of SPECS) {
  test(`max-throughput and fixed-rate-1k under load on ${spec}: ok, 0 errors, nothing left behind`, { timeout: 90_000 }, async () => {
    const max = await launch(spec, 'max-throughput', { durationSec: 2, warmupSec: 1 });
    assertFigures(max, `${spec} max-throughput`);
    assert.equal(max.result.service.rate, null);
    assert.equal(max.result.service.connections, 10);
    assert.equal(max.result.measurement.samplesNsPerOp.length, 2, 'one sample per whole second');
    await assertNothingLeft(max, `${spec} max-throughput`);

    const fixed = await launch(spec, 'fixed-rate-1k', { durationSec: 1, warmupSec: 1 });
    assertFigures(fixed, `${spec} fixed-rate`);
    assert.equal(fixed.result.service.rate, 1000);
    assert.ok(fixed.result.service.throughput <= 1300, `rate held: ${fixed.result.service.throughput} req/s`);
    await assertNothingLeft(fixed, `${spec} fixed-rate`);
  });

  test(`the service answers correctly on ${spec} (real requests over loopback)`, { timeout: 60_000 }, async () => {
    const runtime = await testRuntime(spec);
    const service = startService(runtime.path, [], { suite: suiteFile, benchmark: 'max-throughput', params: { profiles: 50, seed: 9 } });
    let port;
    try {
      const listening = await service.next('listening');
      port = listening.port;
      assert.equal(listening.host, '127.0.0.1');
      assert.equal(listening.load.connections, 10);
      assert.equal(listening.requests.length, 50, 'distinct requests are capped at the number of profiles');
      const expected = profiles.createStore(50, 9).get('7');

      const read = await call(port, 'GET', '/profile/7');
      assert.equal(read.status, 200);
      assert.match(read.type, /^application\/json/);
      assert.deepEqual(read.json, { ok: true, profile: expected }, 'the worker built the same profiles as the host');

      const update = { lastSeen: '2021-02-03T04:05:06.000Z', visits: 3, preferences: { theme: 'dark', language: 'de' } };
      const written = await call(port, 'POST', '/profile/7', JSON.stringify(update));
      assert.equal(written.status, 200);
      assert.deepEqual(written.json.profile, {
        ...expected,
        lastSeen: update.lastSeen,
        visits: expected.visits + 3,
        preferences: { ...expected.preferences, theme: 'dark', language: 'de' },
        version: 2
      });
      assert.equal((await call(port, 'GET', '/profile/7')).json.profile.version, 2, 'the update is cached');
      assert.equal((await call(port, 'POST', '/profile/999', '{}')).status, 404);
      assert.equal((await call(port, 'POST', '/profile/7', '{not json')).status, 400);
      assert.equal((await call(port, 'POST', '/profile/7', '{"visits":-1}')).status, 400);
      assert.equal((await call(port, 'DELETE', '/profile/7')).status, 405);
      assert.deepEqual((await call(port, 'GET', '/health')).json, { ok: true, profiles: 50 });

      service.send('start');
      await service.next('started');
      await call(port, 'GET', '/health');
      service.send('stop');
      const metrics = await service.next('service-metrics');
      assert.equal(metrics.requestsHandled, 1);
      assert.ok(metrics.wallMs > 0 && metrics.peakRssBytes > 0 && typeof metrics.peakRssMethod === 'string');
      await service.exited;
    } finally {
      service.kill();
      await service.exited;
    }
    seen.push({ pid: service.pid, port });
    assert.ok(gone(service.pid));
    assert.ok(await refuses(port));
  });
}

test('the in-process request path gives the same answer on 4.9.1 and the current runtime', { timeout: 60_000 }, async () => {
  const params = { profiles: 100, seed: 4 };
  const old = await benchmarkValue('4.9.1', suiteFile, 'fixed-rate-1k', params);
  const current = await benchmarkValue('system', suiteFile, 'fixed-rate-1k', params);
  assert.equal(old, current);
  const answer = JSON.parse(current);
  assert.equal(answer.ok, true);
  assert.equal(answer.profile.version, 2);
  const { byType } = await runWorkerIn('4.9.1', { mode: 'list', suite: suiteFile });
  assert.equal(byType.suite.suite.service, true, 'the host can tell a service suite');
  assert.deepEqual(byType.suite.suite.benchmarks.map((b) => b.name), ['max-throughput', 'fixed-rate-1k']);
});

for (const spec of SPECS) {
  // The time limit counts from the spawn: 6 s leaves a loaded host room to start the runtime and
  // listen, and the 30 s load is still far from done when it strikes.
  test(`a launch that times out mid-load on ${spec} is killed and frees its port`, { timeout: 60_000 }, async () => {
    let listened = null;
    const out = await launch(spec, 'max-throughput', { durationSec: 30, warmupSec: 1 }, {
      timeoutMs: 6000, onListening: (info) => { listened = info; }
    });
    assert.equal(out.status, 'timeout', out.error);
    assert.match(out.error, /did not finish within 6 s/);
    assert.ok(listened && listened.port === out.port, 'it was listening (killed under load, not before)');
    await assertNothingLeft(out, `${spec} timeout`);
  });

  test(`setup failures and rejected flags on ${spec} end the cell and leave nothing behind`, { timeout: 60_000 }, async () => {
    const bad = await launch(spec, 'max-throughput', { profiles: 0 });
    assert.equal(bad.status, 'failed');
    assert.match(bad.error, /during setup: params\.profiles must be an integer/);
    await assertNothingLeft(bad, `${spec} createServer threw`);

    const flag = await launch(spec, 'max-throughput', {}, { flags: ['--no-such-flag-for-nodebench'] });
    assert.equal(flag.status, 'unsupported');
    assert.match(flag.error, /rejected a flag/);
    await assertNothingLeft(flag, `${spec} bad flag`);
  });
}

test('a service that dies under load fails its cell and leaves nothing behind', { timeout: 60_000 }, async () => {
  const out = await launch('4.9.1', 'max-throughput', { durationSec: 3, warmupSec: 1 }, {
    onListening: ({ pid }) => setTimeout(() => process.kill(pid, 'SIGKILL'), 1300)
  });
  assert.equal(out.status, 'failed');
  assert.match(out.error, /crashed with SIGKILL/);
  await assertNothingLeft(out, 'killed mid-load');
});

test('a runtime older than the suite\'s minNode reports unsupported, not a crash', { timeout: 60_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-service-'));
  const file = path.join(dir, 'index.js');
  fs.writeFileSync(file, `'use strict';
module.exports = { minNode: '99.0.0', reason: 'from the future',
  service: { createServer: function () { return require('http').createServer(); } },
  benchmarks: { only: { fn: function () {} } } };
`);
  try {
    const runtime = await testRuntime('4.9.1');
    const out = await runServiceLaunch(runtime.path, [], { suiteFile: file, benchmark: 'only' }, { timeoutMs: 10_000 });
    assert.equal(out.status, 'unsupported');
    assert.match(out.error, /unsupported on Node 4\.9\.1 \(needs >= 99\.0\.0\): from the future/);
    await assertNothingLeft(out, 'minNode');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('no service process or port outlives the tests above', async () => {
  assert.ok(seen.length >= 10);
  for (const { pid, port } of seen) {
    assert.ok(gone(pid), `process ${pid} is alive`);
    if (port) assert.ok(await refuses(port), `port ${port} accepts connections`);
  }
});

const ownCores = () => allowedCores(fs.readFileSync('/proc/self/status', 'utf8'));

test('the server and the load generator run on separate cores, or the result says why not; the host gets its cores back', { timeout: 60_000 }, async () => {
  const before = ownCores();
  let serverCores = null;
  const out = await launch('system', 'max-throughput', { durationSec: 1, warmupSec: 1 }, {
    onListening: ({ pid }) => { serverCores = allowedCores(fs.readFileSync(`/proc/${pid}/status`, 'utf8')); }
  });
  assert.equal(out.status, 'ok', out.error);
  const { pinning } = out.result.service;
  if (before.length >= 2 && pinning.server !== null) {
    assert.deepEqual({ server: pinning.server, load: pinning.load }, { server: before[0], load: before[1] });
    assert.deepEqual(serverCores, [pinning.server], 'the server runs on its core only');
    assert.equal(out.cpu, pinning.server, 'the process record keeps the server\'s core');
  } else {
    assert.equal(pinning.server, null);
    assert.match(pinning.reason, before.length >= 2 ? /^not pinned: the host is busy \(1-minute load [\d.]+ on \d+ cores\)/ : /^not pinned: /);
    assert.equal(out.cpu, undefined);
  }
  assert.deepEqual(ownCores(), before, 'the host\'s affinity is restored after the launch');
  await assertNothingLeft(out, 'pinned max-throughput');
});

test('pinning is left out on a busy host and said so; a quiet one pins the host process and gives its cores back', { skip: process.platform !== 'linux' }, () => {
  const before = ownCores();
  const busy = pinServiceCores({ loadAverage: before.length + 0.5 });
  assert.equal(busy.server, null);
  assert.match(busy.reason, new RegExp(`^not pinned: (the host is busy \\(1-minute load ${(before.length + 0.5).toFixed(1)} on ${before.length} cores\\)|this process may use only)`));
  const quiet = pinServiceCores({ loadAverage: 0 });
  if (quiet.server !== null) {
    assert.deepEqual(ownCores(), [quiet.load], 'the load generator (this process) runs on its core');
    quiet.restore();
  }
  assert.deepEqual(ownCores(), before);
});

test('allowedCores reads Linux\'s Cpus_allowed_list, ranges and lists alike, and refuses what it cannot read', () => {
  assert.deepEqual(allowedCores('Name:\tnode\nCpus_allowed_list:\t0-1\n'), [0, 1]);
  assert.deepEqual(allowedCores('Cpus_allowed_list:\t0,2-4,7\n'), [0, 2, 3, 4, 7]);
  assert.deepEqual(allowedCores('Cpus_allowed_list:\t3\n'), [3]);
  assert.equal(allowedCores('Name:\tnode\n'), null);
  assert.equal(allowedCores('Cpus_allowed_list:\t0-x\n'), null);
  assert.equal(allowedCores(null), null);
});
