// explain's readers of V8 output, on lines real runtimes printed (captured 2026-11-24 from
// `--trace-deopt` on Node 4.9.1, 8.17.0, 16.20.2 and 24.21.0) and on a profile's sampling window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTraceDeopt, describeOptimizationStatus } from '../cli/explain/deopt.js';
import { selfSamples, functionIdentity } from '../cli/explain/profile.js';
import { workerEntry } from '../cli/paths.js';
import { modernProfile } from '../cli/explain/inspect-port.js';
import { profilingMethod } from '../cli/explain/run.js';

test('--trace-deopt in the formats of Node 4 to 24: counts by function, kind and reason', () => {
  const text = [
    '[deoptimizing (DEOPT eager): begin 0x1d988e0d4221 <JS Function shapes (SharedFunctionInfo 0x1d988e034ce9)> (opt #8) @15, FP to SP delta: 136]',
    '            ;;; deoptimize at 332: wrong map',
    '  reading input frame  => node=3, args=95, height=7; inputs:',
    '[deoptimizing (DEOPT soft): begin 0x1b5ea3887fc1 <JSFunction (sfi = 0x25d023716741)> (opt #1) @19, FP to SP delta: 64, caller sp: 0x7ffef5c76938]',
    '            ;;; deoptimize at </tmp/xs/deopt.js:7:146>, Insufficient type feedback for generic keyed access',
    '[deoptimizing (DEOPT lazy): begin 0x53696169aa9 <JS Function defer (SharedFunctionInfo 0x3e953982579)> (opt #8) @0, FP to SP delta: 48]',
    '[bailout (kind: deopt-soft, reason: Insufficient type feedback for binary operation): begin. deoptimizing 0x0c4f5e611f89 <JSFunction (sfi = 0x2f1d539fb31)>, opt id 1, bytecode offset 66, deopt exit 13, FP to SP delta 64, caller SP 0x7ffec8aa5f28, pc 0x7f71400602ff]',
    '[bailout (kind: deopt-eager, reason: prepare for on stack replacement (OSR)): begin. deoptimizing 0x267d640ffbf1 <JSFunction chain (sfi = 0x1df2e059f281)>, 0x1066d96c81b1 <Code MAGLEV>, opt id 4, bytecode offset 57, deopt exit 13, FP to SP delta 104, caller SP 0x7ffe64b2b648, pc 0x7fe5830544a4]',
    '[bailout (kind: deopt-eager, reason: prepare for on stack replacement (OSR)): begin. deoptimizing 0x267d640ffbf1 <JSFunction chain (sfi = 0x1df2e059f281)>, 0x1066d96c81b1 <Code MAGLEV>, opt id 4, bytecode offset 57, deopt exit 13, FP to SP delta 104, caller SP 0x7ffe64b2b648, pc 0x7fe5830544a4]'
  ].join('\n');
  const { total, byReason } = parseTraceDeopt(text);
  assert.equal(total, 6);
  assert.deepEqual(byReason[0], { kind: 'eager', reason: 'prepare for on stack replacement (OSR)', function: 'chain', count: 2 });
  const find = (fn, kind) => byReason.find((r) => r.function === fn && r.kind === kind);
  assert.equal(find('shapes', 'eager').reason, 'wrong map');
  assert.equal(byReason.filter((r) => r.function === '(anonymous)' && r.kind === 'soft').length, 2);
  assert.ok(byReason.some((r) => r.reason === 'Insufficient type feedback for generic keyed access'));
  assert.equal(find('defer', 'lazy').reason, 'lazy: code it depended on changed');
  assert.deepEqual(parseTraceDeopt('no deopts here\n'), { total: 0, byReason: [] });
});

test('%GetOptimizationStatus: an enumeration before V8 6, the optimized bit after', () => {
  assert.equal(describeOptimizationStatus(1, '4.5.103.53').optimized, true);
  assert.equal(describeOptimizationStatus(2, '5.1.281.111').optimized, false);
  assert.equal(describeOptimizationStatus(49, '9.4.146.26-node.26').optimized, true);
  assert.equal(describeOptimizationStatus(65, '6.2.414.78').optimized, false);
  assert.equal(describeOptimizationStatus(null, '9.4'), null);
});

