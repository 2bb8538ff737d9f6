// corepack on PATH in a command nodebench runs (`exec`, `commands:`) is the runtime's own: a runtime
// from the npm registry's node packages carries none, and the host's corepack (0.34 here) crashes on
// Node 14. For a release that shipped corepack (14.19+ on 14.x, 16.9 to 24) nodebench installs one
// from the npm registry beside the runtime's npm; for one that did not (before 14.19, 25 on), and when the
// registry cannot give it, `corepack` fails with one sentence. Real runtimes, the real registry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import semver from 'semver';
import { nodebench } from './helpers/cli.js';
import { testRuntime } from './helpers/runtimes.js';
import { privateCache } from './helpers/private-cache.js';
import { schemaErrors } from './helpers/schema.js';
import { chooseCorepack, SHIPPED_COREPACK } from '../cli/runtimes/runtime-npm.js';

const read = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
const project = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-corepack-'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'tiny', version: '1.0.0' }));
  return dir;
};
// Writes what `corepack --version` printed, per runtime, or fails as corepack failed.
const PRINT_COREPACK = ['--shell', '--', 'corepack --version > corepack-$(node --version).txt'];
const printed = (dir, version) => fs.readFileSync(path.join(dir, `corepack-v${version}.txt`), 'utf8').trim();

test('the corepack chosen is the newest whose engines accept the runtime, and only for releases that shipped one', () => {
  const releases = [
    { version: '0.17.2', engines: { node: '>=14.14.0' } },
    { version: '0.20.0', engines: { node: '>=16.20.0' } },
    { version: '0.32.0', engines: { node: '^18.17.1 || ^20.10.0 || >=22.11.0' } },
    { version: '0.34.7', engines: { node: '^20.10.0 || ^22.11.0 || >=24.0.0' } },
    { version: '0.40.0-rc.1', engines: { node: '>=0' } },
    { version: '0.36.0', engines: { node: '^22.22.2 || ^24.15.0 || >=26.0.0' } }
  ];
  const version = (node) => chooseCorepack(node, releases)?.version ?? null;
  assert.equal(version('14.21.3'), '0.17.2');
  assert.equal(version('16.20.2'), '0.20.0');
  assert.equal(version('16.14.0'), '0.17.2');
  assert.equal(version('18.20.8'), '0.32.0');
  assert.equal(version('24.0.0'), '0.34.7');
  assert.equal(version('24.21.0'), '0.36.0');
  assert.match(chooseCorepack('14.21.3', releases).chosen, /newest corepack whose engines accept Node 14\.21\.3/);
  // Releases without corepack of their own get none, whatever its engines say.
  for (const node of ['14.18.3', '15.14.0', '16.8.0', '25.0.0', '26.10.0', '8.17.0']) assert.equal(version(node), null, node);
  assert.ok(semver.satisfies('14.19.0', SHIPPED_COREPACK) && semver.satisfies('24.21.0', SHIPPED_COREPACK));
});

test('exec: corepack is the runtime\'s own on Node 14 and 24 (installed from the registry) and refuses in one sentence on Node 8, which shipped none', { timeout: 600_000 }, async () => {
  await Promise.all(['14.21.3', '24.21.0', '8.17.0'].map((v) => testRuntime(v)));
  const dir = project();
  const out = path.join(dir, 'r.json');
  const run = await nodebench(['exec', '--node', '14.21.3,24.21.0,8.17.0', '--processes', '1', '--max-processes', '1', '--out', out, ...PRINT_COREPACK], { cwd: dir });
  assert.equal(run.exitCode, 1, run.stderr);
  const result = read(out);
  assert.deepEqual(schemaErrors(result), []);
  const npmOf = Object.fromEntries(result.runtimes.map((r) => [r.version, r.npm]));
  const cellOf = Object.fromEntries(result.cells.map((c) => [c.runtime, c]));
  for (const version of ['14.21.3', '24.21.0']) {
    assert.equal(cellOf[version].status, 'ok', cellOf[version].error);
    const { corepack, corepackSource, corepackIntegrity } = npmOf[version];
    assert.equal(printed(dir, version), corepack, `${version} ran the corepack its record names`);
    assert.equal(corepackSource, `corepack@${corepack}`);
    assert.match(corepackIntegrity, /^sha512-/);
  }
  assert.equal(cellOf['8.17.0'].status, 'failed');
  assert.match(cellOf['8.17.0'].error, /exited with status 127: nodebench: Node 8\.17\.0 shipped no corepack \(Node 14\.19 to 24 did\), and nodebench does not run the host's corepack on Node 8\.17\.0 instead; add corepack to the project's devDependencies and run it with npx\.$/);
  assert.equal(npmOf['8.17.0'].corepack, undefined);
  assert.match(npmOf['8.17.0'].corepackProblem, /^Node 8\.17\.0 shipped no corepack/);
});

