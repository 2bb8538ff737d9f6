// suites/autoload on the real Node 4.9.1 and the current runtime: the probing resolvers and the
// precomputed maps resolve a request to exactly the same files, those files exist, every runtime
// resolves the same relative paths (the tree and the request come from a seeded PRNG), a measured
// run reports samples, and the temporary tree is gone once the worker has exited.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { benchmarkValue, runWorkerIn } from './helpers/runtimes.js';

const require = createRequire(import.meta.url);
const suiteFile = fileURLToPath(new URL('../suites/autoload/index.js', import.meta.url));

const SPECS = ['4.9.1', 'system'];
const small = {
  classes: 60, namespaces: 4, dirsPerNamespace: 3, classesPerRequest: 20,
  modules: 40, searchPaths: 3, modulesPerRequest: 20, seed: 7
};
const tinySampler = { minSampleMs: 2, samples: 3, warmupMinMs: 5, warmupMaxMs: 50 };

// Every test gets its own parent directory for the suite's trees; all are removed at the end.
const parents = [];
function testParent() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-autoload-test-'));
  parents.push(dir);
  return dir;
}
after(() => {
  for (const dir of parents) fs.rmSync(dir, { recursive: true, force: true });
});

// A resolved file as "<path inside the suite's tree>", the tree's own random name removed.
function insideTree(parent, file) {
  const rel = path.relative(parent, file);
  assert.ok(!rel.startsWith('..') && !path.isAbsolute(rel), `${file} is not under ${parent}`);
  return rel.split(path.sep).slice(1).join('/');
}

test('the suite lists its four benchmarks and default parameters', () => {
  const suite = require(suiteFile);
  assert.deepEqual(Object.keys(suite.benchmarks), ['psr4-search', 'classmap', 'module-search-paths', 'module-path-map']);
  assert.equal(suite.params.classes, 400);
  assert.equal(suite.params.dirsPerNamespace, 3);
  assert.equal(suite.params.classesPerRequest, 50);
});

const relativeBySpec = {};

for (const spec of SPECS) {
  test(`the probing resolvers and the maps resolve the same existing files on ${spec}`, async () => {
    const parent = testParent();
    const params = { ...small, tmpRoot: parent, keepTree: true };
    const names = ['psr4-search', 'classmap', 'module-search-paths', 'module-path-map'];
    const values = await Promise.all(names.map((name) => benchmarkValue(spec, suiteFile, name, params)));
    const byName = Object.fromEntries(names.map((name, i) => [name, values[i]]));

    for (const name of names) {
      assert.ok(Array.isArray(byName[name]), `${name} on ${spec}: ${JSON.stringify(byName[name])}`);
      for (const file of byName[name]) assert.ok(fs.statSync(file).isFile(), `${name} resolved ${file}, which is not a file`);
    }
    assert.equal(byName['psr4-search'].length, small.classesPerRequest);
    assert.equal(byName['module-search-paths'].length, small.modulesPerRequest);

    // Each worker built its own tree; inside the trees the paths must be identical.
    const rel = Object.fromEntries(names.map((name) => [name, byName[name].map((f) => insideTree(parent, f))]));
    assert.deepEqual(rel.classmap, rel['psr4-search']);
    assert.deepEqual(rel['module-path-map'], rel['module-search-paths']);
    assert.equal(new Set(rel['psr4-search']).size, small.classesPerRequest, 'a request names distinct classes');
    assert.equal(new Set(rel['module-search-paths']).size, small.modulesPerRequest, 'and distinct modules');

    // A class file declares the class it was found for; a module file exports its id.
    for (const file of byName['psr4-search']) {
      assert.match(fs.readFileSync(file, 'utf8'), /^<\?php\nnamespace [\w\\]+;\n\nclass \w+ \{/);
    }
    for (const file of byName['module-path-map']) {
      assert.match(file, /(\.js)$/);
      assert.match(fs.readFileSync(file, 'utf8'), /^module\.exports = "[^"]+";\n$/);
    }
    relativeBySpec[spec] = rel;
  });
}

test('Node 4.9.1 and the current runtime resolve the same relative paths', (t) => {
  if (!relativeBySpec['4.9.1'] || !relativeBySpec.system) return t.skip('an earlier test failed');
  assert.deepEqual(relativeBySpec['4.9.1'], relativeBySpec.system);
});

for (const spec of SPECS) {
  test(`a measured run reports samples and the temporary tree is removed on ${spec}`, async () => {
    const parent = testParent();
    const params = { ...small, tmpRoot: parent };
    const [run, once] = await Promise.all([
      runWorkerIn(spec, { mode: 'run', suite: suiteFile, benchmark: 'psr4-search', params, sampler: tinySampler }),
      benchmarkValue(spec, suiteFile, 'module-search-paths', params)
    ]);
    const result = run.byType.result;
    assert.ok(result, `no result on ${spec}: ${JSON.stringify(run.byType.error || run.stderrTail)}`);
    assert.equal(result.benchmarkType, 'sync');
    assert.ok(result.measurement.samplesNsPerOp.length >= 3);
    for (const ns of result.measurement.samplesNsPerOp) assert.ok(ns > 0, `sample ${ns}`);
    assert.equal(once.length, small.modulesPerRequest);
    // Both workers made a tree under `parent` (the once value names it) and removed it in teardown.
    assert.ok(insideTree(parent, once[0]).length > 0);
    assert.deepEqual(fs.readdirSync(parent), [], 'the suite left files behind');
  });
}
