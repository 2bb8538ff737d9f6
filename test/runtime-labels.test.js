// A runtime is believed on what its binary says, never on its label, by every command that names
// one: a cache entry relabelled as another version, a binary patched in place with its mtime put
// back, an nvm folder holding another version, a path whose wrapper answers a version probe itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { nodebench } from './helpers/cli.js';
import { testRuntime } from './helpers/runtimes.js';
import { privateCache as sharedPrivateCache, realCache, OFFLINE } from './helpers/private-cache.js';
import { reportedVersionProblem } from '../cli/runtimes/verify.js';

const privateCache = (versions = ['14.21.3']) => sharedPrivateCache(versions, 'nodebench-labels-');

const noStack = (run) => assert.doesNotMatch(`${run.stdout}${run.stderr}`, /\n\s+at |internal error/);

test('a cache entry copied under another version with its record relabelled is damaged for every command', { timeout: 300_000 }, async () => {
  const { cache, env } = await privateCache(['14.21.3']);
  const fake = path.join(cache, 'runtimes', '16.20.2-linux-x64');
  fs.cpSync(path.join(cache, 'runtimes', '14.21.3-linux-x64'), fake, { recursive: true });
  const recordFile = path.join(fake, 'nodebench-runtime.json');
  fs.writeFileSync(recordFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(recordFile, 'utf8')), version: '16.20.2' }));
  const damaged = /The cached Node 16\.20\.2 in .* is damaged: its bin\/node is Node 14\.21\.3, not 16\.20\.2 as its record says; reinstall it with nodebench runtimes install 16\.20\.2 --repair\./;

  const list = await nodebench(['runtimes', 'list'], { env });
  assert.equal(list.exitCode, 0, list.stderr);
  assert.match(list.stdout, /16\.20\.2\s+DAMAGED: its bin\/node is Node 14\.21\.3, not 16\.20\.2 as its record says/);
  assert.match(list.stdout, /14\.21\.3\s+V8/);
  for (const args of [['flags', '16.20.2'], ['flags', 'diff', '14.21.3', '16.20.2'], ['doctor', '--node', '16.20.2'], ['runtimes', 'which', '16.20.2'],
    ['bisect', '--flag', 'concurrent-marking', '--good', '14.21.3', '--bad', '16.20.2'],
    ['run', 'test/fixtures/suites/smoke/index.js', '--node', '16.20.2', '--quick', '--out', path.join(cache, 'r.json')]]) {
    const run = await nodebench(args, { env });
    assert.equal(run.exitCode, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, damaged, args.join(' '));
    noStack(run);
  }
  assert.equal(fs.existsSync(path.join(cache, 'r.json')), false, 'nothing was measured under the wrong label');
});

test('a binary patched in place (same size and inode) with its mtime put back is caught by its ctime', { timeout: 120_000 }, async () => {
  const { cache, env } = await privateCache(['4.9.1']);
  const ok = await nodebench(['runtimes', 'which', '4.9.1'], { env });
  assert.equal(ok.exitCode, 0, ok.stderr);
  const binary = path.join(cache, 'runtimes', '4.9.1-linux-x64', 'bin', 'node');
  const before = fs.statSync(binary);
  // touch -r copies the mtime to the nanosecond, as a careful tamperer would.
  const reference = path.join(cache, 'reference');
  await execa('touch', ['-r', binary, reference]);
  const fd = fs.openSync(binary, 'r+');
  const byte = Buffer.alloc(1);
  fs.readSync(fd, byte, 0, 1, before.size - 100);
  fs.writeSync(fd, Buffer.from([byte[0] ^ 0xff]), 0, 1, before.size - 100);
  fs.closeSync(fd);
  await execa('touch', ['-m', '-r', reference, binary]);
  const after = fs.statSync(binary);
  assert.equal(after.mtimeMs, before.mtimeMs);
  assert.equal(after.ino, before.ino);
  assert.equal(after.size, before.size);

  const which = await nodebench(['runtimes', 'which', '4.9.1'], { env });
  assert.equal(which.exitCode, 2);
  assert.match(which.stderr, /The cached Node 4\.9\.1 in .* is damaged: its bin\/node changed since it was installed/);
  const list = await nodebench(['runtimes', 'list'], { env });
  assert.match(list.stdout, /4\.9\.1\s+DAMAGED: its bin\/node changed since it was installed/);
});

