// The same sampler and metrics code on every runtime the project supports: Node 4.9.1, 6, 14, 16
// and the current one, each installed by nodebench's own installer (cached between runs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { root } from './helpers/cli.js';
import { runWorkerIn, testRuntime, TEST_RUNTIMES } from './helpers/runtimes.js';
import { parseTraceGc } from '../cli/runner/gc-trace.js';

const SMOKE = path.join(root, 'test', 'fixtures', 'suites', 'smoke', 'index.js');
const SAMPLER = { minSampleMs: 2, samples: 3, warmupMinMs: 5, warmupMaxMs: 50 };

for (const [name, spec] of Object.entries(TEST_RUNTIMES)) {
  test(`${name} (${spec}): sampler, CPU and memory methods, and --trace-gc metrics`, { timeout: 120_000 }, async () => {
    const runtime = await testRuntime(spec);
    const run = await runWorkerIn(spec, { mode: 'run', suite: SMOKE, benchmark: 'promise-chain', sampler: SAMPLER });
    assert.equal(run.byType.hello.runtime.node, runtime.version);
    assert.equal(run.byType.hello.runtime.v8, runtime.v8);
    const m = run.byType.result.measurement;
    assert.equal(m.samplesNsPerOp.length, 3);
    assert.ok(m.samplesNsPerOp.every((x) => x > 0));
    assert.ok(m.cpuNsPerOp > 0, `cpu via ${m.cpuMethod}`);
    assert.ok(run.byType.result.memory.peakRssBytes > 0, run.byType.result.memory.peakRssMethod);

    const metrics = await runWorkerIn(spec, { mode: 'metrics', suite: SMOKE, benchmark: 'promise-chain', sampler: { ...SAMPLER, samples: 1e9, maxSampleMs: 200 } }, { flags: ['--trace-gc'] });
    const report = metrics.byType.metrics;
    assert.ok(report, metrics.stderrTail);
    assert.ok(report.eventLoopDelay.samples > 0);
    assert.ok(report.window.endUptimeMs > report.window.startUptimeMs);
    // stdoutTail holds the last 4 KB of --trace-gc lines: they parse on every runtime.
    assert.ok(parseTraceGc(metrics.stdoutTail).length > 0, `no GC lines parsed from ${spec}: ${metrics.stdoutTail.slice(-300)}`);
  });
}
