// Your own code, as it is, loaded by the worker in real runtimes (worker/suite-loader.js,
// worker/formats/): which runtime loads which form and, where one cannot, the sentence it gives;
// how files written for tinybench, mitata, bench-node and benchmark.js become benchmarks; the
// library options nodebench honours (observed through what the benchmark returns and what the hooks
// print) and the ones it refuses. No timing is checked here: `once` calls a benchmark once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fc from 'fast-check';
import { createRequire } from 'node:module';
import { root } from './helpers/cli.js';
import { runWorkerIn } from './helpers/runtimes.js';
import { list, once } from './helpers/own-code.js';

const require = createRequire(import.meta.url);
const fixture = (name) => path.join(root, 'test', 'fixtures', 'own-code', name);
const example = (name) => path.join(root, 'examples', name);
const EXAMPLES = ['esm-suite.mjs', 'typescript-suite.ts', 'tinybench.mjs', 'mitata.mjs', 'bench-node.cjs', 'benchmark.cjs'];

// Every example loads and runs a call on the runtimes the forms promise (docs/own-code.md), and
// the CommonJS ones, written in Node 4's syntax, on Node 4 too; the ES module forms say why not there.
test('every example loads and runs on Node 18.20.8, 20, 22.11.0, 22.23.3 and 24.21.0; the CommonJS ones on 4.9.1', { timeout: 600_000 }, async () => {
  for (const spec of ['18.20.8', 'system', '22.11.0', '22.23.3', '24.21.0', '4.9.1']) {
    for (const name of EXAMPLES) {
      const described = await list(spec, example(name));
      if (spec === '4.9.1' && !name.endsWith('.cjs')) {
        assert.equal(described.unsupported, 'Node 4.9.1 cannot import ES modules from a CommonJS worker (needs >= 12.17)', name);
        continue;
      }
      assert.ok(described.benchmarks, `${name} on ${spec}: ${JSON.stringify(described)}`);
      const first = described.benchmarks[0].name;
      const called = await once(spec, example(name), first);
      assert.ok(!called.error && !called.unsupported, `${name}#${first} on ${spec}: ${JSON.stringify(called)}`);
    }
  }
});

test('a runtime that cannot load a form says which runtime and what it lacks', { timeout: 300_000 }, async () => {
  assert.deepEqual(await list('12.16.3', example('esm-suite.mjs')), { unsupported: 'Node 12.16.3 cannot import ES modules from a CommonJS worker (needs >= 12.17)' });
  assert.match((await list('16.20.2', example('typescript-suite.ts'))).unsupported, /^Node 16\.20\.2 cannot run TypeScript: it does not strip types \(Node 22\.18\+ does\) and has no loader hooks/);
  // The same runtime runs the ES module suite and the CommonJS library files.
  assert.equal((await once('16.20.2', example('esm-suite.mjs'), 'URLSearchParams')).value.length > 0, true);
  assert.equal(typeof (await once('16.20.2', example('bench-node.cjs'), 'parseInt')).value, 'number');
});

// Without module.register, an ES module's import of the library is redirected by a loader on the
// command line: the worker restarts itself with it, and the restarted process is the one measured.
test('an ES module tinybench file on Node 16.20.2 (no module.register) is measured through the restarted worker', { timeout: 120_000 }, async () => {
  const { messages, byType } = await runWorkerIn('16.20.2', {
    mode: 'run', suite: example('tinybench.mjs'), benchmark: 'JSON round trip (async)', sampler: { samples: 3, minSampleMs: 2, warmupMinMs: 5, warmupMaxMs: 50 }
  });
  const hellos = messages.filter((m) => m.type === 'hello');
  assert.equal(hellos.length, 2, 'the first worker and the restarted one');
  assert.deepEqual(hellos[1].runtime.execArgv.slice(0, 1), ['--experimental-loader']);
  assert.ok(byType.result, JSON.stringify(byType.error));
  assert.equal(byType.result.benchmarkType, 'promise');
  assert.equal(byType.result.measurement.samplesNsPerOp.length, 3);
  // Node 12.17 runs the restart too; this file's top-level await is what it cannot parse.
  const old = await once('12.17.0', example('tinybench.mjs'), 'slice');
  assert.equal(old.error, 'Unexpected reserved word');
});

test('nodebench format as an ES module: named or default exports, .js under "type": "module", .cjs, TypeScript stripped by nodebench', { timeout: 120_000 }, async () => {
  const defaulted = await list('system', fixture('default-export.mjs'));
  assert.equal(defaulted.name, 'defaulted');
  assert.equal(defaulted.format, 'nodebench');
  assert.equal(defaulted.moduleKind, 'esm');
  assert.deepEqual((await once('system', fixture('default-export.mjs'), 'plus')).value, 42);
  assert.deepEqual((await once('system', fixture('default-export.mjs'), 'later')).value, 41);
  assert.equal((await list('system', fixture('module-pkg/named.js'))).moduleKind, 'esm');
  const plain = await list('4.9.1', fixture('plain.cjs'));
  assert.equal(plain.name, 'plain', 'the name drops .cjs');
  assert.equal(plain.moduleKind, 'commonjs');
  // Stripped by sucrase on every runtime, also on 22.23.3, which strips types itself (and would
  // refuse the enum): test/own-code-typescript.test.js.
  const typed = await list('system', fixture('typed.mts'));
  assert.equal(typed.name, 'typed');
  assert.equal(typed.moduleKind, 'typescript');
  assert.equal((await once('system', fixture('typed.mts'), 'doubled')).value, 20);
  assert.equal((await once('22.23.3', example('typescript-suite.ts'), 'reduce')).value, (await once('system', example('typescript-suite.ts'), 'reduce')).value);
});

