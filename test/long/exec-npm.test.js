// `exec -- npm test` runs the runtime's own npm: a runtime from the npm registry's node packages
// carries no npm, so nodebench installs the npm of its release line into the cache entry (the host's
// npm 11 does not start on Node 14). Real runtimes, a real project, the real npm of each.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodebench } from '../helpers/cli.js';
import { testRuntime } from '../helpers/runtimes.js';
import { privateCache } from '../helpers/private-cache.js';
import { schemaErrors } from '../helpers/schema.js';
import { chooseNpm, SHIPPED_NPM_MAJOR } from '../../cli/runtimes/runtime-npm.js';

// A project whose test script says which node and which npm ran it (npm sets npm_config_user_agent).
function tinyProject() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-npm-project-'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'tiny', version: '1.0.0', scripts: { test: 'node test.js' } }));
  fs.writeFileSync(path.join(dir, 'test.js'), `var fs = require('fs');
fs.writeFileSync('seen-' + process.version + '.txt', String(process.env.npm_config_user_agent));
if (process.env.FAIL_ON === process.version) { console.error('assertion failed on ' + process.version); process.exit(3); }
`);
  return dir;
}

const seen = (dir, version) => fs.readFileSync(path.join(dir, `seen-v${version}.txt`), 'utf8');
const read = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

test('the npm chosen for a runtime is the newest of its line\'s npm major that accepts it, else the newest whose engines accept it', () => {
  const releases = [
    { version: '2.15.11' }, { version: '2.15.12' }, { version: '3.10.10' }, { version: '5.10.0' },
    { version: '6.14.18', engines: { node: '6 >=6.2.0 || 8 || >=9.3.0' } },
    { version: '8.19.4', engines: { node: '^12.13.0 || ^14.15.0 || >=16.0.0' } },
    { version: '9.9.4', engines: { node: '^14.17.0 || ^16.13.0 || >=18.0.0' } },
    { version: '10.9.4', engines: { node: '^18.17.0 || >=20.5.0' } },
    { version: '11.0.0-pre.1', engines: { node: '>=0' } },
    { version: '12.2.0', engines: { node: '^22.22.2 || ^24.15.0 || >=26.0.0' } }
  ];
  const version = (node) => chooseNpm(node, releases)?.version;
  assert.equal(version('4.9.1'), '2.15.12');
  assert.equal(version('6.17.1'), '3.10.10');
  assert.equal(version('14.21.3'), '6.14.18');
  assert.equal(version('16.20.2'), '8.19.4');
  assert.equal(version('18.20.8'), '10.9.4');
  assert.match(chooseNpm('14.21.3', releases).chosen, /npm 6\.x \(the npm major Node 14 shipped\)/);
  // Not in the table: by engines only; a prerelease never.
  assert.equal(SHIPPED_NPM_MAJOR[26], undefined);
  assert.equal(version('26.10.0'), '12.2.0');
  assert.match(chooseNpm('26.10.0', releases).chosen, /newest npm whose engines accept Node 26\.10\.0/);
  assert.equal(chooseNpm('0.10.48', releases), null);
});

test('exec -- npm test runs each runtime\'s own npm (Node 14: npm 6, Node 16: npm 8, a current one: its own), recorded in the result file', { timeout: 600_000 }, async () => {
  const [, , current] = await Promise.all([testRuntime('14.21.3'), testRuntime('16.20.2'), testRuntime('24.21.0')]);
  const dir = tinyProject();
  const out = path.join(dir, 'r.json');
  const run = await nodebench(['exec', '--node', `14.21.3,16.20.2,${current.version}`, '--processes', '1', '--max-processes', '1', '--out', out, '--', 'npm', 'test'], { cwd: dir });
  assert.equal(run.exitCode, 0, run.stderr);
  const result = read(out);
  assert.deepEqual(schemaErrors(result), []);
  const npmOf = Object.fromEntries(result.runtimes.map((r) => [r.version, r.npm]));
  assert.equal(npmOf['14.21.3'].version, '6.14.18');
  assert.equal(npmOf['16.20.2'].version, '8.19.4');
  assert.equal(npmOf[current.version].source, `npm@${npmOf[current.version].version}`);
  assert.match(npmOf['14.21.3'].integrity, /^sha512-/);
  for (const r of result.runtimes) {
    assert.match(seen(dir, r.version), new RegExp(`^npm/${r.npm.version.replace(/\./g, '\\.')} node/v${r.version.replace(/\./g, '\\.')} `));
  }
  for (const cell of result.cells) assert.equal(cell.status, 'ok', cell.error);
  // The commands table says which npm each column ran.
  const npmColumn = (line) => line.trim().split(/\s+/).at(-1);
  const perRun = run.stdout.slice(run.stdout.indexOf('commands, per run'));
  const tableRows = perRun.split('\n').filter((l) => l.startsWith('npm test'));
  assert.deepEqual(tableRows.map(npmColumn), ['6.14.18', '8.19.4', npmOf[current.version].version], run.stdout);

  // A project whose tests really fail on one runtime fails that cell alone, with its status and words.
  const failing = await nodebench(['exec', '--node', '14.21.3,16.20.2', '--processes', '1', '--max-processes', '1', '--env', 'FAIL_ON=v14.21.3', '--out', path.join(dir, 'f.json'), '--', 'npm', 'test'], { cwd: dir });
  assert.equal(failing.exitCode, 1, failing.stderr);
  const [on14, on16] = read(path.join(dir, 'f.json')).cells;
  assert.equal(on14.status, 'failed');
  assert.match(on14.error, /exited with status \d+.*assertion failed on v14\.21\.3/);
  assert.equal(on16.status, 'ok', on16.error);
});

