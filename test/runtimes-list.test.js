// `runtimes list` says what the cache costs (issue 39: a 1.8 GB cache listed without a size): each
// entry's disk use, as du counts it, the total, and how to prune. Real cache entries, copied.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execa } from 'execa';
import { nodebench } from './helpers/cli.js';
import { privateCache } from './helpers/private-cache.js';

const du = async (dir) => Number((await execa('du', ['-sk', dir])).stdout.split('\t')[0]) * 1024;
const mib = (text) => Number(/([\d.]+) MiB/.exec(text)[1]) * 2 ** 20;

test('runtimes list shows each entry\'s size and the total, with prune advice', { timeout: 180_000 }, async () => {
  const { cache, env } = await privateCache(['4.9.1', '6.17.1'], 'nodebench-list-');
  const list = await nodebench(['runtimes', 'list'], { env });
  assert.equal(list.exitCode, 0, list.stderr);
  const lines = list.stdout.trim().split('\n');
  let total = 0;
  for (const version of ['4.9.1', '6.17.1']) {
    const line = lines.find((l) => l.startsWith(`${version} `));
    const size = await du(path.join(cache, 'runtimes', `${version}-linux-x64`));
    total += size;
    assert.ok(Math.abs(mib(line) - size) <= 0.06 * 2 ** 20, `${line}: du says ${size} bytes`);
  }
  const last = lines.at(-1);
  assert.match(last, new RegExp(`^2 runtimes, [\\d.]+ MiB in ${path.join(cache, 'runtimes').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}; `));
  assert.ok(Math.abs(mib(last) - total) <= 0.11 * 2 ** 20, `${last}: du says ${total}`);
  assert.match(last, /; to free space, nodebench runtimes prune --keep VERSIONS removes all but those \(--dry-run first says what would go\)$/);
  const json = JSON.parse((await nodebench(['runtimes', 'list', '--json'], { env })).stdout);
  assert.ok(json.every((r) => Number.isInteger(r.sizeBytes) && r.sizeBytes > 0));
});