test('tinybench: tasks keep their names; setup, beforeAll, afterAll and teardown run around the measured calls, in tinybench\'s order; async tasks are awaited; nothing after run() runs', { timeout: 120_000 }, async () => {
  const file = fixture('tinybench-hooks.mjs');
  const described = await list('18.20.8', file);
  assert.equal(described.format, 'tinybench');
  assert.deepEqual(described.benchmarks.map((b) => b.name), ['counted', 'awaited', 'throws', 'second / counted']);
  const counted = await once('18.20.8', file, 'counted');
  assert.equal(counted.value, 42, 'beforeAll ran before the task');
  assert.deepEqual(counted.hooks, ['setup counted run', 'beforeAll counted', 'afterAll counted', 'teardown counted run']);
  assert.equal((await once('18.20.8', file, 'awaited')).value, 7, 'an async beforeAll is awaited, an async task resolved');
  assert.equal((await once('18.20.8', file, 'second / counted')).value, 'the second bench');
  const thrown = await once('18.20.8', file, 'throws');
  assert.match(thrown.error, /task broke on purpose/);
  // tinybench 2 in CommonJS, on a runtime tinybench 6 would not install on, and on Node 4.
  for (const spec of ['4.9.1', '16.20.2']) {
    assert.deepEqual((await once(spec, fixture('tinybench-v2.cjs'), 'split')).value, ['a', 'b', 'c', 'd', 'e', 'f']);
  }
});

test('tinybench options nodebench cannot honour are refused with a sentence naming them; the other tasks still run', { timeout: 120_000 }, async () => {
  const file = fixture('tinybench-refused.mjs');
  assert.equal((await once('system', file, 'plain')).value, 1);
  assert.match((await once('system', file, 'own duration')).error, /^tinybench task "own duration" returns overriddenDuration/);
  assert.match((await once('system', file, 'in parallel')).error, /^tinybench task "in parallel" belongs to a Bench with concurrency: "task", .*no time per operation/);
});

test('tinybench beforeEach/afterEach run around the call, described as timed per call; a throwing hook fails only its task', { timeout: 120_000 }, async () => {
  const file = fixture('per-call-hostile.mjs');
  const described = await list('system', file);
  assert.equal(described.benchmarks.find((b) => b.name === 'long enough').timing, 'per-call');
  const long = await once('system', file, 'long enough');
  assert.equal(typeof long.value, 'number');
  // Setup's probe call, then the one call: each between its hooks.
  assert.deepEqual(long.hooks, ['beforeEach', 'afterEach', 'beforeEach', 'afterEach']);
  assert.equal(typeof (await once('system', file, 'async hooks')).value, 'number');
  const thrown = await once('system', file, 'hook throws');
  assert.equal(thrown.phase, 'setup');
  assert.equal(thrown.error, 'beforeEach broke on purpose');
});

test('mitata: generator setup before yield and teardown after it, args named as mitata names them, async generators, run({ filter })', { timeout: 120_000 }, async () => {
  const file = fixture('mitata-forms.mjs');
  const described = await list('18.20.8', file);
  assert.equal(described.format, 'mitata');
  assert.deepEqual(described.benchmarks.map((b) => b.name), ['sum 3', 'sum 4', 'later', 'unnamed args (k: 1)', 'unnamed args (k: 2)']);
  const sum = await once('18.20.8', file, 'sum 4');
  assert.equal(sum.value, 6);
  assert.deepEqual(sum.hooks, ['setup 4', 'teardown 4']);
  assert.equal((await once('18.20.8', file, 'later')).value, 5);
  assert.equal((await once('18.20.8', file, 'unnamed args (k: 2)')).value, 4);
});

test('mitata manual timing is refused with a sentence; the iterator form, computed parameters and gc(\'inner\') run and are described with how they are timed', { timeout: 120_000 }, async () => {
  const refused = fixture('mitata-refused.mjs');
  assert.equal((await once('system', refused, 'plain')).value, 1);
  const manual = await once('system', refused, 'manual');
  assert.equal(manual.phase, 'setup');
  assert.match(manual.error, /^mitata benchmark "manual" yields a manual-timing benchmark/);
  const file = example('mitata-params.mjs');
  for (const spec of ['16.20.2', 'system']) {
    const described = await list(spec, file);
    assert.deepEqual(described.benchmarks.map((b) => [b.name, b.timing ?? null, b.gcBeforeSample ?? false]), [
      ['sort 16', null, false], ['sort 128', null, false], ['sort 1024', null, false],
      ['join 100 strings', 'managed', false], ['allocate 1000 objects', null, true]
    ]);
    for (const name of ['sort 128', 'join 100 strings', 'allocate 1000 objects']) {
      const one = await once(spec, file, name);
      assert.equal(one.error, undefined, `${name} on ${spec}: ${one.error}`);
    }
  }
});

