// TypeScript as real projects write it, on every runtime that loads TypeScript (docs/own-code.md):
// NodeNext-style imports ('./work.js' for ./work.ts, as tsc, tsx and ts-node resolve them) and
// types imported without `import type`, which Node's own type stripping keeps and then cannot link.
// nodebench strips the types of an ES module itself on every runtime, so each runs the same code.
// No timing is checked: `once` calls a benchmark once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { root } from './helpers/cli.js';
import { list, once } from './helpers/own-code.js';

const fixture = (name) => path.join(root, 'test', 'fixtures', 'own-code', name);

// 18.20.8 and 20 (system): nodebench strips; 22.11.0: the runtime could only with a flag;
// 22.23.3 and 24.21.0: the runtime strips types itself by default.
const RUNTIMES = ['18.20.8', 'system', '22.11.0', '22.23.3', '24.21.0'];

test('a NodeNext-style TypeScript bench file (./x.js for ./x.ts, a type imported without `import type`) runs the same on Node 18, 20, 22.11, 22.23 and 24', { timeout: 300_000 }, async () => {
  const file = fixture('nodenext/bench.ts');
  for (const spec of RUNTIMES) {
    const described = await list(spec, file);
    assert.deepEqual(described.benchmarks?.map((b) => b.name), ['area', 'missing'], `${spec}: ${JSON.stringify(described)}`);
    assert.equal(described.moduleKind, 'typescript');
    // './work.js' is work.ts, whose './scale.js' is scale.ts; './origin.js' exists, so it is the .js.
    assert.equal((await once(spec, file, 'area')).value, '12 js', spec);
    // An import of a file that is missing under both names is still the runtime's own error.
    assert.match((await once(spec, file, 'missing')).error, /Cannot find module .*absent\.js/, spec);
  }
});

test('an enum compiles on every runtime nodebench strips types for, also where the runtime would refuse it', { timeout: 120_000 }, async () => {
  for (const spec of ['system', '22.23.3', '24.21.0']) {
    assert.equal((await once(spec, fixture('typed.mts'), 'doubled')).value, 20, spec);
  }
});

test('CommonJS TypeScript (.cts) requires ./work.cts as ./work.cjs and ./scale.ts as ./scale.js where the runtime strips types itself', { timeout: 120_000 }, async () => {
  const file = fixture('nodenext-cjs/bench.cts');
  for (const spec of ['22.23.3', '24.21.0']) {
    assert.equal((await list(spec, file)).moduleKind, 'typescript-commonjs');
    assert.equal((await once(spec, file, 'area')).value, 10, spec);
  }
  assert.match((await list('18.20.8', file)).unsupported, /^Node 18\.20\.8 cannot require a CommonJS TypeScript file/);
});

// sucrase drops a namespace whole; one that holds values would leave its uses a ReferenceError
// (Node's own stripping refuses it): nodebench refuses it in a sentence, on every runtime alike.
test('a namespace of types only runs; one that holds values is refused with its file, line and the fix', { timeout: 120_000 }, async () => {
  for (const spec of ['system', '24.21.0']) {
    assert.equal((await once(spec, fixture('namespace-types.mts'), 'area')).value, 9, spec);
    const refused = await list(spec, fixture('namespace-values.mts'));
    assert.match(refused.error, /namespace-values\.mts:4: TypeScript namespace Geometry holds values, which nodebench's type stripping \(sucrase, the same on every runtime\) would drop and Node's own refuses; write it as an object or a module of its own/, spec);
  }
});
