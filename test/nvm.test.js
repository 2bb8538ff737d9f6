// nvm's own installer on request: `runtimes install X --via nvm` and `provider: nvm` in matrix.yaml
// run `nvm install X` in bash (NVM_DIR, NVM_NODEJS_ORG_MIRROR honoured, the version an argument),
// then verify what nvm installed like any other runtime. nvm itself is not installable from the
// registries CI reaches: test/fixtures/nvm/nvm.sh is a stand-in that follows its interface and
// layout, installing from a nodejs.org-layout mirror on loopback built from a cached runtime.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodebench, root } from './helpers/cli.js';
import { startMirror } from './helpers/mirror.js';
import { testRuntime } from './helpers/runtimes.js';
import { installWithNvm } from '../cli/runtimes/nvm.js';
import { parseMatrix } from '../cli/matrix/load.js';

const OFFLINE = { npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0' };
const standIn = path.join(root, 'test', 'fixtures', 'nvm', 'nvm.sh');

// An NVM_DIR holding only the stand-in nvm.sh, a log of the nvm calls, and an empty nodebench cache.
function nvmHome(mirror) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-nvm-'));
  fs.mkdirSync(path.join(dir, 'nvm'));
  fs.copyFileSync(standIn, path.join(dir, 'nvm', 'nvm.sh'));
  const log = path.join(dir, 'nvm-calls.log');
  const env = { NVM_DIR: path.join(dir, 'nvm'), NVM_NODEJS_ORG_MIRROR: mirror.url, NVM_STANDIN_LOG: log, NODEBENCH_CACHE: path.join(dir, 'cache'), ...OFFLINE };
  return { dir, env, calls: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []) };
}
const noStack = (run) => assert.doesNotMatch(`${run.stdout}${run.stderr}`, /\n\s+at |internal error/);

