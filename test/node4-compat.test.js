// Node-4 compatibility of the runtime side is checked, not hoped for: every file under worker/ and
// suites/ is compiled by the real Node 4.9.1 (vm.Script compiles without running), except files that
// a suite references as `module:` of a benchmark with a newer minNode, and files that declare their
// own minimum in their first lines (`// minNode 12.17.0: ...`, required only after a version check):
// those are compiled by the runtime they name instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { root } from './helpers/cli.js';
import { testRuntime } from './helpers/runtimes.js';

function jsFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : jsFiles(full);
    return entry.name.endsWith('.js') ? [full] : [];
  });
}

// Files only loaded where a newer runtime runs them: declared in the suites themselves.
async function newerOnlyFiles() {
  const { describeSuite } = await import('../cli/matrix/discover-suites.js');
  const files = new Set();
  for (const suiteDir of fs.readdirSync(path.join(root, 'suites'), { withFileTypes: true }).filter((d) => d.isDirectory())) {
    const index = path.join(root, 'suites', suiteDir.name, 'index.js');
    if (!fs.existsSync(index)) continue;
    const source = fs.readFileSync(index, 'utf8');
    for (const match of source.matchAll(/module:\s*'([^']+)'/g)) files.add(path.resolve(path.dirname(index), match[1]));
    await describeSuite(index);
  }
  return files;
}

// A declared minimum (`// minNode X.Y.Z` within the first lines) -> 'X.Y.Z', else null.
function declaredMinimum(file) {
  const head = fs.readFileSync(file, 'utf8').split('\n').slice(0, 5).join('\n');
  const match = /^\/\/ minNode (\d+\.\d+\.\d+)\b/m.exec(head);
  return match ? match[1] : null;
}

const PARSE = `
var fs = require('fs'), vm = require('vm'), bad = [];
process.argv.slice(1).forEach(function (f) {
  try { new vm.Script('(function(){' + fs.readFileSync(f, 'utf8').replace(/^#!.*/, '') + '\\n})', { filename: f }); }
  catch (e) { bad.push(f + ': ' + e.message); }
});
console.log(JSON.stringify(bad));`;

test('Node 4.9.1 parses every runtime-side file', { timeout: 120_000 }, async () => {
  const node4 = await testRuntime('4.9.1');
  const skip = await newerOnlyFiles();
  const files = [...jsFiles(path.join(root, 'worker')), ...jsFiles(path.join(root, 'suites'))].filter((f) => !skip.has(f) && !declaredMinimum(f));
  assert.ok(files.length >= 6);
  const { stdout } = await execa(node4.path, ['-e', PARSE, ...files]);
  assert.deepEqual(JSON.parse(stdout), []);
});

test('a runtime-side file that declares a newer minimum parses on that runtime, and not on Node 4', { timeout: 300_000 }, async () => {
  const declared = jsFiles(path.join(root, 'worker')).map((f) => [f, declaredMinimum(f)]).filter(([, min]) => min);
  assert.ok(declared.some(([f]) => f.endsWith(path.join('esm', 'import.js'))), 'worker/esm/import.js declares its minimum');
  const node4 = await testRuntime('4.9.1');
  for (const [file, minimum] of declared) {
    const runtime = await testRuntime(minimum);
    const { stdout } = await execa(runtime.path, ['-e', PARSE, file]);
    assert.deepEqual(JSON.parse(stdout), [], `${file} does not parse on Node ${minimum}, the minimum it declares`);
    // Otherwise the declaration would be an exemption it does not need.
    const old = await execa(node4.path, ['-e', PARSE, file]);
    assert.equal(JSON.parse(old.stdout).length, 1, `${file} parses on Node 4.9.1: drop its minNode line`);
  }
});

test('Node 4.9.1 loads every built-in suite and lists its benchmarks', { timeout: 120_000 }, async () => {
  const { runWorkerIn } = await import('./helpers/runtimes.js');
  for (const dir of fs.readdirSync(path.join(root, 'suites'), { withFileTypes: true }).filter((d) => d.isDirectory())) {
    const index = path.join(root, 'suites', dir.name, 'index.js');
    if (!fs.existsSync(index)) continue;
    const { byType } = await runWorkerIn('4.9.1', { mode: 'list', suite: index });
    assert.ok(byType.suite, `${dir.name} did not load on Node 4.9.1: ${byType.error && byType.error.message}`);
    assert.ok(byType.suite.suite.benchmarks.length > 0);
  }
});