test('only the samples of the measured window count, by function identity', () => {
  const frame = (id, functionName, url = '', lineNumber = -1) => ({ id, callFrame: { functionName, scriptId: '1', url, lineNumber, columnNumber: 0 } });
  const profile = {
    nodes: [frame(1, '(root)'), frame(2, 'hot', 'file:///home/u/bench.js', 9), frame(3, '(garbage collector)'), frame(4, 'next', `file://${workerEntry.replace('child.js', 'sampler.js')}`, 36), frame(5, 'then')],
    startTime: 0,
    endTime: 1000,
    // Times 100, 200, ..., 1000: the window of the last 500 µs keeps the samples from 500 on.
    samples: [2, 2, 2, 2, 3, 2, 2, 4, 5, 3],
    timeDeltas: Array(10).fill(100)
  };
  const counted = selfSamples(profile, { windowUs: 500, suiteDir: '/home/u' });
  assert.equal(counted.samples, 6);
  assert.equal(counted.totalSamples, 10);
  const byName = Object.fromEntries([...counted.byFunction.values()].map((e) => [e.identity.name, e]));
  assert.equal(byName.hot.samples, 2);
  assert.equal(byName.hot.identity.location, 'bench.js:10:1');
  assert.equal(byName['(garbage collector)'].samples, 2);
  assert.equal(byName['(garbage collector)'].identity.location, '');
  assert.equal(byName.then.identity.location, 'V8 builtin');
  assert.equal(byName.next.identity.kind, 'harness');
  assert.equal(functionIdentity({ functionName: 'listOnTimeout', url: 'node:internal/timers', lineNumber: 500, columnNumber: 3 }).key,
    functionIdentity({ functionName: 'listOnTimeout', url: 'internal/timers.js', lineNumber: 480, columnNumber: 1 }).key);
});

test('a window that ends before the profile does keeps only its own samples', () => {
  const frame = (id, functionName) => ({ id, callFrame: { functionName, scriptId: '1', url: 'file:///b.js', lineNumber: 1, columnNumber: 1 } });
  // Samples at 100 .. 1000: `work` to 700 (the window's end), then `waiting` while the host stops the
  // profiler over --inspect.
  const profile = { nodes: [frame(1, 'work'), frame(2, 'waiting')], startTime: 0, endTime: 1000, samples: [1, 1, 1, 1, 1, 1, 1, 2, 2, 2], timeDeltas: Array(10).fill(100) };
  const names = (counted) => Object.fromEntries([...counted.byFunction.values()].map((e) => [e.identity.name, e.samples]));
  assert.deepEqual(names(selfSamples(profile, { windowUs: 400, windowEndUs: 700 })), { work: 5 });
  assert.deepEqual(names(selfSamples(profile, { windowUs: 400 })), { work: 2, waiting: 3 });
});

test("Node 6's profile (captured from 6.17.1's Profiler.stop) becomes today's .cpuprofile; its natives are V8 builtins", () => {
  const node6 = {
    nodes: [
      { id: 1, callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 }, hitCount: 0, children: [2, 3] },
      { id: 2, callFrame: { functionName: 'hot', scriptId: '65', url: '/home/u/bench.js', lineNumber: 0, columnNumber: 12 }, hitCount: 2, children: [] },
      { id: 3, callFrame: { functionName: 'then', scriptId: '20', url: 'native promise.js', lineNumber: 300, columnNumber: 20 }, hitCount: 1, children: [] }
    ],
    startTime: 7344930497,
    endTime: 7345436727,
    samples: [2, 3, 2],
    timestampDeltas: [22898, 389, 380]
  };
  const profile = modernProfile(node6);
  assert.deepEqual(profile.timeDeltas, [22898, 389, 380]);
  assert.equal(profile.timestampDeltas, undefined);
  const counted = selfSamples(profile, { windowUs: 500, windowEndUs: 7344930497 + 22898 + 389 + 380 });
  assert.equal(counted.samples, 2);
  const then = [...counted.byFunction.values()].find((e) => e.identity.name === 'then').identity;
  assert.deepEqual([then.kind, then.key, then.location], ['runtime', functionIdentity({ functionName: 'then', url: '', lineNumber: -1, columnNumber: -1 }).key, "V8's promise.js"]);
  // V8 5.1 names some builtins' script after them; scriptId 0 says there is none.
  assert.deepEqual(functionIdentity({ functionName: 'push', scriptId: '0', url: 'push', lineNumber: -1, columnNumber: -1 }), { key: 'v8\u0000push', name: 'push', location: 'V8 builtin', kind: 'runtime' });
  assert.throws(() => modernProfile({ head: {}, startTime: 1, endTime: 2 }), /no node list/);
  const modern = { nodes: [], startTime: 0, endTime: 1, samples: [], timeDeltas: [] };
  assert.equal(modernProfile(modern), modern);
});

test('which runtimes can be profiled, and how', () => {
  assert.deepEqual(profilingMethod('24.21.0'), { via: 'inspector-module' });
  assert.deepEqual(profilingMethod('8.0.0'), { via: 'inspector-module' });
  assert.deepEqual(profilingMethod('7.10.1'), { via: 'inspect-port' });
  assert.deepEqual(profilingMethod('6.17.1'), { via: 'inspect-port' });
  assert.deepEqual(profilingMethod('6.3.0'), { via: 'inspect-port' });
  assert.match(profilingMethod('6.2.2').unavailable, /^Node 6\.2\.2 has no inspector \(--inspect arrived in Node 6\.3\)/);
  assert.match(profilingMethod('4.9.1').unavailable, /^Node 4\.9\.1 has no inspector/);
});
