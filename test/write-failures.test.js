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
import { fifoReader } from './helpers/fifo.js';

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
  // The run saves once before it measures; the disk is full from then on. What is read after the
  // disk filled is the last save that got through (a loaded host may let a second one in first).
  while (!fs.existsSync(out)) await new Promise((resolve) => setTimeout(resolve, 20));
  fill(disk);
  const first = fs.readFileSync(out, 'utf8');
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

// --out naming what is not a regular file (issue 32 B). Device nodes made with mknod in a temp
// folder (never the system's own /dev), a FIFO, /proc paths, a bind mount: a rename over any of
// them would replace a device by a regular file or fail with EBUSY after the work is done.
function deviceNode(t, name, minor) {
  const dir = fs.mkdtempSync(path.join(tmp, 'dev-'));
  const node = path.join(dir, name);
  try {
    execaSync('mknod', [node, 'c', '1', String(minor)]);
  } catch (err) {
    t.skip(`cannot make a device node here (${err.shortMessage || err.message})`);
    return null;
  }
  return node;
}
const isCharDevice = (file) => fs.lstatSync(file).isCharacterDevice();

test('--out a character device, or a symlink to one, is written through and stays a device (mknod null)', { timeout: 120_000 }, async (t) => {
  const nul = deviceNode(t, 'null', 3);
  if (!nul) return;
  const link = path.join(path.dirname(nul), 'link-to-null');
  fs.symlinkSync(nul, link);
  const store = fs.mkdtempSync(path.join(tmp, 'store-'));
  assert.equal((await nodebench(['history', 'add', result, '--store', store])).exitCode, 0);
  for (const out of [nul, link]) {
    for (const args of [['report', result], ['report', result, '--format', 'html'], ['merge', result, '--allow-partial'], ['history', 'show', '--store', store]]) {
      const run = await nodebench([...args, '--out', out]);
      assert.equal(run.exitCode, 0, `${args.join(' ')} --out ${out}: ${run.stderr}`);
      assert.ok(isCharDevice(nul), `${args.join(' ')} --out ${out} left the device a device`);
      assert.ok(fs.lstatSync(link).isSymbolicLink());
    }
  }
  assert.deepEqual(fs.readdirSync(path.dirname(nul)).sort(), ['link-to-null', 'null'], 'no temporary file is left beside the device');
});

test('--out a full device (mknod full): one sentence, exit 2, the device stays', { timeout: 60_000 }, async (t) => {
  const full = deviceNode(t, 'full', 7);
  if (!full) return;
  for (const args of [['report', result], ['merge', result, '--allow-partial']]) {
    const run = await nodebench([...args, '--out', full]);
    assert.equal(run.exitCode, 2, run.stderr);
    assert.match(run.stderr, new RegExp(`^nodebench: Cannot write ${escape(full)}: the character device reports no space left \\(ENOSPC\\); choose another path\\.$`, 'm'));
    noStack(run);
    assert.ok(isCharDevice(full));
  }
});

test('run and matrix refuse --out a device before measuring: a result file is saved as the run goes', { timeout: 60_000 }, async (t) => {
  const nul = deviceNode(t, 'null', 3);
  if (!nul) return;
  for (const args of [['run', 'test/fixtures/suites/smoke/index.js'], ['matrix', '--suites', 'test/fixtures/suites/smoke/index.js', '--runtimes', 'system']]) {
    const run = await nodebench([...args, '--out', nul, '--force']);
    assert.equal(run.exitCode, 2, run.stderr);
    assert.match(run.stderr, new RegExp(`^nodebench: ${escape(nul)} is a character device, not a file: the result file is saved as the run goes and read back to resume it; give --out the path of a file \\(--json prints the result on stdout\\)\\.$`, 'm'));
    assert.doesNotMatch(run.stderr, /measuring|\[\d+\/\d+\]/);
    assert.ok(isCharDevice(nul));
  }
});