test('offline, an entry without corepack gets a refusing corepack and tries again the next run; online it is installed', { timeout: 600_000 }, async () => {
  // A copy of the real 14.21.3 entry, its npm kept and its corepack taken away.
  const { cache, env } = await privateCache(['14.21.3'], 'nodebench-corepack-cache-');
  const home = path.join(cache, 'runtimes', '14.21.3-linux-x64', 'npm');
  if (!fs.existsSync(path.join(home, 'nodebench-npm.json'))) {
    const warm = await nodebench(['exec', '--node', '14.21.3', '--processes', '1', '--max-processes', '1', '--out', path.join(cache, 'warm.json'), '--', 'node', '-e', '0'], { env: { NODEBENCH_CACHE: cache } });
    assert.equal(warm.exitCode, 0, warm.stderr);
  }
  fs.rmSync(path.join(home, 'lib', 'node_modules', 'corepack'), { recursive: true, force: true });
  fs.rmSync(path.join(home, 'bin', 'corepack'), { force: true });
  const record = read(path.join(home, 'nodebench-npm.json'));
  for (const key of ['corepack', 'corepackSource', 'corepackIntegrity', 'corepackChosen', 'corepackProblem']) delete record[key];
  fs.writeFileSync(path.join(home, 'nodebench-npm.json'), JSON.stringify(record));

  const dir = project();
  const offline = await nodebench(['exec', '--node', '14.21.3', '--processes', '1', '--max-processes', '1', '--out', path.join(dir, 'o.json'), ...PRINT_COREPACK], { cwd: dir, env });
  assert.equal(offline.exitCode, 1, offline.stderr);
  assert.match(offline.stderr, /warning: Could not list corepack's versions from the npm registry/);
  const [cell] = read(path.join(dir, 'o.json')).cells;
  assert.match(cell.error, /exited with status 127: nodebench: Could not list corepack's versions from the npm registry .*, and nodebench does not run the host's corepack on Node 14\.21\.3 instead; run again when the npm registry is reachable\.$/);
  assert.equal(read(path.join(home, 'nodebench-npm.json')).corepackProblem, undefined, 'a registry failure is not recorded as the runtime\'s');

  const online = await nodebench(['exec', '--node', '14.21.3', '--processes', '1', '--max-processes', '1', '--out', path.join(dir, 'a.json'), ...PRINT_COREPACK], { cwd: dir, env: { NODEBENCH_CACHE: cache } });
  assert.equal(online.exitCode, 0, online.stderr);
  assert.match(online.stderr, /installing corepack \d+\.\d+\.\d+ for Node 14\.21\.3/);
  assert.equal(printed(dir, '14.21.3'), read(path.join(home, 'nodebench-npm.json')).corepack);
});

// `corepack enable` on the host (as CI images do) puts yarn and pnpm on PATH as links into the host's
// corepack: in a command they go through the runtime's own corepack, or its refusal. A yarn that is
// not corepack's is the user's and stays.
test('exec: a host yarn that is corepack\'s shim runs through the runtime\'s corepack (the project\'s packageManager on Node 14), a refusal on Node 8; another yarn is left alone', { timeout: 600_000 }, async () => {
  await Promise.all(['14.21.3', '8.17.0'].map((v) => testRuntime(v)));
  const host = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-host-corepack-'));
  // The host's corepack as `corepack enable` links it: bin/yarn -> corepack/dist/yarn.js.
  fs.mkdirSync(path.join(host, 'corepack', 'dist'), { recursive: true });
  fs.writeFileSync(path.join(host, 'corepack', 'dist', 'yarn.js'), '#!/bin/sh\necho the-host-corepack\n', { mode: 0o755 });
  fs.mkdirSync(path.join(host, 'bin'));
  fs.symlinkSync(path.join(host, 'corepack', 'dist', 'yarn.js'), path.join(host, 'bin', 'yarn'));
  // A pnpm of the user's own, not corepack's.
  fs.writeFileSync(path.join(host, 'bin', 'pnpm'), '#!/bin/sh\necho the-users-pnpm\n', { mode: 0o755 });
  const env = { PATH: `${path.join(host, 'bin')}${path.delimiter}${process.env.PATH}` };

  const dir = project();
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'pm', version: '1.0.0', packageManager: 'yarn@1.22.22' }));
  const out = path.join(dir, 'r.json');
  const run = await nodebench(['exec', '--node', '14.21.3,8.17.0', '--processes', '1', '--max-processes', '1', '--out', out, '--shell', '--',
    'pnpm > pnpm-$(node --version).txt; yarn --version > yarn-$(node --version).txt'], { cwd: dir, env });
  assert.equal(run.exitCode, 1, run.stderr);
  const cellOf = Object.fromEntries(read(out).cells.map((c) => [c.runtime, c]));
  assert.equal(cellOf['14.21.3'].status, 'ok', cellOf['14.21.3'].error);
  assert.equal(fs.readFileSync(path.join(dir, 'yarn-v14.21.3.txt'), 'utf8').trim(), '1.22.22');
  assert.equal(fs.readFileSync(path.join(dir, 'pnpm-v14.21.3.txt'), 'utf8').trim(), 'the-users-pnpm');
  assert.match(cellOf['8.17.0'].error, /exited with status 127: nodebench: Node 8\.17\.0 shipped no corepack/);
  assert.equal(fs.readFileSync(path.join(dir, 'pnpm-v8.17.0.txt'), 'utf8').trim(), 'the-users-pnpm');
});
