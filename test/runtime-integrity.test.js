// A damaged runtime cache is refused or repaired, never used under another label: a binary swapped
// for another runtime, an edited record, a missing record, a leftover staging directory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodebench } from './helpers/cli.js';

const realCache = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'nodebench', 'runtimes');
const OFFLINE = { npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0' };

// A private cache holding a copy of the real 4.9.1 entry (installed by .ci/run), with the version
// index of the real cache so that resolving needs no network.
function privateCache() {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-integrity-'));
  fs.cpSync(path.join(realCache, '4.9.1-linux-x64'), path.join(cache, 'runtimes', '4.9.1-linux-x64'), { recursive: true });
  const index = path.join(realCache, '..', 'index');
  if (fs.existsSync(index)) fs.cpSync(index, path.join(cache, 'index'), { recursive: true });
  return { cache, entry: path.join(cache, 'runtimes', '4.9.1-linux-x64'), env: { NODEBENCH_CACHE: cache, ...OFFLINE } };
}

test('a binary swapped for another runtime is refused with a sentence, listed as damaged, and --repair removes it', { timeout: 120_000 }, async () => {
  const { entry, env } = privateCache();
  const ok = await nodebench(['runtimes', 'which', '4.9.1'], { env });
  assert.equal(ok.exitCode, 0, ok.stderr);
  // A wrapper that starts Node 6 instead: what the hostile test did to 16.20.2.
  const binary = path.join(entry, 'bin', 'node');
  fs.rmSync(binary);
  fs.writeFileSync(binary, `#!/bin/sh\nexec ${path.join(realCache, '6.17.1-linux-x64', 'bin', 'node')} "$@"\n`, { mode: 0o755 });
  const which = await nodebench(['runtimes', 'which', '4.9.1'], { env });
  assert.equal(which.exitCode, 2);
  assert.match(which.stderr, /The cached Node 4\.9\.1 in .* is damaged: its bin\/node changed since it was installed .*; reinstall it with nodebench runtimes install 4\.9\.1 --repair\./);
  const run = await nodebench(['run', 'test/fixtures/suites/smoke/index.js', '--node', '4.9.1', '--processes', '1'], { env });
  assert.equal(run.exitCode, 2, 'a matrix never runs a damaged runtime under its label');
  const list = await nodebench(['runtimes', 'list'], { env });
  assert.match(list.stdout, /4\.9\.1\s+DAMAGED: its bin\/node changed/);
  const repair = await nodebench(['runtimes', 'install', '4.9.1', '--repair'], { env });
  assert.match(repair.stderr, /removed the damaged cache entry of Node 4\.9\.1/);
  assert.equal(fs.existsSync(entry), false);
});

test('an edited record cannot relabel a runtime; a missing or corrupt record is an incomplete entry that is removed, never a crash', { timeout: 120_000 }, async () => {
  const edited = privateCache();
  const recordFile = path.join(edited.entry, 'nodebench-runtime.json');
  fs.writeFileSync(recordFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(recordFile, 'utf8')), version: '16.20.2' }));
  const which = await nodebench(['runtimes', 'which', '4.9.1'], { env: edited.env });
  assert.equal(which.exitCode, 2);
  assert.match(which.stderr, /its record says Node 16\.20\.2, but it is the cache entry of 4\.9\.1/);

  for (const damage of [(file) => fs.rmSync(file), (file) => fs.writeFileSync(file, '{"version": "4.9')]) {
    const broken = privateCache();
    damage(path.join(broken.entry, 'nodebench-runtime.json'));
    const list = await nodebench(['runtimes', 'list'], { env: broken.env });
    assert.match(list.stdout, /4\.9\.1\s+INCOMPLETE: /);
    // Offline, the reinstall fails with a sentence; the broken entry is gone either way.
    const again = await nodebench(['runtimes', 'which', '4.9.1'], { env: broken.env });
    assert.equal(again.exitCode, 2, again.stderr);
    assert.doesNotMatch(again.stderr, /TypeError|at /);
    assert.equal(fs.existsSync(broken.entry), false);
  }
});

test('a staging directory left by an interrupted install is removed by the next install', { timeout: 60_000 }, async () => {
  const { cache, env } = privateCache();
  const stale = path.join(cache, 'tmp', 'install-stale');
  fs.mkdirSync(path.join(stale, 'bin'), { recursive: true });
  const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
  fs.utimesSync(stale, old, old);
  await nodebench(['runtimes', 'install', '4.9.0'], { env });
  assert.equal(fs.existsSync(stale), false);
});