test('runtimes install --via nvm runs nvm install from NVM_NODEJS_ORG_MIRROR into NVM_DIR, verifies it, and uses it in place next time', { timeout: 180_000 }, async () => {
  const mirror = await startMirror({ version: '4.9.1' });
  try {
    const home = nvmHome(mirror);
    const binary = path.join(home.env.NVM_DIR, 'versions', 'node', 'v4.9.1', 'bin', 'node');
    const run = await nodebench(['runtimes', 'install', '4.9.1', '--via', 'nvm'], { env: home.env });
    assert.equal(run.exitCode, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`^4\\.9\\.1 -> 4\\.9\\.1\\s+V8 4\\.5\\.103\\.53\\s+nvm\\s+LTS Argon\\s+${binary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    assert.match(run.stderr, /installing Node 4\.9\.1 with nvm \(nvm install 4\.9\.1\)/);
    assert.deepEqual(home.calls(), ['nvm install 4.9.1', 'nvm which 4.9.1']);
    assert.ok(mirror.requests.includes(`/v4.9.1/node-v4.9.1-${process.platform}-${process.arch}.tar.gz`));
    assert.ok(mirror.requests.includes('/v4.9.1/SHASUMS256.txt'));
    assert.equal(fs.existsSync(path.join(home.env.NODEBENCH_CACHE, 'runtimes')), false, 'nothing went into the nodebench cache');
    // Installed: used in place, nvm is not asked again.
    const again = await nodebench(['runtimes', 'install', '4.9.1', '--via', 'nvm'], { env: home.env });
    assert.equal(again.exitCode, 0, again.stderr);
    assert.equal(home.calls().length, 2);
  } finally {
    mirror.close();
  }
});

test('provider: nvm in matrix.yaml installs with nvm and the result records the nvm runtime', { timeout: 180_000 }, async () => {
  const mirror = await startMirror({ version: '4.9.1' });
  try {
    const home = nvmHome(mirror);
    const matrix = path.join(home.dir, 'matrix.yaml');
    fs.writeFileSync(matrix, `runtimes:
  - {spec: 4.9.1, provider: nvm}
suites:
  - {name: ${path.join(root, 'test', 'fixtures', 'suites', 'smoke')}, benchmarks: [sum-loop]}
run: {processes: 1, maxProcesses: 1, samples: 3, minSampleMs: 2, warmupMinMs: 5, warmupMaxMs: 50, metrics: false}
`);
    const out = path.join(home.dir, 'r.json');
    const run = await nodebench(['matrix', '--matrix', matrix, '--out', out], { env: home.env });
    assert.equal(run.exitCode, 0, run.stderr);
    const result = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.equal(result.runtimes[0].version, '4.9.1');
    assert.equal(result.runtimes[0].provider, 'nvm');
    assert.equal(result.runtimes[0].source, path.join(home.env.NVM_DIR, 'versions', 'node', 'v4.9.1', 'bin', 'node'));
    assert.equal(result.cells[0].status, 'ok');
    assert.deepEqual(home.calls(), ['nvm install 4.9.1', 'nvm which 4.9.1']);
  } finally {
    mirror.close();
  }
});

test('what nvm installed is verified: a build of another version under the asked one is refused with nvm\'s repair', { timeout: 180_000 }, async () => {
  const node6 = await testRuntime('6.17.1');
  const mirror = await startMirror({ version: '4.9.1', binary: node6.path });
  try {
    const home = nvmHome(mirror);
    const run = await nodebench(['runtimes', 'install', '4.9.1', '--via', 'nvm'], { env: home.env });
    assert.equal(run.exitCode, 2, run.stderr);
    assert.match(run.stderr, /^nodebench: Node 4\.9\.1 in your nvm \(.*\/v4\.9\.1\/bin\/node\) is damaged: its bin\/node is Node 6\.17\.1, not 4\.9\.1 as its nvm folder says; reinstall it with nvm \(nvm uninstall 4\.9\.1, then nvm install 4\.9\.1\)\.$/m);
    noStack(run);
  } finally {
    mirror.close();
  }
});

test('nvm missing, nvm failing, an unknown provider: one sentence each, exit 2', { timeout: 120_000 }, async () => {
  const mirror = await startMirror({ version: '4.9.1' });
  try {
    const home = nvmHome(mirror);
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-no-nvm-'));
    const cases = [
      [['runtimes', 'install', '4.9.1', '--via', 'nvm'], { ...home.env, NVM_DIR: empty }, new RegExp(`^nodebench: nvm is not installed in ${empty} \\(no nvm\\.sh there\\); install nvm, or set NVM_DIR to its folder, or leave out --via nvm / provider: nvm\\.$`, 'm')],
      [['runtimes', 'install', '4.9.0', '--via', 'nvm'], home.env, /^nodebench: nvm install 4\.9\.0 failed \(exit 1: Binary download from http:\/\/127\.0\.0\.1:\d+\/v4\.9\.0\/node-v4\.9\.0-linux-x64\.tar\.gz failed\.\); run it in your shell to see why \(NVM_NODEJS_ORG_MIRROR is http:\/\/127\.0\.0\.1:\d+, which nvm refuses: it takes only http\(s\):\/\/ with letters, digits and \. \/ _ -, no port\), or install without nvm\.$/m],
      [['runtimes', 'install', '4.9.1', '--via', 'brew'], home.env, /^nodebench: --via "brew" is not known; use --via nvm, or leave it out to install into the nodebench cache\.$/],
      [['runtimes', 'install', '/usr/bin/node', '--via', 'nvm'], home.env, /names a binary, so provider nvm has nothing to install/]
    ];
    for (const [args, env, expected] of cases) {
      const run = await nodebench(args, { env });
      assert.equal(run.exitCode, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, expected);
      noStack(run);
    }
  } finally {
    mirror.close();
  }
});

test('the version reaches nvm as an argument, never as shell text', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-nvm-inject-'));
  fs.copyFileSync(standIn, path.join(dir, 'nvm.sh'));
  const marker = path.join(dir, 'injected');
  for (const version of [`$(touch ${marker})`, `4.9.1"; touch ${marker}; echo "`, `\`touch ${marker}\``]) {
    await assert.rejects(installWithNvm(version, { env: { ...process.env, NVM_DIR: dir, NVM_NODEJS_ORG_MIRROR: 'http://127.0.0.1:9' } }), /nvm install .* failed \(exit 3: Version '.*' not found/);
  }
  assert.equal(fs.existsSync(marker), false);
});

test('matrix.yaml: provider takes nvm only, and only for a version', () => {
  assert.deepEqual(parseMatrix('runtimes: [{spec: 16, provider: nvm}, 14]\n').runtimes, [{ spec: '16', label: null, provider: 'nvm' }, { spec: '14', label: null }]);
  assert.throws(() => parseMatrix('runtimes:\n  - {spec: 16, provider: brew}\n', 'm.yaml'), /^UserError: m\.yaml:2: provider "brew" is not known; write provider: nvm \(nvm's own installer\), or leave it out\.$/);
  assert.throws(() => parseMatrix('runtimes:\n  - {spec: system, provider: nvm}\n', 'm.yaml'), /m\.yaml:2: runtime "system" names a binary, so provider nvm has nothing to install/);
  assert.throws(() => parseMatrix('runtimes:\n  - {spec: 16, via: nvm}\n', 'm.yaml'), /runtime entries take spec, label and provider, not via/);
});
