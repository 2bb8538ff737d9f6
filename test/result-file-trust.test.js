// A result file is data (issue 40, item 3): explain, diff --explain and diff --confirm run again what
// its columns ran, and a file whose runtimes[] are `provider: path` once made them run the binary it
// named, a relative one against the current folder. Such a file is refused in one sentence saying
// how to name a binary on the command line (--node), and runs what the user names; a `system`
// runtime is this machine's node on PATH (or its version again), never the path the file recorded.
// The result is test/fixtures/planted-result.json, a real run on Node 24.21.0 whose second flag set
// makes `slower` four times the work; the "binary" it names is a wrapper that leaves a mark.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodebench, root } from './helpers/cli.js';
import { testRuntime } from './helpers/runtimes.js';
import { rerunSpec, namedBinaries } from '../cli/runtimes/recorded.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-file-trust-'));
const mark = path.join(dir, 'ran.txt');
const VERSION = '24.21.0';
const COLUMNS = ['--from', `${VERSION}/baseline`, '--to', `${VERSION}/--title=nodebench-planted`];

// ./fakenode/node: notes that it ran, then is the real Node 24.21.0 (a wrapper that execs a node
// passes nodebench's checks of a path runtime).
async function fakeNode() {
  const real = await testRuntime(VERSION);
  fs.mkdirSync(path.join(dir, 'fakenode'), { recursive: true });
  const file = path.join(dir, 'fakenode', 'node');
  fs.writeFileSync(file, `#!/bin/sh\necho ran >> '${mark}'\nexec '${real.path}' "$@"\n`, { mode: 0o755 });
  return file;
}

// The planted result with its runtime recorded as `provider` at `source`, its suite at this
// checkout's copy.
function plantedWith(provider, source) {
  const result = JSON.parse(fs.readFileSync(path.join(root, 'test', 'fixtures', 'planted-result.json'), 'utf8'));
  for (const s of result.suites) s.file = path.join(root, 'test', 'fixtures', 'suites', 'planted', 'index.js');
  Object.assign(result.runtimes[0], { provider, source, integrity: undefined });
  const file = path.join(dir, `planted-${provider}.json`);
  fs.writeFileSync(file, JSON.stringify(result));
  return file;
}

const ran = () => fs.existsSync(mark);

function assertRefused(run, file) {
  assert.equal(run.exitCode, 2, `exit code (stderr: ${run.stderr})`);
  assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
  assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
  assert.match(run.stderr, new RegExp(`${path.basename(file)} records runtime "${VERSION}" as the binary \\./fakenode/node, and nodebench does not run a binary a result file names; if you trust it, name it yourself with --node \\./fakenode/node, or give --node any node binary of version ${VERSION}\\.`));
}

test('explain, diff --explain and diff --confirm do not run a path runtime a result file names; each says how to name one', { timeout: 300_000 }, async () => {
  await fakeNode();
  const file = plantedWith('path', './fakenode/node');
  assertRefused(await nodebench(['explain', file, ...COLUMNS, '--benchmark', 'planted/slower', '--processes', '1', '--metrics-processes', '0'], { cwd: dir }), file);
  assertRefused(await nodebench(['diff', file, ...COLUMNS, '--fail-on-regression', '5', '--confirm', '--confirm-processes', '3'], { cwd: dir }), file);
  // diff --explain explains row by row: the row says why it was not, in the same sentence.
  const explained = await nodebench(['diff', file, ...COLUMNS, '--explain', '--profile-dir', path.join(dir, 'profiles')], { cwd: dir });
  assert.equal(explained.exitCode, 0, explained.stderr);
  assert.match(explained.stdout, /explain: planted\/slower \(.*\) not explained: .*planted-path\.json records runtime "24\.21\.0" as the binary \.\/fakenode\/node, and nodebench does not run a binary a result file names; if you trust it, name it yourself with --node \.\/fakenode\/node/);
  assert.equal(ran(), false, 'the binary the file names was run');
  // --node that is another version is no stand-in; the sentence says so.
  const other = await testRuntime('16.20.2');
  const wrong = await nodebench(['explain', file, ...COLUMNS, '--benchmark', 'planted/slower', '--node', other.path], { cwd: dir });
  assert.equal(wrong.exitCode, 2, wrong.stderr);
  assert.match(wrong.stderr, /\(.*16\.20\.2.* is not Node 24\.21\.0\)/);
  assert.equal(ran(), false);
});

test('explain runs the binary a user names with --node for the path runtime of a result file', { timeout: 300_000 }, async () => {
  await fakeNode();
  const file = plantedWith('path', '/nowhere/node');
  const run = await nodebench(['explain', file, ...COLUMNS, '--benchmark', 'planted/slower', '--node', './fakenode/node',
    '--processes', '1', '--metrics-processes', '0', '--duration', '0.3', '--profile-dir', path.join(dir, 'named')], { cwd: dir });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.ok(ran(), 'the binary named on the command line ran');
  fs.rmSync(mark, { force: true });
});

test('a system runtime of a result file is this machine\'s node on PATH or its version again, never the path the file recorded', async () => {
  await fakeNode();
  const record = { label: VERSION, version: VERSION, provider: 'system', source: './fakenode/node' };
  const spec = await rerunSpec(record, { file: 'r.json', named: namedBinaries([]) });
  // The host's node is not 24.21.0 here: the version, found in the cache.
  assert.equal(spec, process.version === `v${VERSION}` ? 'system' : VERSION);
  const host = { ...record, version: process.version.slice(1), label: 'host' };
  assert.equal(await rerunSpec(host, { file: 'r.json', named: namedBinaries([]) }), 'system');
  // A version that is not one is refused rather than read as a spec of another kind.
  await assert.rejects(rerunSpec({ ...record, version: '24.21.0 || /tmp/x' }, { file: 'r.json' }), /records runtime "24\.21\.0" with version "24\.21\.0 \|\| \/tmp\/x", which is not an exact Node version/);
  assert.equal(ran(), false);
});
