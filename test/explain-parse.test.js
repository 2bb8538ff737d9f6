// explain's readers of V8 output, on lines real runtimes printed (captured 2026-11-24 from
// `--trace-deopt` on Node 4.9.1, 8.17.0, 16.20.2 and 24.21.0) and on a profile's sampling window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTraceDeopt, describeOptimizationStatus } from '../cli/explain/deopt.js';
import { selfSamples, functionIdentity } from '../cli/explain/profile.js';
import { workerEntry } from '../cli/paths.js';

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
