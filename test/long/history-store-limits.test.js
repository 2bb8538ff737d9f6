// The history store at its limits: a full disk (a small tmpfs mounted in a temp folder, never the
// system's own devices) is one sentence at once, not a minute's wait on a lock nobody holds; a
// lock left by a writer that is gone (dead pid, or empty) is taken over; a result file is added as a
// stream (the path a file larger than V8's longest string takes), byte for byte. Real runs, real
// mounts; hang-guards only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { constants } from 'node:buffer';
import { execa } from 'execa';
import { cliPath } from '../helpers/cli.js';
import { historyDir, trendRun, assertUserError } from '../helpers/history.js';

const HANG_GUARD_MS = 40_000;
const dir = historyDir('history-limits');
let result;

test.before(async () => {
  result = await trendRun(dir, 'run');
});

const history = (args, env = {}) => execa(process.execPath, [cliPath, 'history', ...args], { reject: false, stdin: 'ignore', env: { NO_COLOR: '1', ...env }, timeout: HANG_GUARD_MS, killSignal: 'SIGKILL' });
const guarded = (run) => {
  assert.ok(!run.timedOut, `nodebench did not finish within ${HANG_GUARD_MS / 1000} s: ${run.stderr.slice(-300)}`);
  return run;
};

test('history add on a full disk is one sentence at once, and leaves no lock behind', { timeout: 3 * HANG_GUARD_MS }, async (t) => {
  const mount = fs.mkdtempSync(path.join(dir, 'tmpfs-'));
  const mounted = await execa('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mount], { reject: false });
  if (mounted.exitCode !== 0) return t.skip(`cannot mount a tmpfs here (${mounted.stderr.trim()}): needs root`);
  t.after(() => execa('umount', ['-l', mount], { reject: false }));
  const store = path.join(mount, 'store');
  // The store exists, then the disk fills up (the case of a CI cache that grew).
  fs.mkdirSync(store);
  fs.writeFileSync(path.join(store, 'nodebench-history.json'), '{"format":"nodebench-history","version":1}\n');
  const filler = path.join(mount, 'filler');
  await execa('dd', ['if=/dev/zero', `of=${filler}`, 'bs=4k'], { reject: false });
  assert.equal(fs.statfsSync(mount).bavail, 0, 'the tmpfs is full');

  const run = guarded(await history(['add', result, '--store', store]));
  assertUserError(run, /^nodebench: Cannot write .*store\.lock: its file system is full \(0 B free in .*store\); free some space or write it elsewhere\.$/);
  assert.deepEqual(fs.readdirSync(store), ['nodebench-history.json'], 'no lock and nothing else left behind');

  // Room for the lock but not for the compressed result: the same, and nothing half-written.
  fs.rmSync(filler);
  const { bavail, bsize } = fs.statfsSync(mount);
  fs.writeFileSync(filler, Buffer.alloc((bavail - 1) * bsize));
  const half = guarded(await history(['add', result, '--store', store]));
  assertUserError(half, /^nodebench: Cannot write .*store\/results\/[0-9a-f]{16}\.json\.br: its file system is full/);
  assert.deepEqual(fs.readdirSync(store).sort(), ['nodebench-history.json', 'results']);
  assert.deepEqual(fs.readdirSync(path.join(store, 'results')), []);

  // With room again the same add works (no lock of the failed one in the way).
  fs.rmSync(filler);
  const again = guarded(await history(['add', result, '--store', store]));
  assert.equal(again.exitCode, 0, again.stderr);
});

test('a lock whose writer is gone, or an empty one, is taken over at once', { timeout: 3 * HANG_GUARD_MS }, async () => {
  const store = path.join(dir, 'stale-lock');
  const gone = execa('true');
  await gone;
  for (const lockText of [JSON.stringify({ pid: gone.pid, startTicks: '1' }), '']) {
    fs.rmSync(store, { recursive: true, force: true });
    fs.mkdirSync(store);
    fs.writeFileSync(path.join(store, 'store.lock'), lockText);
    const run = guarded(await history(['add', result, '--store', store]));
    assert.equal(run.exitCode, 0, run.stderr);
    assert.match(run.stderr, /added .*run\.json/);
    assert.ok(!fs.existsSync(path.join(store, 'store.lock')), 'the lock is released');
  }
});

test('a result file is added as a stream (the way a file over V8\'s longest string is), byte for byte', { timeout: 3 * HANG_GUARD_MS }, async () => {
  const store = path.join(dir, 'streamed');
  // NODEBENCH_STREAM_READ_BYTES=0: results/read.js's test hook that reads every file as a stream.
  const run = guarded(await history(['add', result, '--store', store], { NODEBENCH_STREAM_READ_BYTES: '0' }));
  assert.equal(run.exitCode, 0, run.stderr);
  const [id] = /as ([0-9a-f]{16})/.exec(run.stderr).slice(1);
  const stored = zlib.brotliDecompressSync(fs.readFileSync(path.join(store, 'results', `${id}.json.br`)));
  assert.ok(stored.equals(fs.readFileSync(result)), 'the stored copy is the file byte for byte');
  const index = fs.readFileSync(path.join(store, 'index', `${id}.json`), 'utf8');
  assert.equal(JSON.parse(index.split('\n')[0]).schemaVersion, JSON.parse(fs.readFileSync(result, 'utf8')).schemaVersion);
  const shown = guarded(await history(['show', '--store', store, '--format', 'json']));
  assert.equal(shown.exitCode, 0, shown.stderr);
  assert.equal(JSON.parse(shown.stdout).runs.length, 1);
});

// A complete result file of `bytes` or more, written as a stream: the run's own cells repeated
// under other benchmark names. Larger than V8's longest string, no JSON.parse can read it.
async function bigResult(from, file, bytes) {
  const data = JSON.parse(fs.readFileSync(from, 'utf8'));
  const { cells, ...head } = data;
  const out = fs.createWriteStream(file);
  const write = (text) => (out.write(text) ? null : new Promise((resolve) => out.once('drain', resolve)));
  await write(`${JSON.stringify(head).slice(0, -1)},"cells":[`);
  let written = 0;
  for (let i = 0; written < bytes; i++) {
    const text = `${i ? ',' : ''}${JSON.stringify({ ...cells[i % cells.length], id: i, benchmark: `${cells[i % cells.length].benchmark}-${Math.floor(i / cells.length)}` })}`;
    written += text.length;
    await write(text);
  }
  out.end(']}\n');
  await new Promise((resolve) => out.once('finish', resolve));
}

// Minutes and gigabytes: run with NODEBENCH_SLOW=1 (npm run test:slow).
test('history add of a result file larger than V8\'s longest string is streamed, not a crash', { skip: !process.env.NODEBENCH_SLOW && 'slow: set NODEBENCH_SLOW=1', timeout: 30 * 60_000 }, async (t) => {
  const big = path.join(dir, 'big.json');
  const store = path.join(dir, 'big-store');
  t.after(() => {
    fs.rmSync(big, { force: true });
    fs.rmSync(store, { recursive: true, force: true });
  });
  await bigResult(result, big, Number(process.env.NODEBENCH_BIG_BYTES) || 600 * 2 ** 20);
  assert.ok(fs.statSync(big).size > constants.MAX_STRING_LENGTH);
  const run = await execa(process.execPath, [cliPath, 'history', 'add', big, '--store', store], { reject: false, stdin: 'ignore', env: { NO_COLOR: '1' } });
  assert.equal(run.exitCode, 0, run.stderr);
  const [id] = /as ([0-9a-f]{16})/.exec(run.stderr).slice(1);
  assert.ok(fs.statSync(path.join(store, 'results', `${id}.json.br`)).size > 0);
});

test('an index entry of an older format is rebuilt from its stored result, streamed when large; a damaged one is a sentence', { timeout: 3 * HANG_GUARD_MS }, async () => {
  const store = path.join(dir, 'rebuilt');
  const added = guarded(await history(['add', result, '--store', store]));
  assert.equal(added.exitCode, 0, added.stderr);
  const [id] = /as ([0-9a-f]{16})/.exec(added.stderr).slice(1);
  const entryFile = path.join(store, 'index', `${id}.json`);
  const [head, cells] = fs.readFileSync(entryFile, 'utf8').split('\n');
  // entryVersion 0: older than this nodebench's, so the entry is made again from the result file.
  fs.writeFileSync(entryFile, `${JSON.stringify({ ...JSON.parse(head), entryVersion: 0 })}\n${cells}\n`);
  for (const env of [{}, { NODEBENCH_STREAM_READ_BYTES: '0' }]) {
    const shown = guarded(await history(['show', '--store', store, '--format', 'json'], env));
    assert.equal(shown.exitCode, 0, shown.stderr);
    assert.equal(JSON.parse(shown.stdout).runs[0].id, id);
  }
  const stored = path.join(store, 'results', `${id}.json.br`);
  fs.writeFileSync(stored, zlib.brotliCompressSync(Buffer.from('{"schemaVersion": 2, "cells": [')));
  for (const env of [{}, { NODEBENCH_STREAM_READ_BYTES: '0' }]) {
    const shown = guarded(await history(['show', '--store', store, '--format', 'json'], env));
    assertUserError(shown, new RegExp(`^nodebench: Result file ${stored.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON`));
  }
});
