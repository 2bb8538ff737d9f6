// bench/ as a toolkit (bench/README.md): every script there loads, which no other test would notice
// until someone needed a figure; bench/README.md indexes every file and names docs that exist; no
// bench/ file is named like a cli/ or worker/ module, or like another bench/ file give or take a
// plural (verdict.js beside verdicts.js). Fast: each entry is only asked for --help, which it answers
// from its opening comment before measuring anything (bench/lib/preamble.js answerHelp).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { root } from './helpers/cli.js';

const bench = path.join(root, 'bench');
const jsIn = (dir) => fs.readdirSync(dir).filter((name) => name.endsWith('.js')).sort();
const entries = jsIn(bench);
const helpers = jsIn(path.join(bench, 'lib'));
// The one helper that is a process of its own (started by lib/external.js), so it cannot be
// imported; it answers --help like an entry.
const PROCESSES = ['external-worker.js'];

function namesUnder(dir) {
  const out = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (entry.isDirectory()) out.push(...namesUnder(`${dir}/${entry.name}`));
    else if (entry.name.endsWith('.js')) out.push(entry.name);
  }
  return out;
}

async function help(file) {
  return execa(process.execPath, [file, '--help'], { reject: false, cwd: root, stdin: 'ignore', timeout: 60_000, env: { NODE_OPTIONS: '' } });
}

// Two at a time: the machine these tests run on has two cores.
async function inPairs(items, fn) {
  const out = [];
  for (let i = 0; i < items.length; i += 2) out.push(...await Promise.all(items.slice(i, i + 2).map(fn)));
  return out;
}

test('every bench/ entry starts from the preamble and answers --help with its opening comment, which names how to run it', { timeout: 300_000 }, async () => {
  assert.ok(entries.length >= 10, `entries: ${entries}`);
  for (const name of entries) {
    assert.match(fs.readFileSync(path.join(bench, name), 'utf8'), /^answerHelp\(import\.meta\.url\);$/m, `bench/${name} calls answerHelp(import.meta.url) after its imports`);
  }
  const runs = await inPairs(entries, (name) => help(path.join(bench, name)));
  entries.forEach((name, i) => {
    const run = runs[i];
    assert.equal(run.exitCode, 0, `node bench/${name} --help: ${run.stderr}`);
    assert.match(run.stdout, new RegExp(`node bench/${name.replace('.', '\\.')}\\b`), `bench/${name}'s opening comment says how to run it:\n${run.stdout}`);
    assert.doesNotMatch(run.stdout, /^(import|#!)/m, `bench/${name}: only the comment is printed`);
  });
});

test('every bench/lib/ helper loads (imported in one process); the worker process answers --help', { timeout: 120_000 }, async () => {
  const modules = helpers.filter((name) => !PROCESSES.includes(name)).map((name) => pathToFileURL(path.join(bench, 'lib', name)).href);
  const load = await execa(process.execPath, ['--input-type=module', '-e', 'for (const m of JSON.parse(process.argv[1])) await import(m);', JSON.stringify(modules)],
    { reject: false, cwd: root, stdin: 'ignore', timeout: 60_000, env: { NODE_OPTIONS: '' } });
  assert.equal(load.exitCode, 0, load.stderr);
  assert.equal(load.stdout, '', 'a helper prints nothing when imported');
  for (const name of PROCESSES) {
    const run = await help(path.join(bench, 'lib', name));
    assert.equal(run.exitCode, 0, run.stderr);
    assert.match(run.stdout, /usage: node bench\/lib\//);
  }
});

test('bench/README.md indexes every entry and helper, and every doc it names exists', () => {
  const readme = fs.readFileSync(path.join(bench, 'README.md'), 'utf8');
  const listed = (heading) => {
    const section = readme.split(/^## /m).find((s) => s.startsWith(heading));
    assert.ok(section, `bench/README.md has a section "${heading}"`);
    return [...section.matchAll(/^\| `([^`]+\.js)` \|/gm)].map((m) => m[1]).sort();
  };
  assert.deepEqual(listed('Entry scripts'), entries, 'the "Entry scripts" table lists exactly bench/*.js');
  assert.deepEqual(listed('lib/'), helpers, 'the "lib/" table lists exactly bench/lib/*.js');
  const links = [...readme.matchAll(/\]\((\.\.\/[^)#]+)/g)].map((m) => m[1]);
  assert.ok(links.length >= entries.length - 2);
  for (const link of links) assert.ok(fs.existsSync(path.join(bench, link)), `bench/README.md links ${link}, which exists`);
});

test('no bench/ file is named like a cli/ or worker/ module, or like another bench/ file but for a plural', () => {
  const host = new Set([...namesUnder('cli'), ...namesUnder('worker')]);
  const ours = [...entries, ...helpers];
  assert.deepEqual(ours.filter((name) => host.has(name)), [], 'bench/ names that shadow cli/ or worker/');
  const stem = (name) => name.replace(/\.js$/, '').replace(/s$/, '');
  const seen = new Map();
  for (const name of ours) {
    assert.ok(!seen.has(stem(name)), `bench/ has both ${seen.get(stem(name))} and ${name}`);
    seen.set(stem(name), name);
  }
});
