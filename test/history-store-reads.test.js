// Every file of a history store is looked at before it is read (issue 40, item 10): an
// index/<id>.json or the store's nodebench-history.json replaced by a FIFO made `history show` and
// `history add` wait for ever, `add` holding the store's lock all the while; an index entry that
// links to /dev/zero ended in exit 70. Each is one sentence, exit 2, at once, and the lock is let go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { nodebench, root } from './helpers/cli.js';
import { assertUserError, variant } from './helpers/history.js';

const planted = path.join(root, 'test', 'fixtures', 'planted-result.json');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-store-reads-'));
const second = variant(planted, tmp, 'second.json', (data) => { data.createdAt = '2026-11-25T00:00:00.000Z'; });
// A hang guard only: the refusals take well under a second.
const history = (args) => nodebench(['history', ...args], { timeout: 120_000 });

async function store(name) {
  const dir = path.join(tmp, name);
  const added = await history(['add', planted, '--store', dir]);
  assert.equal(added.exitCode, 0, added.stderr);
  const [entry] = fs.readdirSync(path.join(dir, 'index'));
  return { dir, entry: path.join(dir, 'index', entry), id: entry.replace(/\.json$/, '') };
}

async function refusedByShowAndAdd(dir, pattern) {
  for (const args of [['show', '--store', dir], ['add', second, '--store', dir]]) {
    const run = await history(args);
    assert.equal(run.timedOut, false, `history ${args[0]} waited`);
    assertUserError(run, pattern);
  }
  assert.ok(!fs.existsSync(path.join(dir, 'store.lock')), 'history add left the store locked');
}

test('an index entry that is a FIFO, or a link to /dev/zero, is one sentence for show and add, never a wait', { timeout: 300_000 }, async () => {
  const fifo = await store('index-fifo');
  fs.rmSync(fifo.entry);
  await execa('mkfifo', [fifo.entry]);
  await refusedByShowAndAdd(fifo.dir, /History index entry .*index\/[0-9a-f]+\.json is a FIFO, not a file nodebench wrote; delete it and add its result file again\.$/);

  const zero = await store('index-zero');
  fs.rmSync(zero.entry);
  fs.symlinkSync('/dev/zero', zero.entry);
  await refusedByShowAndAdd(zero.dir, /History index entry .*index\/[0-9a-f]+\.json is a character device, not a file nodebench wrote; delete it and add its result file again\.$/);

  const folder = await store('index-folder');
  fs.rmSync(folder.entry);
  fs.mkdirSync(folder.entry);
  await refusedByShowAndAdd(folder.dir, /History index entry .*index\/[0-9a-f]+\.json is a folder, not a file nodebench wrote/);
});

test('the store\'s marker as a FIFO or a device is one sentence for show and add, never a wait', { timeout: 300_000 }, async () => {
  const fifo = await store('marker-fifo');
  const marker = path.join(fifo.dir, 'nodebench-history.json');
  fs.rmSync(marker);
  await execa('mkfifo', [marker]);
  await refusedByShowAndAdd(fifo.dir, /nodebench-history\.json is a FIFO, not the marker nodebench writes in a history store; restore the store from its copy, or give --store another folder\.$/);
  const zero = await store('marker-zero');
  const zeroMarker = path.join(zero.dir, 'nodebench-history.json');
  fs.rmSync(zeroMarker);
  fs.symlinkSync('/dev/urandom', zeroMarker);
  await refusedByShowAndAdd(zero.dir, /nodebench-history\.json is a character device, not the marker/);
});

test('a stored result that is a FIFO, read to rebuild an older index entry, is one sentence, never a wait', { timeout: 300_000 }, async () => {
  const { dir, entry, id } = await store('stored-fifo');
  // An entry of an older format is rebuilt from its stored result.
  const [head, cells] = fs.readFileSync(entry, 'utf8').split('\n');
  fs.writeFileSync(entry, `${JSON.stringify({ ...JSON.parse(head), entryVersion: 0 })}\n${cells}\n`);
  const stored = path.join(dir, 'results', `${id}.json.br`);
  fs.rmSync(stored);
  await execa('mkfifo', [stored]);
  const run = await history(['show', '--store', dir]);
  assert.equal(run.timedOut, false, 'history show waited');
  assertUserError(run, /The stored result .*results\/[0-9a-f]+\.json\.br is a FIFO, not a file nodebench wrote; delete it and .*index\/[0-9a-f]+\.json, and add the result again\.$/);
});

test('an index entry nested 100,000 deep is one sentence, not a stack overflow', { timeout: 300_000 }, async () => {
  const { dir, entry } = await store('deep-entry');
  const [head] = fs.readFileSync(entry, 'utf8').split('\n');
  const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
  const parsed = JSON.parse(head);
  parsed.suites[0].params = '__DEEP__';
  fs.writeFileSync(entry, `${JSON.stringify(parsed).replace('"__DEEP__"', deep)}\n[]\n`);
  await refusedByShowAndAdd(dir, /History index entry .*index\/[0-9a-f]+\.json nests its values more than 64 deep \(at suites\[0\]\.params\.a\.a\.a…\); delete it and add its result file again\.$/);
});
