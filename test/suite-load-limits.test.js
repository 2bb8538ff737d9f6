// Loading a suite is bounded like running one: a suite that loops or awaits for ever at load is
// killed at --timeout and named ("hung while loading"), and a suite path that is not a regular file
// (a device, a FIFO, a symlink to one) is refused before any worker reads it. Real devices made with
// mknod in a temp folder (never the system's own), a real FIFO, real workers. Hang-guards only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { cliPath } from './helpers/cli.js';

const HANG_GUARD_MS = 60_000;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-suite-load-'));

function nodebench(args) {
  return execa(process.execPath, [cliPath, ...args], { reject: false, stdin: 'ignore', cwd: tmp, env: { NO_COLOR: '1' }, timeout: HANG_GUARD_MS, killSignal: 'SIGKILL' });
}
async function refused(args) {
  const run = await nodebench(args);
  assert.ok(!run.timedOut, `nodebench did not finish within ${HANG_GUARD_MS / 1000} s: ${run.stderr.slice(-400)}`);
  assert.equal(run.exitCode, 2, run.stderr);
  assert.doesNotMatch(run.stderr, /internal error|\n\s+at /);
  assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
  return run.stderr;
}

const mknod = (name, minor) => {
  const file = path.join(tmp, name);
  // 1,5 is /dev/zero and 1,9 /dev/urandom on Linux: reading either never ends.
  const made = execa('mknod', [file, 'c', '1', String(minor)], { reject: false });
  return made.then((r) => (r.exitCode === 0 ? file : null));
};

test('a suite path that is a device, a symlink to one or a FIFO is refused at once, in one sentence, exit 2', { timeout: 4 * HANG_GUARD_MS }, async (t) => {
  const zero = await mknod('zero-device', 5);
  const random = await mknod('random-device', 9);
  if (!zero || !random) return t.skip('mknod is not allowed here (not root)');
  fs.symlinkSync(zero, path.join(tmp, 'zero.js'));
  fs.symlinkSync(random, path.join(tmp, 'random.js'));
  await execa('mkfifo', [path.join(tmp, 'fifo.js')]);
  for (const [file, kind] of [['zero.js', /is a character device \(.*zero\.js leads to .*zero-device\), not a regular file/], ['random.js', /is a character device/], ['fifo.js', /is a FIFO, not a regular file/]]) {
    assert.match(await refused(['run', file, '--node', 'system', '--out', path.join(tmp, `${file}.json`)]), kind);
  }
  // The same from matrix.yaml, where the FIFO comes after a good suite: refused before loading any.
  fs.writeFileSync(path.join(tmp, 'm.yaml'), 'runtimes: [system]\nsuites: [json, ./fifo.js]\nrun: {processes: 1}\n');
  assert.match(await refused(['matrix', '--matrix', path.join(tmp, 'm.yaml'), '--out', path.join(tmp, 'm.json')]), /fifo\.js is a FIFO/);
});

test('a suite that loops or awaits for ever at load is killed at --timeout and named, exit 2', { timeout: 3 * HANG_GUARD_MS }, async () => {
  fs.writeFileSync(path.join(tmp, 'loops.js'), "'use strict';\nwhile (true) {}\nmodule.exports = { benchmarks: { a: function () {} } };\n");
  // A top-level await on a server that never answers (the interval is the connection keeping it alive).
  fs.writeFileSync(path.join(tmp, 'awaits.mjs'), 'await new Promise(() => { setInterval(() => {}, 1000); });\nexport default { benchmarks: { a() {} } };\n');
  for (const file of ['loops.js', 'awaits.mjs']) {
    const stderr = await refused(['run', file, '--node', 'system', '--timeout', '3', '--out', path.join(tmp, `${file}.json`)]);
    assert.match(stderr, new RegExp(`Suite .*${file.replace('.', '\\.')} hung while loading \\(> 3 s\\), so it was killed`));
  }
});