test('an nvm folder whose binary is another version is refused, not measured under the folder\'s name', { timeout: 120_000 }, async () => {
  const node14 = await testRuntime('14.21.3');
  const nvm = fs.mkdtempSync(path.join(os.tmpdir(), 'nvm-liar-'));
  fs.mkdirSync(path.join(nvm, 'versions', 'node', 'v16.20.5', 'bin'), { recursive: true });
  fs.symlinkSync(node14.path, path.join(nvm, 'versions', 'node', 'v16.20.5', 'bin', 'node'));
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-labels-'));
  const out = path.join(cache, 'r.json');
  const env = { NVM_DIR: nvm, NODEBENCH_CACHE: cache, ...OFFLINE };
  for (const args of [['run', 'test/fixtures/suites/smoke/index.js', '--node', '16.20.5', '--quick', '--out', out], ['flags', '16.20.5'], ['runtimes', 'which', '16.20.5']]) {
    const run = await nodebench(args, { env });
    assert.equal(run.exitCode, 2, run.stderr);
    assert.match(run.stderr, /^nodebench: Node 16\.20\.5 in your nvm \(.*v16\.20\.5\/bin\/node\) is damaged: its bin\/node is Node 14\.21\.3, not 16\.20\.5 as its nvm folder says; reinstall it with nvm \(nvm uninstall 16\.20\.5, then nvm install 16\.20\.5\)\.$/m);
    noStack(run);
  }
  assert.equal(fs.existsSync(out), false);
});

// A wrapper that answers a -p version probe itself and hands everything else to Node 14.
function wrapper(dir, { lieTo }) {
  const file = path.join(dir, 'node');
  const node14 = path.join(realCache, 'runtimes', '14.21.3-linux-x64', 'bin', 'node');
  const fakeAnswer = `{"version":"16.20.2","v8":"9.4.146.26-node.26","arch":"x64","platform":"linux","lts":"Gallium"}`;
  fs.writeFileSync(file, `#!/bin/sh\ncase "$*" in\n  ${lieTo}) echo '${fakeAnswer}'; exit 0;;\nesac\nexec ${node14} "$@"\n`, { mode: 0o755 });
  return file;
}

test('a --node path is asked the way a worker is started, so a wrapper that answers -p itself is measured as what it runs', { timeout: 180_000 }, async () => {
  await testRuntime('14.21.3');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-wrapper-'));
  const binary = wrapper(dir, { lieTo: '-p*' });
  const out = path.join(dir, 'r.json');
  const run = await nodebench(['run', 'test/fixtures/suites/smoke/index.js', '--node', binary, '--quick', '--benchmarks', 'sum-loop', '--out', out]);
  assert.equal(run.exitCode, 0, run.stderr);
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.equal(result.runtimes[0].version, '14.21.3');
  assert.equal(result.runtimes[0].provider, 'path');
});

test('a --node path that runs another version than it reported is refused with advice that fits a path', { timeout: 180_000 }, async () => {
  await testRuntime('14.21.3');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-wrapper-'));
  // Lies to everything but the worker, so the resolver cannot tell; the worker's own report can.
  const binary = wrapper(dir, { lieTo: '*probe.js' });
  const doctor = await nodebench(['doctor', '--node', binary, '--processes', '2']);
  assert.equal(doctor.exitCode, 2, doctor.stderr);
  assert.match(doctor.stderr, new RegExp(`^nodebench: The binary ${binary} ran as Node 14\\.21\\.3, but when asked for its version it said 16\\.20\\.2; give the path of a real node binary \\(${binary} is a wrapper or a build that does not report its own version\\)\\.$`, 'm'));
  assert.doesNotMatch(doctor.stderr, /repair/);
  noStack(doctor);
  // The sentence the runner's own late check uses, for each provider.
  assert.match(reportedVersionProblem({ provider: 'npm', version: '16.20.2', path: '/c/bin/node' }, '14.21.3'), /its cache entry says 16\.20\.2; reinstall it with nodebench runtimes install 16\.20\.2 --repair$/);
  assert.match(reportedVersionProblem({ provider: 'nvm', version: '16.20.2', path: '/n/bin/node' }, '14.21.3'), /its nvm folder says 16\.20\.2; reinstall it with nvm/);
  assert.equal(reportedVersionProblem({ provider: 'path', version: '16.20.2', path: '/p' }, '16.20.2'), null);
});

