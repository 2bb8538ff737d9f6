// test/MAP.md takes a newcomer from a module to its tests without a grep. It only helps while it is
// whole and true, so: every module under cli/ and worker/ has a row, every row names a module that
// exists and at least one test file that exists, and no module has two rows. A module added, moved
// or renamed without its row fails here, with the tests that import or name it as a suggestion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { root } from './helpers/cli.js';

const MODULE = /\.(c|m)?js$|\.d\.ts$/;

function modulesUnder(dir) {
  const out = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...modulesUnder(rel));
    else if (MODULE.test(entry.name)) out.push(rel);
  }
  return out;
}

// Rows of the map's tables: | `cli/x.js` | `a.test.js`, `b.test.js` (a note) |
export function parseMap(text) {
  const rows = [];
  for (const line of text.split('\n')) {
    const match = /^\| `((?:cli|worker)\/[^`]+)` \| (.*) \|$/.exec(line);
    if (match) rows.push({ module: match[1], tests: [...match[2].matchAll(/`([^`]+\.test\.js)`/g)].map((m) => m[1]) });
  }
  return rows;
}

// What the map gets wrong against the tree: modules without a row, rows for modules that are gone,
// rows naming no test or a test that is gone, modules with two rows.
export function mapProblems(rows, modules, tests) {
  const problems = [];
  const seen = new Set();
  for (const row of rows) {
    if (seen.has(row.module)) problems.push(`${row.module} has two rows`);
    seen.add(row.module);
    if (!modules.includes(row.module)) problems.push(`${row.module} has a row but is not a module under cli/ or worker/ (moved or removed? update its row)`);
    if (!row.tests.length) problems.push(`${row.module}'s row names no test file`);
    for (const name of row.tests) if (!tests.includes(name)) problems.push(`${row.module}'s row names test/${name}, which does not exist`);
  }
  for (const module of modules) if (!seen.has(module)) problems.push(`${module} has no row in test/MAP.md`);
  return problems;
}

// For a module without a row: the test files that import it or name it, to start the row from.
function suggestions(module, tests) {
  const short = module.replace(/^cli\//, '');
  return tests.filter((name) => {
    const text = fs.readFileSync(path.join(root, 'test', name), 'utf8');
    return text.includes(`/${module}'`) || text.includes(module) || text.includes(short);
  });
}

test('test/MAP.md has one true row for every module under cli/ and worker/', () => {
  const modules = [...modulesUnder('cli'), ...modulesUnder('worker')];
  // test/long/ holds the long checks (npm run test:long): named long/x.test.js in the map.
  const tests = [...fs.readdirSync(path.join(root, 'test')), ...fs.readdirSync(path.join(root, 'test', 'long')).map((name) => `long/${name}`)].filter((name) => name.endsWith('.test.js'));
  const rows = parseMap(fs.readFileSync(path.join(root, 'test', 'MAP.md'), 'utf8'));
  assert.ok(rows.length >= 100, `the map's rows were read (${rows.length})`);
  const problems = mapProblems(rows, modules, tests).map((p) => {
    const missing = /^(\S+) has no row/.exec(p);
    if (!missing) return p;
    const found = suggestions(missing[1], tests);
    return found.length ? `${p} (tests that import or name it: ${found.join(', ')})` : p;
  });
  assert.deepEqual(problems, [], `test/MAP.md is out of date:\n${problems.join('\n')}`);
});

test('the map check sees each kind of mistake (planted)', () => {
  const modules = ['cli/a.js', 'cli/b.js', 'worker/c.js'];
  const tests = ['a.test.js'];
  const rows = parseMap([
    '| `cli/a.js` | `a.test.js` |',
    '| `cli/a.js` | `a.test.js` |',
    '| `cli/gone.js` | `a.test.js` |',
    '| `worker/c.js` | `missing.test.js`, `a.test.js` (a note) |',
    '| `cli/b.js` | none yet |'
  ].join('\n'));
  assert.deepEqual(rows[3], { module: 'worker/c.js', tests: ['missing.test.js', 'a.test.js'] });
  assert.deepEqual(mapProblems(rows, modules, tests), [
    'cli/a.js has two rows',
    'cli/gone.js has a row but is not a module under cli/ or worker/ (moved or removed? update its row)',
    "worker/c.js's row names test/missing.test.js, which does not exist",
    "cli/b.js's row names no test file"
  ]);
  assert.deepEqual(mapProblems(parseMap('| `cli/a.js` | `a.test.js` |'), modules, tests), ['cli/b.js has no row in test/MAP.md', 'worker/c.js has no row in test/MAP.md']);
});

test('npm run test:quick names test files that exist', () => {
  const script = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts['test:quick'];
  const named = script.split(' ').filter((word) => word.endsWith('.test.js'));
  assert.ok(named.length >= 10, script);
  for (const file of named) assert.ok(fs.existsSync(path.join(root, file)), `test:quick names ${file}, which does not exist`);
});