test('--out /proc/self/fd/1 (what /dev/stdout is), or a symlink to it, writes on stdout; a new /proc path is one sentence', { timeout: 60_000 }, async () => {
  const expected = (await nodebench(['report', result])).stdout;
  const link = path.join(fs.mkdtempSync(path.join(tmp, 'stdout-')), 'stdout');
  fs.symlinkSync('/proc/self/fd/1', link);
  for (const out of ['/proc/self/fd/1', link]) {
    const run = await nodebench(['report', result, '--out', out]);
    assert.equal(run.exitCode, 0, run.stderr);
    assert.equal(run.stdout, expected);
    assert.ok(fs.lstatSync(link).isSymbolicLink());
  }
  const proc = await nodebench(['report', result, '--out', '/proc/x']);
  assert.equal(proc.exitCode, 2, proc.stderr);
  assert.match(proc.stderr, /^nodebench: Cannot create \/proc\/x: \/proc takes no new files; choose another path\.$/m);
  noStack(proc);
});

test('--out a FIFO is written through to its reader; with no reader, one sentence instead of a hang', { timeout: 60_000 }, async () => {
  const fifo = path.join(fs.mkdtempSync(path.join(tmp, 'fifo-')), 'pipe');
  execaSync('mkfifo', [fifo]);
  const alone = await nodebench(['report', result, '--out', fifo]);
  assert.equal(alone.exitCode, 2, alone.stderr);
  assert.match(alone.stderr, new RegExp(`^nodebench: Cannot write ${escape(fifo)}: nothing is reading that FIFO; start its reader first, or choose another path\\.$`, 'm'));
  const { reader } = await fifoReader(fifo);
  const run = await nodebench(['report', result, '--format', 'csv', '--out', fifo]);
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal((await reader).stdout, (await nodebench(['report', result, '--format', 'csv'])).stdout.replace(/\n$/, ''));
  assert.ok(fs.lstatSync(fifo).isFIFO());
});

test('--out a bind-mounted file (docker run -v file:file) is written in place, also by a run that measured', { timeout: 180_000 }, async (t) => {
  const dir = fs.mkdtempSync(path.join(tmp, 'bind-'));
  const source = path.join(dir, 'source.json');
  const target = path.join(dir, 'target.json');
  fs.writeFileSync(source, 'before');
  fs.writeFileSync(target, 'under the mount');
  try {
    execaSync('mount', ['--bind', source, target]);
  } catch (err) {
    t.skip(`cannot bind-mount here (${err.shortMessage || err.message})`);
    return;
  }
  t.after(() => execaSync('umount', [target]));
  const merge = await nodebench(['merge', result, '--allow-partial', '--out', target]);
  assert.equal(merge.exitCode, 0, merge.stderr);
  assert.equal(JSON.parse(fs.readFileSync(source, 'utf8')).cells.length, 2, 'the mounted file has the merge');
  const run = await nodebench(['run', 'test/fixtures/suites/smoke/index.js', '--benchmarks', 'sum-loop', '--quick', '--out', target, '--force']);
  assert.equal(run.exitCode, 0, run.stderr);
  const written = JSON.parse(fs.readFileSync(source, 'utf8'));
  assert.equal(written.status, 'complete');
  assert.equal(written.cells[0].status, 'ok');
  assert.deepEqual(fs.readdirSync(dir).sort(), ['source.json', 'target.json'], 'no temporary file is left');
});

test('bisect --out naming a file that is not a bisect state: one sentence, the file untouched', { timeout: 60_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(tmp, 'bisect-'));
  for (const [name, text, what] of [['notes.txt', 'my notes\n', 'not JSON'], ['result.json', fs.readFileSync(result, 'utf8'), 'other JSON']]) {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    const run = await nodebench(['bisect', '--flag', 'concurrent-marking', '--good', '16.13.2', '--bad', '16.14.0', '--out', file]);
    assert.equal(run.exitCode, 2, run.stderr);
    assert.match(run.stderr, new RegExp(`^nodebench: ${escape(file)} is not a bisect state file \\(${what}\\); choose another --out, or remove it\\.$`, 'm'));
    noStack(run);
    assert.equal(fs.readFileSync(file, 'utf8'), text);
  }
});