test('bench-node: options before the function, async benchmarks, the managed timer; plugins are refused; a misused timer fails only its benchmark', { timeout: 120_000 }, async () => {
  const file = fixture('bench-node-forms.mjs');
  assert.equal((await list('18.20.8', file)).format, 'bench-node');
  assert.equal((await once('18.20.8', file, 'with options')).value, 'xxx');
  assert.equal((await once('18.20.8', file, 'async')).value, 'done');
  assert.equal((await once('18.20.8', file, 'timer')).error, undefined);
  assert.match((await once('4.9.1', fixture('bench-node-plugins.cjs'), 'never optimised')).error, /belongs to a Suite with plugins \(V8NeverOptimizePlugin\)/);
  const hostile = fixture('timer-hostile.mjs');
  assert.equal((await once('system', hostile, 'well formed')).error, undefined);
  assert.match((await once('system', hostile, 'never ends')).error, /^bench-node benchmark "never ends" returned without calling timer\.end\(count\)/);
  assert.match((await once('system', hostile, 'never starts')).error, /^bench-node benchmark "never starts" returned without calling timer\.start\(\)/);
  assert.match((await once('system', hostile, 'ends with 0')).error, /"iterations" is out of range\. It must be a whole number >= 1\. Received 0/);
  assert.equal((await once('system', hostile, 'throws')).error, 'timer benchmark broke on purpose');
});

test('benchmark.js: setup compiled into the benchmark\'s scope, a benchmark that reads its file\'s variables, defer, strings and option objects, on Node 4 and 20', { timeout: 120_000 }, async () => {
  const file = fixture('benchmark-forms.cjs');
  for (const spec of ['4.9.1', 'system']) {
    const described = await list(spec, file);
    assert.equal(described.format, 'benchmark.js');
    assert.deepEqual(described.benchmarks.map((b) => b.name), ['scoped setup', 'file scope', 'deferred', 'as string', 'options object', 'name and options']);
    const scoped = await once(spec, file, 'scoped setup');
    assert.equal(scoped.value, 3, 'fn sees the list that setup declared');
    assert.deepEqual(scoped.hooks, ['teardown scoped']);
    assert.equal((await once(spec, file, 'file scope')).value, 12, 'setup ran as a function, then fn by reference');
    assert.equal((await once(spec, file, 'deferred')).value, null);
    assert.equal((await once(spec, file, 'options object')).value, 'o');
    assert.equal((await once(spec, file, 'name and options')).value, 'n');
  }
});

test('a file of no known form, two libraries in one file, a file that never calls run(), a throwing module: one sentence each', { timeout: 120_000 }, async () => {
  assert.match((await list('system', fixture('neither.mjs'))).error, /neither\.mjs is none of the forms nodebench runs: export a benchmarks object .* or build benchmarks with tinybench, mitata, bench-node or benchmark\.js and call their run\(\)$/);
  assert.match((await list('system', fixture('two-libraries.mjs'))).error, /uses mitata and tinybench; nodebench runs one library's benchmarks per file/);
  assert.match((await list('system', fixture('no-run.mjs'))).error, /builds tinybench benchmarks but never calls run\(\)/);
  assert.equal((await list('system', fixture('throws-on-load.mjs'))).error, 'broken on purpose at load');
});

// The source scan decides which files get the redirection; it must find a library import however
// the code around it looks, and never invent one.
test('the library import scan finds every import form and nothing else (property)', () => {
  const { importedBy } = require('../worker/formats/index.js');
  const forms = [
    (lib) => `import { x } from '${lib}';`, (lib) => `import x from "${lib}"`, (lib) => `import '${lib}';`,
    (lib) => `const x = require('${lib}')`, (lib) => `await import("${lib}")`, (lib) => `export { x } from '${lib}'`
  ];
  const libraries = ['tinybench', 'mitata', 'bench-node', 'benchmark'];
  const noise = fc.string({ maxLength: 60 }).filter((s) => !/tinybench|mitata|bench-node|benchmark/.test(s));
  fc.assert(fc.property(noise, noise, fc.constantFrom(...libraries), fc.constantFrom(...forms), (before, after, lib, form) => {
    assert.deepEqual(importedBy(`${before}\n${form(lib)}\n${after}`), [lib]);
    assert.deepEqual(importedBy(`${before}\n${after}`), []);
  }));
  assert.deepEqual(importedBy("require('benchmark-utils'); import x from 'mitata/src/lib.mjs'; // from 'tinybenchmark'"), []);
});
