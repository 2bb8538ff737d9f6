// Fan-out in instruction mode (issue 37, item 6): shards counted on different machines merge, a
// benchmark's columns may come from two of them, and the merged file compares with another run's,
// because no host moves a count. A time shard and a count shard are refused in one sentence, and
// time keeps refusing a benchmark timed on two hosts (test/shard-merge.test.js). Two real shards of
// the counted fixture suite on Node 16.20.2 under real valgrind, one valgrind process at a time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodebench, root } from '../helpers/cli.js';
import { schemaErrors } from '../helpers/schema.js';
import { asTimed } from '../helpers/result-file.js';
import { onPath } from '../../cli/process/host-tools.js';

const suite = path.join(root, 'test', 'fixtures', 'suites', 'counted');

test('instruction shards of different machines merge, and the merged file diffs against another; a time shard with a count shard is refused', { timeout: 900_000, skip: !onPath('valgrind') && 'valgrind is not installed' }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-instr-merge-'));
  const matrix = path.join(dir, 'm.yaml');
  fs.writeFileSync(matrix, `runtimes: [16.20.2]
suites:
  - {name: ${JSON.stringify(suite)}, benchmarks: [loop-100, loop-101]}
run: {measure: instructions, pairing: sequential, seed: 3}
`);
  const shards = [1, 2].map((i) => path.join(dir, `shard-${i}.json`));
  for (const [i, out] of shards.entries()) {
    // The second runner finds its share the way GitLab's parallel jobs say it.
    const shardArgs = i === 0 ? ['--shard', '1/2'] : ['--shard', 'auto'];
    const run = await nodebench(['matrix', '--matrix', matrix, ...shardArgs, '--out', out], { env: i === 0 ? {} : { CI_NODE_INDEX: '2', CI_NODE_TOTAL: '2' } });
    assert.equal(run.exitCode, 0, run.stderr);
  }
  const read = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
  const write = (name, data) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, JSON.stringify(data));
    return file;
  };
  // The second shard as another runner of the pool would have written it: another machine.
  const otherHost = (data) => ({ ...data, host: { ...data.host, hostname: 'other-runner', cpuModel: 'Other CPU @ 3.1GHz', cores: 8 } });
  const [s1, s2] = shards.map(read);
  assert.equal(s1.run.measure, 'instructions');
  const s2Other = write('shard-2-other.json', otherHost(s2));
  const merged = path.join(dir, 'merged.json');
  const run = await nodebench(['merge', shards[0], s2Other, '--out', merged]);
  assert.equal(run.exitCode, 0, run.stderr);
  const result = read(merged);
  assert.deepEqual(schemaErrors(result), []);
  assert.deepEqual(result.hosts.map((h) => h.hostname), [s1.host.hostname, 'other-runner']);
  assert.deepEqual(result.cells.map((c) => `${c.benchmark} ${c.host}`), [`loop-100 ${s1.host.hostname}`, 'loop-101 other-runner']);
  const report = await nodebench(['report', merged, '--no-color']);
  assert.equal(report.exitCode, 0, report.stderr);
  assert.match(report.stdout, /instructions per operation/);

  // The same shards with their machines swapped: every benchmark counted on the other machine.
  const s1Other = write('shard-1-other.json', otherHost(s1));
  const s2Here = write('shard-2-here.json', { ...s2, host: s1.host });
  const swapped = path.join(dir, 'swapped.json');
  assert.equal((await nodebench(['merge', s1Other, s2Here, '--out', swapped])).exitCode, 0);
  const diff = await nodebench(['diff', merged, swapped, '--json', '--fail-on-regression', '1']);
  assert.equal(diff.exitCode, 0, diff.stderr);
  const rows = JSON.parse(diff.stdout).rows;
  assert.deepEqual(rows.map((r) => `${r.label} ${r.comparison.verdict}`), ['counted/loop-100 same', 'counted/loop-101 same']);

  // One benchmark's columns from two machines: refused in time, merged in counts.
  const moved = s1.cells[0];
  const split = write('split-row.json', otherHost({ ...s2, cells: [...s2.cells, { ...moved, flagSet: 'extra' }] }));
  const splitRun = await nodebench(['merge', shards[0], split, '--out', path.join(dir, 'split-merged.json')]);
  assert.equal(splitRun.exitCode, 0, splitRun.stderr);
  const timeSplit = await nodebench(['merge', write('t1.json', asTimed(s1)), write('t2.json', asTimed(read(split))), '--out', path.join(dir, 'refused.json')]);
  assert.equal(timeSplit.exitCode, 2, timeSplit.stderr);
  assert.match(timeSplit.stderr, /counted\/loop-100 has cells from host \S+ \(.*t1\.json\) and host other-runner \(.*t2\.json\); a benchmark's columns must be timed on one machine, so rerun it there, or count instructions \(--measure instructions\), which no host moves\.$/);

  // A time shard beside a count shard: one sentence naming both measures and the fix.
  const timeShard = path.join(dir, 'time-2.json');
  const time = await nodebench(['matrix', '--matrix', matrix, '--measure', 'time', '--quick', '--shard', '2/2', '--out', timeShard]);
  assert.equal(time.exitCode, 0, time.stderr);
  const mixed = await nodebench(['merge', shards[0], timeShard, '--out', path.join(dir, 'refused.json')]);
  assert.equal(mixed.exitCode, 2, mixed.stderr);
  assert.match(mixed.stderr, /time-2\.json measured time \(ns\/op\) but .*shard-1\.json measured instructions \(instructions\/op\); merge only shards of one measure \(run every shard with --measure instructions\)\.$/);
  assert.doesNotMatch(mixed.stderr, /\n\s+at /);
  assert.ok(!fs.existsSync(path.join(dir, 'refused.json')));
});
