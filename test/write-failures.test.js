// Writing files where the file system says no: a full disk (a real 64 KiB tmpfs, and an ENOSPC
// injected half-way through a write), a file where a folder should be, a folder given as the file.
// Each is one sentence naming the user's path, exit 2, and what was on disk before is still there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa, execaSync } from 'execa';
import { nodebench, cliPath, root } from './helpers/cli.js';
import { writeResultFile, okCell } from './helpers/result-file.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-write-'));
const result = writeResultFile([okCell('a'), okCell('b')]);
const noStack = (run) => assert.doesNotMatch(run.stderr, /\n\s+at |internal error|\.tmp\b/);
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// A real full disk: a 64 KiB tmpfs. Mounting needs root; the injected ENOSPC below runs anywhere.
function smallTmpfs(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-tmpfs-'));
  try {
    execaSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]);
  } catch (err) {
    t.skip(`cannot mount a tmpfs here (${err.shortMessage || err.message})`);
    return null;
  }
  t.after(() => execa('umount', ['-l', dir]).catch(() => {}));
  return dir;
}

// Fills `dir`'s file system to the last byte it accepts.
function fill(dir) {
  const fd = fs.openSync(path.join(dir, 'filler'), 'w');
  const block = Buffer.alloc(1024, 1);
  try {
    for (;;) fs.writeSync(fd, block);
  } catch (err) {
    if (err.code !== 'ENOSPC') throw err;
  }
  try {
    for (;;) fs.writeSync(fd, block, 0, 1);
  } catch (err) {
    if (err.code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(fd);
  }
}

const fullDisk = (out) => new RegExp(`^nodebench: Cannot write ${escape(out)}: its file system is full \\(\\d+(\\.\\d)? (B|KiB|MiB|GiB) free in ${escape(path.dirname(out))}\\); the previous version of ${escape(out)} is kept as it was; free some space or write it elsewhere\\.$`);

test('a run whose disk fills up keeps the last complete result file and says so in one sentence (real tmpfs)', { timeout: 180_000 }, async (t) => {
  const disk = smallTmpfs(t);
  if (!disk) return;
  const out = path.join(disk, 'r.json');
  const run = nodebench(['run', 'test/fixtures/suites/smoke/index.js', '--benchmarks', 'sum-loop,promise-chain,noisy-output', '--processes', '3', '--samples', '3', '--out', out]);
  // The run saves once before it measures; the disk is full from then on.
  while (!fs.existsSync(out)) await new Promise((resolve) => setTimeout(resolve, 20));
  const first = fs.readFileSync(out, 'utf8');
  fill(disk);
  const done = await run;
  assert.equal(done.exitCode, 2, done.stderr);
  assert.match(done.stderr.split('\n').filter((l) => l.startsWith('nodebench:')).join('\n'), fullDisk(out));
  noStack(done);
  assert.equal(fs.readFileSync(out, 'utf8'), first, 'the version written before the disk filled is intact');
  assert.equal(JSON.parse(first).status, 'running');
  assert.deepEqual(fs.readdirSync(disk).sort(), ['filler', 'r.json'], 'no temporary file or lock is left behind');
  // What was kept is a result file the readers accept.
  const report = await nodebench(['report', out]);
  assert.equal(report.exitCode, 0, report.stderr);
  assert.match(report.stdout, /unfinished/);
});

test('report --out on a full disk: one sentence with the path and the free space; the old report is kept (real tmpfs)', { timeout: 60_000 }, async (t) => {
  const disk = smallTmpfs(t);
  if (!disk) return;
  const out = path.join(disk, 'report.html');
  fs.writeFileSync(out, 'the previous report');
  const run = await nodebench(['report', result, '--format', 'html', '--out', out]);
  assert.equal(run.exitCode, 2, run.stderr);
  assert.match(run.stderr, fullDisk(out));
  noStack(run);
  assert.equal(fs.readFileSync(out, 'utf8'), 'the previous report');
  assert.deepEqual(fs.readdirSync(disk), ['report.html']);
});

test('an ENOSPC half-way through a write (injected) keeps the previous merge output and the previous report', { timeout: 60_000 }, async () => {
  for (const [args, out] of [
    [['merge', result, '--allow-partial', '--out'], path.join(tmp, 'merged.json')],
    [['report', result, '--format', 'csv', '--out'], path.join(tmp, 'r.csv')]
  ]) {
    fs.writeFileSync(out, 'what was there before');
    const run = await execa(process.execPath, ['--import', path.join(root, 'test', 'fixtures', 'inject-enospc.mjs'), cliPath, ...args, out], { reject: false, stdin: 'ignore', cwd: root });
    assert.equal(run.exitCode, 2, run.stderr);
    assert.match(run.stderr, fullDisk(out));
    noStack(run);
    assert.equal(fs.readFileSync(out, 'utf8'), 'what was there before');
    assert.deepEqual(fs.readdirSync(tmp).filter((f) => f.endsWith('.tmp')), []);
  }
});

test('--out through a file, or naming a folder: one sentence naming the user\'s path, exit 2', { timeout: 60_000 }, async () => {
  const folder = fs.mkdtempSync(path.join(tmp, 'out-'));
  const cases = [
    [['report', result, '--out', '/etc/passwd/r.txt'], /^nodebench: Cannot write \/etc\/passwd\/r\.txt: \/etc\/passwd is a file, not a folder; choose another path\.$/],
    [['report', result, '--out', '/etc/passwd/deeper/r.txt'], /^nodebench: Cannot write \/etc\/passwd\/deeper\/r\.txt: \/etc\/passwd is a file, not a folder; choose another path\.$/],
    [['merge', result, '--allow-partial', '--out', '/etc/passwd/x.json'], /^nodebench: Cannot write \/etc\/passwd\/x\.json: \/etc\/passwd is a file, not a folder; choose another path\.$/],
    [['report', result, '--out', folder], new RegExp(`^nodebench: ${escape(folder)} is a folder; give the path of a file inside it instead\\.$`)],
    [['merge', result, '--allow-partial', '--out', folder], new RegExp(`^nodebench: ${escape(folder)} is a folder; give the path of a file inside it instead\\.$`)],
    [['run', 'test/fixtures/suites/smoke/index.js', '--out', '/etc/passwd/r.json'], /^nodebench: Cannot write \/etc\/passwd\/r\.json: \/etc\/passwd is a file, not a folder; choose another --out\.$/]
  ];
  for (const [args, expected] of cases) {
    const run = await nodebench(args);
    assert.equal(run.exitCode, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, expected, args.join(' '));
    noStack(run);
  }
  assert.deepEqual(fs.readdirSync(folder), [], 'nothing was written into the folder');
});
