// The run's shared directory (cli/runner/run-dir.js, suites/lib/run-dir.js): the autoload suite
// builds its tree there once and later processes of the run read it back with the same results on
// Node 4.9.1 and the current runtime; a run removes its directory when it ends, and the next run
// removes the directory of a run that was killed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runWorkerIn } from './helpers/runtimes.js';
import { createRunDir } from '../cli/runner/run-dir.js';
import { nodebench } from './helpers/cli.js';

const suiteFile = fileURLToPath(new URL('../suites/autoload/index.js', import.meta.url));
const small = { classes: 60, namespaces: 4, dirsPerNamespace: 3, classesPerRequest: 20, modules: 40, searchPaths: 3, modulesPerRequest: 20, seed: 7 };

for (const spec of ['4.9.1', 'system']) {
  test(`autoload builds its tree once per run and reads it back with the same results on ${spec}`, async () => {
    const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-rundir-test-'));
    try {
      const once = (env) => runWorkerIn(spec, { mode: 'once', suite: suiteFile, benchmark: 'psr4-search', params: small }, { env });
      const first = await once({ NODEBENCH_RUN_DIR: runDir });
      const built = fs.readdirSync(runDir).filter((n) => n.startsWith('autoload-'));
      assert.equal(built.length, 1, 'the first process builds one tree in the run directory');
      assert.ok(fs.existsSync(path.join(runDir, built[0], '.nodebench-complete.json')));
      const stamp = fs.statSync(path.join(runDir, built[0], '.nodebench-complete.json')).mtimeMs;
      const second = await once({ NODEBENCH_RUN_DIR: runDir });
      assert.equal(fs.statSync(path.join(runDir, built[0], '.nodebench-complete.json')).mtimeMs, stamp, 'the second process rebuilt the tree');
      assert.deepEqual(second.byType.value.value, first.byType.value.value);
      // The shared tree outlives the process (the run removes it); the files it names exist.
      for (const file of second.byType.value.value) assert.ok(fs.existsSync(file), file);
      // Without a run directory the suite builds and removes a private tree, resolving the same names.
      const alone = await once({ NODEBENCH_RUN_DIR: '' });
      const insidePrivate = (file) => {
        const parts = file.split(path.sep);
        return parts.slice(parts.findIndex((p) => p.startsWith('nodebench-autoload-')) + 1).join('/');
      };
      const insideShared = (file) => path.relative(path.join(runDir, built[0]), file).split(path.sep).join('/');
      assert.deepEqual(alone.byType.value.value.map(insidePrivate), first.byType.value.value.map(insideShared));
    } finally {
      fs.rmSync(runDir, { recursive: true, force: true });
    }
  });
}

test('a run removes its shared directory when it ends; the next run removes one whose owner is gone', async () => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-rundir-cache-'));
  const env = { NODEBENCH_CACHE: cache };
  const tmp = path.join(cache, 'tmp');
  fs.mkdirSync(tmp, { recursive: true });
  // A run killed with -9 (its owner pid no longer exists) and a live one (this test's pid).
  const orphan = path.join(tmp, 'run-orphan');
  fs.mkdirSync(path.join(orphan, 'autoload-x'), { recursive: true });
  fs.writeFileSync(path.join(orphan, 'owner.json'), JSON.stringify({ pid: 2147483646 }));
  const live = path.join(tmp, 'run-live');
  fs.mkdirSync(live);
  fs.writeFileSync(path.join(live, 'owner.json'), JSON.stringify({ pid: process.pid }));
  const made = await createRunDir(env);
  assert.ok(!fs.existsSync(orphan), 'the orphan was not removed');
  assert.ok(fs.existsSync(live), 'a live run\'s directory was removed');
  made.remove();
  assert.ok(!fs.existsSync(made.path));
  // A real run through the CLI leaves nothing behind in tmp/ but the live one above.
  const out = path.join(cache, 'r.json');
  const { exitCode, stderr } = await nodebench(['run', suiteFile, '--node', 'system', '--benchmarks', 'classmap', '--quick', '--out', out,
    '--param', 'classes=40', '--param', 'modules=20'], { env: { ...process.env, ...env } });
  assert.equal(exitCode, 0, stderr);
  assert.deepEqual(fs.readdirSync(tmp), ['run-live']);
  fs.rmSync(cache, { recursive: true, force: true });
});

// Two processes of a run start at once in duet and concurrent runs: the one that finds the tree
// being built waits for it and reads it back, as every later process does, instead of building a
// private copy (another path, and on Node 4.9.1 module-search-paths counted 5% more instructions
// per operation in a process that built its own tree, 2026-11-28).
for (const spec of ['4.9.1', 'system']) {
  test(`on ${spec}, a process that finds the tree being built by another waits for it and reads it back`, async () => {
    const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-rundir-wait-'));
    const waiting = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-rundir-wait-'));
    try {
      const once = (env) => runWorkerIn(spec, { mode: 'once', suite: suiteFile, benchmark: 'module-search-paths', params: small }, { env });
      const first = await once({ NODEBENCH_RUN_DIR: runDir });
      const [name] = fs.readdirSync(runDir).filter((n) => n.startsWith('autoload-'));
      // Another process has claimed the tree (its folder exists, no marker yet) and finishes 1 s later.
      fs.mkdirSync(path.join(waiting, name));
      const second = once({ NODEBENCH_RUN_DIR: waiting });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      fs.copyFileSync(path.join(runDir, name, '.nodebench-complete.json'), path.join(waiting, name, '.nodebench-complete.json'));
      const read = await second;
      assert.equal(read.exitCode, 0, read.stderrTail);
      // The files it resolved are the shared tree's, not a private copy's.
      assert.deepEqual(read.byType.value.value, first.byType.value.value);
      for (const file of read.byType.value.value) assert.ok(file.startsWith(runDir + path.sep), file);
    } finally {
      fs.rmSync(runDir, { recursive: true, force: true });
      fs.rmSync(waiting, { recursive: true, force: true });
    }
  });
}