// The probe of issue 32: 14.21.3's folder moved (rename keeps the binary's inode and ctime) to
// 16.20.2's name, and the version edited in both of its JSON files, the record and the stamp of its
// last check. Every command asks the binary itself, so none is fooled.
test('a cache entry moved under another version with its record and its stamp edited is damaged for every command', { timeout: 300_000 }, async () => {
  const { cache, env } = await privateCache(['14.21.3']);
  const first = await nodebench(['runtimes', 'which', '14.21.3'], { env });
  assert.equal(first.exitCode, 0, first.stderr);
  const fake = path.join(cache, 'runtimes', '16.20.2-linux-x64');
  fs.renameSync(path.join(cache, 'runtimes', '14.21.3-linux-x64'), fake);
  for (const name of ['nodebench-runtime.json', 'nodebench-verified.json']) {
    const file = path.join(fake, name);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/14\.21\.3/g, '16.20.2'));
  }
  assert.match(fs.readFileSync(path.join(fake, 'nodebench-verified.json'), 'utf8'), /^\{"stamp":"16\.20\.2:/);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-moved-'));
  const list = await nodebench(['runtimes', 'list'], { env });
  assert.match(list.stdout, /16\.20\.2\s+DAMAGED: its bin\/node is Node 14\.21\.3, not 16\.20\.2 as its record says/);
  for (const args of [['flags', '16.20.2'], ['flags', 'diff', '16.20.2', '16.20.2'], ['doctor', '--node', '16.20.2'],
    ['exec', '--node', '16.20.2', '--processes', '1', '--out', path.join(dir, 'e.json'), '--', 'node', '-e', '0'],
    ['run', 'test/fixtures/suites/smoke/index.js', '--node', '16.20.2', '--quick', '--out', path.join(dir, 'r.json')]]) {
    const run = await nodebench(args, { env });
    assert.equal(run.exitCode, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, /The cached Node 16\.20\.2 in .* is damaged: its bin\/node is Node 14\.21\.3, not 16\.20\.2 as its record says; reinstall it with nodebench runtimes install 16\.20\.2 --repair\./, args.join(' '));
    noStack(run);
  }
  assert.deepEqual(fs.readdirSync(dir), [], 'nothing was measured under the wrong label');
});

test('a record whose V8 version was edited is damaged, whatever its stamp says', { timeout: 120_000 }, async () => {
  const { cache, env } = await privateCache(['14.21.3']);
  assert.equal((await nodebench(['runtimes', 'which', '14.21.3'], { env })).exitCode, 0);
  const entry = path.join(cache, 'runtimes', '14.21.3-linux-x64');
  const recordFile = path.join(entry, 'nodebench-runtime.json');
  fs.writeFileSync(recordFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(recordFile, 'utf8')), v8: '9.4.146.26-node.26' }));
  const flags = await nodebench(['flags', '14.21.3'], { env });
  assert.equal(flags.exitCode, 2, flags.stderr);
  assert.match(flags.stderr, /is damaged: its record says V8 9\.4\.146\.26-node\.26, but its bin\/node has V8 8\.4\.371\.23-node\.88/);
});

test('a --node wrapper that preloads a script rewriting process.version is refused, not labelled by the lie', { timeout: 180_000 }, async () => {
  const node14 = await testRuntime('14.21.3');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-preload-'));
  const lie = path.join(dir, 'lie.js');
  fs.writeFileSync(lie, "Object.defineProperty(process, 'version', { value: 'v16.20.2' });\n");
  const binary = path.join(dir, 'node');
  fs.writeFileSync(binary, `#!/bin/sh\nexec ${node14.path} -r ${lie} "$@"\n`, { mode: 0o755 });
  const out = path.join(dir, 'r.json');
  for (const args of [['run', 'test/fixtures/suites/smoke/index.js', '--node', binary, '--quick', '--benchmarks', 'sum-loop', '--out', out],
    ['exec', '--node', binary, '--processes', '1', '--out', out, '--', 'node', '-e', '0'], ['flags', binary]]) {
    const run = await nodebench(args);
    assert.equal(run.exitCode, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, new RegExp(`^nodebench: The binary ${binary} ran as Node 14\\.21\\.3, but when asked for its version it said 16\\.20\\.2; give the path of a real node binary`, 'm'));
    noStack(run);
  }
  assert.equal(fs.existsSync(out), false);
});
