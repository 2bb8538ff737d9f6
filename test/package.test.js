// nodebench as a team adds it: `npm pack`, the tarball installed into an empty project, and the
// installed command run there on a benchmark file (npx nodebench run file.mjs), the API imported.
// The tarball ships what a dependency needs (package.json "files") and never test/ or results; of
// bench/, only what `nodebench doctor --full` runs (bench/harness.js, what it imports, its fixture).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { root } from './helpers/cli.js';
import { testRuntime } from './helpers/runtimes.js';

test('npm pack, install into an empty project, npx nodebench run file.mjs there', { timeout: 240_000 }, async (t) => {
  const runtime = await testRuntime('16');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-pack-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const packed = await execa('npm', ['pack', '--json', '--pack-destination', dir], { cwd: root, stdin: 'ignore' });
  const [{ filename, files }] = JSON.parse(packed.stdout);
  const shipped = files.map((f) => f.path);
  for (const needed of ['cli/nodebench.js', 'cli/api.js', 'cli/api.d.ts', 'cli/results/result.schema.json', 'worker/child.js', 'suites/lib/blackhole.js', 'blackhole/package.json', 'matrix.yaml', 'action.yml', 'README.md', 'package.json']) {
    assert.ok(shipped.includes(needed), `${needed} is in the tarball`);
  }
  assert.deepEqual(shipped.filter((f) => /^(test|results|node_modules)\//.test(f)), [], 'no tests or results in the tarball');
  assert.deepEqual(shipped.filter((f) => f.startsWith('bench/') && !/^bench\/(harness\.js|lib\/[\w-]+\.js|fixtures\/work\.js|fixtures\/package\.json)$/.test(f)), [],
    'of bench/, only the harness that doctor --full runs and what it needs');
  assert.ok(shipped.includes('bench/harness.js') && shipped.includes('bench/fixtures/work.js'), 'doctor --full\'s harness is in the tarball');

  const project = path.join(dir, 'project');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'a-team-project', version: '1.0.0', private: true, type: 'module' }));
  // The dependencies come from npm's cache when they are there, from the registry otherwise.
  await execa('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--save-dev', path.join(dir, filename)], { cwd: project, stdin: 'ignore' });
  fs.writeFileSync(path.join(project, 'bench.mjs'), [
    "export const benchmarks = {",
    "  'join': () => ['a', 'b', 'c'].join(','),",
    "  'template': () => `${'a'},${'b'},${'c'}`",
    '};',
    ''
  ].join('\n'));
  const run = await execa('npx', ['nodebench', 'run', 'bench.mjs', '--node', runtime.version, '--quick', '--out', 'r.json'], { cwd: project, stdin: 'ignore', reject: false, env: { NO_COLOR: '1' } });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.match(run.stdout, /^join +\S+/m);
  const result = JSON.parse(fs.readFileSync(path.join(project, 'r.json'), 'utf8'));
  assert.deepEqual(result.cells.map((c) => [c.benchmark, c.runtime, c.status]), [['join', runtime.version, 'ok'], ['template', runtime.version, 'ok']]);
  // The API and the blackhole, as the project imports them.
  const api = await execa(process.execPath, ['--input-type=module', '-e', "import { runMatrix, loadResult } from 'nodebench'; import { createRequire } from 'node:module'; const r = await loadResult('r.json'); console.log(typeof runMatrix, r.cells.length, typeof createRequire(import.meta.url)('nodebench/blackhole').consume);"], { cwd: project, stdin: 'ignore' });
  assert.equal(api.stdout, 'function 2 function');
  // What doctor --full starts loads from the installed package, with every module it imports
  // (--help answers after they are all loaded; the measuring itself takes minutes: bench/README.md).
  const harness = await execa(process.execPath, [path.join(project, 'node_modules', 'nodebench', 'bench', 'harness.js'), '--help'], { cwd: project, stdin: 'ignore', reject: false });
  assert.equal(harness.exitCode, 0, harness.stderr);
  assert.match(harness.stdout, /nodebench doctor --full/);
});
