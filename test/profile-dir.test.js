// explain's profile folder (issue 40, items 6 and 7). --profile-dir naming a regular file or a FIFO
// (EEXIST from mkdirSync), a folder on a read-only file system, or with no --profile-dir a read-only
// working folder ended in exit 70; an immutable folder (chattr +i) in exit 0, "Neither side could be
// profiled", after every process had run. Each is now one sentence and exit 2 before anything is
// profiled. diff --explain gave rows named `p q` and `p_q` one folder, the second's profiles over
// the first's: each row now has a folder of its own. Real runtime 20.20.2, one short process a side.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa, execaSync } from 'execa';
import { nodebench, root } from './helpers/cli.js';
import { testRuntime } from './helpers/runtimes.js';
import { assertUserError } from './helpers/history.js';
import { readOnlyMount } from './helpers/mounts.js';
import { writeResultFile, okCell, runtimeRecord } from './helpers/result-file.js';
import { explainComparisons } from '../cli/explain/index.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-profile-dir-'));
const suite = path.join(root, 'test', 'fixtures', 'suites', 'planted', 'index.js');
const explain = (profileDir, options = {}) => nodebench(['explain', '--suite', suite, '--from', '20.20.2', '--to', '20.20.2', '--benchmark', 'slower',
  '--processes', '1', '--metrics-processes', '0', '--duration', '0.2', ...(profileDir ? ['--profile-dir', profileDir] : [])], { cwd: dir, timeout: 120_000, ...options });

function refusedBeforeProfiling(run, pattern) {
  assertUserError(run, pattern);
  assert.doesNotMatch(run.stderr, /profiling/, 'a process ran first');
}

test('--profile-dir naming a regular file or a FIFO is one sentence, exit 2, before anything is profiled', { timeout: 180_000 }, async () => {
  await testRuntime('20.20.2');
  const file = path.join(dir, 'a-file');
  fs.writeFileSync(file, 'not a folder\n');
  refusedBeforeProfiling(await explain(file), /--profile-dir .*a-file is a regular file, not a folder; give --profile-dir a new folder or an existing one\.$/);
  assert.equal(fs.readFileSync(file, 'utf8'), 'not a folder\n');
  const fifo = path.join(dir, 'a-fifo');
  await execa('mkfifo', [fifo]);
  refusedBeforeProfiling(await explain(fifo), /--profile-dir .*a-fifo is a FIFO, not a folder/);
  refusedBeforeProfiling(await explain(path.join(file, 'below')), /a-file is a file, not a folder/);
});

test('a --profile-dir on a read-only file system, or a read-only working folder without one, is one sentence, exit 2', { timeout: 180_000 }, async (t) => {
  await testRuntime('20.20.2');
  const folder = path.join(dir, 'read-only');
  const unmount = readOnlyMount(folder);
  if (!unmount) return t.skip('no right to mount a read-only folder here');
  t.after(unmount);
  refusedBeforeProfiling(await explain(path.join(folder, 'profiles')), /Cannot keep profiles in .*read-only\/profiles: .*read-only is on a read-only file system; give --profile-dir a folder that can be written\.$/);
  refusedBeforeProfiling(await explain(folder), /read-only is on a read-only file system/);
  // No --profile-dir: ./nodebench-explain-<time> in a working folder that takes no files.
  refusedBeforeProfiling(await explain(null, { cwd: folder }), /Cannot keep profiles in .*read-only\/nodebench-explain-[^ ]*: .* read-only file system; run explain from a folder that can be written, or give --profile-dir one\.$/);
});

test('a --profile-dir in a file system that takes no folders (/proc: ENOENT under an existing parent), or run from one, is one sentence, exit 2', { timeout: 180_000 }, async (t) => {
  if (!fs.existsSync('/proc/self')) return t.skip('no /proc here');
  await testRuntime('20.20.2');
  refusedBeforeProfiling(await explain('/proc/nodebench-profiles'), /Cannot keep profiles in \/proc\/nodebench-profiles: .*; give --profile-dir a folder that can be written\.$/);
  refusedBeforeProfiling(await explain(null, { cwd: '/proc' }), /Cannot keep profiles in \/proc\/nodebench-explain-[^ ]*: .*; run explain from a folder that can be written, or give --profile-dir one\.$/);
});

test('an immutable --profile-dir (chattr +i) is one sentence with the real reason, exit 2, not "Neither side could be profiled"', { timeout: 180_000 }, async (t) => {
  await testRuntime('20.20.2');
  const folder = path.join(dir, 'immutable');
  fs.mkdirSync(folder);
  const locked = await execa('chattr', ['+i', folder], { reject: false });
  if (locked.exitCode !== 0) return t.skip(`chattr +i is not possible here (${locked.stderr.trim()})`);
  t.after(() => execaSync('chattr', ['-i', folder]));
  const run = await explain(folder);
  assert.doesNotMatch(run.stdout, /Neither side could be profiled/);
  refusedBeforeProfiling(run, /Cannot keep profiles in .*immutable: it takes no new files \(operation not permitted, as a folder made immutable with chattr \+i answers even root\); give --profile-dir a folder that can be written\.$/);
});

// Two rows whose names differ only where a folder name cannot follow them.
test('diff --explain gives rows named "p q" and "p_q" a profile folder each', { timeout: 300_000 }, async () => {
  await testRuntime('20.20.2');
  const suiteFile = path.join(dir, 'pq.js');
  fs.writeFileSync(suiteFile, `'use strict';
function work(n) { var x = 0; for (var i = 0; i < n; i++) x = (x * 31 + i) | 0; return x; }
module.exports = { name: 's', benchmarks: { 'p q': function () { return work(2000); }, 'p_q': function () { return work(3000); } } };
`);
  const cells = ['p q', 'p_q'].map((name) => okCell(name, 'ok', { runtimeLabel: '20.20.2' }));
  const file = writeResultFile(cells, { runtimes: [runtimeRecord('20.20.2')] });
  const result = JSON.parse(fs.readFileSync(file, 'utf8'));
  result.suites[0].file = suiteFile;
  fs.writeFileSync(file, JSON.stringify(result));
  const side = { runtimeLabel: '20.20.2', flagSet: 'baseline' };
  const rows = ['s/p q', 's/p_q'].map((label) => ({ label, column: '20.20.2/baseline', a: side, b: side, comparison: { verdict: 'slower' } }));
  const profiles = path.join(dir, 'rows');
  const explained = await explainComparisons(rows, { fileA: file, fileB: file }, { processes: 1, metricsProcesses: 0, windowMs: 200, profileDir: profiles });
  assert.deepEqual(explained.map((e) => e.skipped ?? null), [null, null]);
  const filesOf = (e) => Object.values(e.document.sides).flatMap((s) => s.profiling.processes.map((p) => p.file));
  const [first, second] = explained.map(filesOf);
  assert.equal(first.length, 2);
  assert.deepEqual(first.filter((f) => second.includes(f)), [], 'both rows wrote the same profiles');
  assert.notEqual(explained[0].document.settings.profileDir, explained[1].document.settings.profileDir);
  for (const f of [...first, ...second]) assert.ok(fs.statSync(f).isFile(), f);
});
