// cli/api.d.ts against what it describes: docs/api.md's example and a consumer of every export
// (test/fixtures/api-consumer.ts) must type-check with tsc --strict, and the names the module
// exports at run time must be exactly the values the .d.ts declares.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { execa } from 'execa';
import { root } from './helpers/cli.js';

const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const consumer = path.join(root, 'test', 'fixtures', 'api-consumer.ts');

function tsc() {
  try {
    const dir = path.dirname(createRequire(path.join(root, 'package.json')).resolve('typescript/package.json'));
    return { file: process.execPath, args: [path.join(dir, 'bin', 'tsc')] };
  } catch {
    // A work tree sharing another checkout's node_modules may lack it: npx fetches the version
    // package.json pins, once, into its cache.
    return { file: 'npx', args: ['--yes', '-p', `typescript@${pkg.devDependencies.typescript}`, 'tsc'] };
  }
}

// A file outside the package that imports it by name (through node_modules, as a user would) and
// lists the run-time export names as the keys of an object typed by the declared values: a name
// api.d.ts lacks is an excess property, a declared one api.js lacks a missing property.
async function exportsCheck() {
  const names = Object.keys(await import('nodebench')).sort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-api-types-'));
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.symlinkSync(root, path.join(dir, 'node_modules', 'nodebench'), 'dir');
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  const file = path.join(dir, 'exports-check.ts');
  fs.writeFileSync(file, [
    "import * as api from 'nodebench';",
    `export const exported: { [name in keyof typeof api]: true } = { ${names.map((n) => `${n}: true`).join(', ')} };`,
    ''
  ].join('\n'));
  return { file, names, dir };
}

test('docs/api.md\'s example is the start of the consumer file, verbatim', () => {
  const example = fs.readFileSync(path.join(root, 'docs', 'api.md'), 'utf8').split('```ts\n')[1]?.split('```')[0];
  assert.ok(example, 'docs/api.md has a ```ts example');
  assert.ok(fs.readFileSync(consumer, 'utf8').includes(example), 'copy docs/api.md\'s example into test/fixtures/api-consumer.ts');
});

test('cli/api.d.ts type-checks the documented use of every export, and declares exactly what api.js exports', { timeout: 120_000 }, async () => {
  const { file, names, dir } = await exportsCheck();
  try {
    assert.ok(names.includes('runMatrix') && names.includes('loadResult') && names.includes('compare'));
    const { file: command, args } = tsc();
    const run = await execa(command, [...args, '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', consumer, file], { reject: false, cwd: root, stdin: 'ignore' });
    assert.equal(run.exitCode, 0, `tsc found the types and the API apart:\n${run.stdout}${run.stderr}`);
  } finally {
    // Removes the link to the package, not the package.
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