test('npm --version prints each runtime\'s npm, and Node 4\'s npm 2 runs npm test but has no npx, which a sentence says', { timeout: 600_000 }, async () => {
  await Promise.all([testRuntime('4.9.1'), testRuntime('14.21.3'), testRuntime('16.20.2')]);
  const dir = tinyProject();
  const versions = await nodebench(['exec', '--node', '14.21.3,16.20.2', '--processes', '1', '--max-processes', '1', '--out', path.join(dir, 'v.json'), '--shell', '--', 'npm --version > npm-$(node --version).txt'], { cwd: dir });
  assert.equal(versions.exitCode, 0, versions.stderr);
  assert.equal(fs.readFileSync(path.join(dir, 'npm-v14.21.3.txt'), 'utf8').trim(), '6.14.18');
  assert.equal(fs.readFileSync(path.join(dir, 'npm-v16.20.2.txt'), 'utf8').trim(), '8.19.4');

  const old = await nodebench(['exec', '--node', '4.9.1', '--processes', '1', '--max-processes', '1', '--out', path.join(dir, 'old.json'), '--', 'npm', 'test'], { cwd: dir });
  assert.equal(old.exitCode, 0, old.stderr);
  assert.match(seen(dir, '4.9.1'), /^npm\/2\.15\.\d+ node\/v4\.9\.1 /);
  assert.equal(read(path.join(dir, 'old.json')).runtimes[0].npm.npx, false);
  const npx = await nodebench(['exec', '--node', '4.9.1', '--processes', '1', '--max-processes', '1', '--out', path.join(dir, 'npx.json'), '--', 'npx', '--version'], { cwd: dir });
  assert.equal(npx.exitCode, 1, npx.stderr);
  assert.match(read(path.join(dir, 'npx.json')).cells[0].error, /exited with status 127: nodebench: npm 2\.15\.\d+, the npm of Node 4\.9\.1, has no npx \(npx came with npm 5\.2\); use a newer runtime for npx\./);
});

test('a damaged npm in a cache entry is installed again; offline, the run goes on and the result says why npm is the host\'s', { timeout: 600_000 }, async () => {
  await testRuntime('14.21.3');
  const { cache, env } = await privateCache(['14.21.3'], 'nodebench-npm-');
  const home = path.join(cache, 'runtimes', '14.21.3-linux-x64', 'npm');
  const dir = tinyProject();
  // Offline and no npm in the entry yet: a warning and the problem on the runtime, the command still runs.
  fs.rmSync(home, { recursive: true, force: true });
  const offline = await nodebench(['exec', '--node', '14.21.3', '--processes', '1', '--max-processes', '1', '--out', path.join(dir, 'o.json'), '--', 'node', '-e', '0'], { cwd: dir, env });
  assert.equal(offline.exitCode, 0, offline.stderr);
  assert.match(offline.stderr, /warning: Could not list npm's versions from the npm registry .*; npm and npx are the ones on PATH, which may not run on Node 14\.21\.3/);
  const npm = read(path.join(dir, 'o.json')).runtimes[0].npm;
  assert.equal(npm.version, null);
  assert.match(npm.problem, /npm and npx are the ones on PATH/);

  // Online (the registry npm is configured with): installed, then damaged, then installed again.
  const online = { NODEBENCH_CACHE: cache };
  const first = await nodebench(['exec', '--node', '14.21.3', '--processes', '1', '--max-processes', '1', '--out', path.join(dir, 'a.json'), '--', 'npm', 'test'], { cwd: dir, env: online });
  assert.equal(first.exitCode, 0, first.stderr);
  assert.match(first.stderr, /installing npm 6\.14\.18 for Node 14\.21\.3/);
  fs.writeFileSync(path.join(home, 'lib', 'node_modules', 'npm', 'package.json'), '{"name": "npm", "version": "11.0.0"}');
  const again = await nodebench(['exec', '--node', '14.21.3', '--processes', '1', '--max-processes', '1', '--out', path.join(dir, 'b.json'), '--', 'npm', 'test'], { cwd: dir, env: online });
  assert.equal(again.exitCode, 0, again.stderr);
  assert.match(again.stderr, /the npm in .* is incomplete or damaged; installing it again/);
  assert.match(seen(dir, '14.21.3'), /^npm\/6\.14\.18 node\/v14\.21\.3 /);
});

test('a runtime from a mirror keeps the npm and corepack its archive shipped, without asking the npm registry', { timeout: 600_000 }, async () => {
  // Node 20 (the host's corepack needs it): its npm as nodebench installs it, and the host's corepack,
  // packaged into a mirror archive the way upstream ships them.
  const node20 = await testRuntime('20.20.2');
  const { ensureRuntimeNpm } = await import('../../cli/runtimes/runtime-npm.js');
  const npmVersion = (await ensureRuntimeNpm(node20)).version;
  assert.match(npmVersion, /^10\./);
  const npmDir = path.join(path.dirname(path.dirname(node20.path)), 'npm', 'lib', 'node_modules', 'npm');
  // The host Node's corepack where it has one (Node 20 to 24 ship it); without, npm alone is checked.
  const corepackDir = path.join(path.dirname(fs.realpathSync(process.execPath)), '..', 'lib', 'node_modules', 'corepack');
  const corepackVersion = fs.existsSync(corepackDir) ? JSON.parse(fs.readFileSync(path.join(corepackDir, 'package.json'), 'utf8')).version : undefined;
  const { startMirror } = await import('../helpers/mirror.js');
  const mirror = await startMirror({ version: '20.20.2', modules: corepackVersion ? { npm: npmDir, corepack: fs.realpathSync(corepackDir) } : { npm: npmDir } });
  try {
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-mirror-npm-'));
    const env = { NODEBENCH_CACHE: cache, NODE_MIRROR: mirror.url, npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0' };
    const dir = tinyProject();
    const out = path.join(dir, 'm.json');
    const run = await nodebench(['exec', '--node', '20.20.2', '--processes', '1', '--max-processes', '1', '--out', out, '--shell', '--', `npm test${corepackVersion ? ' && corepack --version > corepack.txt' : ''}`], { cwd: dir, env });
    assert.equal(run.exitCode, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /installing npm/);
    assert.match(seen(dir, '20.20.2'), new RegExp(`^npm/${npmVersion.replace(/\./g, '\\.')} node/v20\\.20\\.2 `));
    if (corepackVersion) assert.equal(fs.readFileSync(path.join(dir, 'corepack.txt'), 'utf8').trim(), corepackVersion);
    const { npm } = read(out).runtimes[0];
    assert.equal(npm.version, npmVersion);
    assert.equal(npm.corepack, corepackVersion);
    assert.match(npm.chosen, /the npm Node 20\.20\.2 shipped \(its archive on the mirror\)/);
    assert.equal(npm.source, `${mirror.url}/v20.20.2/node-v20.20.2-linux-x64.tar.gz`);
  } finally {
    mirror.close();
  }
});

// nodebench run from an npm script (as `npm test` runs this very file in CI) inherits the host npm's
// lifecycle environment: the runtime's npm must not take the host npm's configuration for its own.
test('from inside an npm script, the runtime\'s npm runs with its own configuration, not the enclosing npm\'s', { timeout: 300_000 }, async () => {
  await testRuntime('14.21.3');
  const dir = tinyProject();
  const enclosing = { npm_lifecycle_event: 'bench', npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js', npm_config_user_agent: 'npm/11.0.0 node/v20.0.0 linux x64 workspaces/false', NODE: process.execPath };
  const run = await nodebench(['exec', '--node', '14.21.3', '--processes', '1', '--max-processes', '1', '--out', path.join(dir, 'r.json'), '--', 'npm', 'test'], { cwd: dir, env: enclosing });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.match(seen(dir, '14.21.3'), /^npm\/6\.14\.18 node\/v14\.21\.3 /);
});
