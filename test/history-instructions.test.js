// A history store of instruction counts (issue 37, item 2): counted runs are series of their own,
// never pooled with time runs of the same benchmark, shown in instructions per operation (unit and
// column header), and their change points and gate work on counts with the count's repeatability
// as the floor, where time's drift between runs (1% and up) would hide a 1% change. Counts of any
// machine share a series; time from another machine is still refused.
// The counts are a real run (test/fixtures/history/counted-16.json: `nodebench matrix
// --measure instructions --shard i/2` of test/fixtures/suites/counted on Node 16.20.2 under
// valgrind, then `nodebench merge`, 2026-11-27); later runs are copies of it with every count of
// loop-100 raised by 1.2% (a planted change) and a few parts per million of scatter, as processes of
// one benchmark differ under valgrind. The time run is measured here, on the real Node 16.20.2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodebench, root } from './helpers/cli.js';
import { variant, history } from './helpers/history.js';

const COUNTED = path.join(root, 'test', 'fixtures', 'history', 'counted-16.json');
const suite = path.join(root, 'test', 'fixtures', 'suites', 'counted');

// Every count of the cells of `benchmark`, per operation and per batch, times `factor`.
function scaleCounts(data, benchmark, factor) {
  for (const cell of data.cells.filter((c) => c.benchmark === benchmark)) {
    for (const p of cell.processes) {
      p.instructionsPerOp = p.instructionsPerOp.map((x) => x * factor);
      p.instructionsPerSample = p.instructionsPerSample.map((x) => Math.round(x * factor));
    }
    const s = cell.summary;
    for (const k of ['estimate', 'median', 'mean', 'sd', 'min', 'p75', 'p99']) s[k] *= factor;
    for (const interval of [s.ci, s.rerun]) {
      interval.low *= factor;
      interval.high *= factor;
    }
    s.processMedians = s.processMedians.map((x) => x * factor);
  }
}

test('history keeps counts apart from time, shows them in instructions, and finds a 1.2% change in a count', { timeout: 240_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-history-counted-'));
  const store = path.join(dir, 'store');
  const matrix = path.join(dir, 'time.yaml');
  fs.writeFileSync(matrix, `runtimes: [16.20.2]
suites:
  - {name: ${JSON.stringify(suite)}, benchmarks: [loop-100, loop-101]}
run: {processes: 3, maxProcesses: 3, samples: 3, minSampleMs: 2, warmupMinMs: 5, warmupMaxMs: 50, metrics: false, seed: 3}
`);
  const timeFile = path.join(dir, 'time.json');
  const timed = await nodebench(['matrix', '--matrix', matrix, '--out', timeFile]);
  assert.equal(timed.exitCode, 0, timed.stderr);
  const timeResult = JSON.parse(fs.readFileSync(timeFile, 'utf8'));
  // The counted runs, a day before the time run and an hour apart, on the time run's machine.
  const start = Date.parse(timeResult.createdAt) - 24 * 3600e3;
  // The fourth and fifth on other CI runners (another CPU and size): counts of any machine share
  // a series, and the store takes them without --allow-other-host.
  const runner = (n) => ({ ...timeResult.host, hostname: `runner-${n}`, cpuModel: `Other CPU ${n}`, cores: 4 * n });
  const counted = [0, 1, 2, 3, 4, 5].map((i) => variant(COUNTED, dir, `counted-${i}.json`, (data) => {
    data.createdAt = new Date(start + i * 3600e3).toISOString();
    data.finishedAt = new Date(start + i * 3600e3 + 60e3).toISOString();
    data.host = i === 3 || i === 4 ? runner(i) : timeResult.host;
    data.hosts = [data.host];
    for (const cell of data.cells) cell.host = data.host.hostname;
    const jitter = 1 + [3, -2, 1, -4, 2, 0][i] * 1e-6;
    scaleCounts(data, 'loop-100', jitter * (i >= 3 ? 1.012 : 1));
    scaleCounts(data, 'loop-101', jitter);
  }));
  assert.equal((await history(['add', timeFile, ...counted.slice(0, 3), '--store', store])).exitCode, 0);
  const added = await history(['add', ...counted.slice(3), '--store', store]);
  assert.equal(added.exitCode, 0, added.stderr);
  // Time from another machine is still refused: a time series never mixes hosts.
  const otherTime = variant(timeFile, dir, 'time-other.json', (data) => { data.host = runner(3); });
  const refused = await history(['add', otherTime, '--store', store]);
  assert.equal(refused.exitCode, 2);
  assert.match(refused.stderr, /time-other\.json was measured on another host \(Other CPU 3, 12 cores, .*\) than the runs in .*; use another --store, or pass --allow-other-host to keep both \(a time series never mixes hosts; counts of --measure instructions may come from any\)\.$/);

  // By version: per benchmark a time series of the one time run and a count series pooling six runs.
  const json = JSON.parse((await history(['show', '--store', store, '--format', 'json'])).stdout);
  const series = (benchmark, measure) => json.series.filter((s) => s.benchmark === benchmark && s.measure === measure);
  for (const benchmark of ['loop-100', 'loop-101']) {
    const [time] = series(benchmark, 'time');
    const [count] = series(benchmark, 'instructions');
    assert.equal(series(benchmark, 'time').length + series(benchmark, 'instructions').length, 2);
    assert.equal(time.unit, 'ns/op');
    assert.equal(count.unit, 'instructions/op');
    assert.deepEqual(time.points.map((p) => p.runs.length), [1]);
    assert.deepEqual(count.points.map((p) => p.runs.length), [6]);
    assert.equal(count.host, null, 'a count series spans hosts');
    // A count's floor between runs is its repeatability, not time's drift.
    assert.equal(count.drift, 0.0005);
    assert.ok(time.drift >= 0.01, `time drift ${time.drift}`);
  }
  const perOp = series('loop-101', 'instructions')[0].points[0].perOp;
  assert.ok(perOp.value > 800 && perOp.value < 870 && perOp.low < perOp.value && perOp.high > perOp.value, JSON.stringify(perOp));

  // By date: the planted 1.2% in loop-100's count is a change point, new with the newest add; the
  // unchanged loop-101 (a few ppm apart) has none.
  const show = await history(['show', '--store', store, '--by', 'date']);
  assert.equal(show.exitCode, 0, show.stderr);
  assert.match(show.stdout, /series "in instructions": instructions per operation counted under valgrind/);
  const block = (title) => show.stdout.split('\n\n').find((b) => b.startsWith(title));
  const countBlock = block('counted/loop-100 [baseline] on 16.20.2 in instructions\n');
  assert.match(countBlock, /^run\s+runtime\s+instr\/op\s+95% interval\s+change$/m);
  assert.match(countBlock, /\s826\s+8\d\d \.\. 8\d\d/);
  assert.match(countBlock, /\s836\s+8\d\d \.\. 8\d\d\s+v -1\.2% \(95% CI -1\.\d% \.\. -1\.\d%\) NEW/);
  // The time series names its host (the store holds three); the count series spans them.
  assert.match(block(`counted/loop-100 [baseline] on 16.20.2 host ${json.hosts[0].id}\n`), /^run\s+runtime\s+ops\/s\s+95% interval\s+change$/m);
  assert.equal(json.hosts.length, 3);
  assert.doesNotMatch(block('counted/loop-101 [baseline] on 16.20.2 in instructions\n'), /NEW|v -|\^ \+/);
  assert.match(show.stdout, /change points: 1 \(1 new with the newest history add\)/);

  // The gate on counts: a new 1.2% slowdown fails at 1%, passes at 2%.
  const gate = await history(['check', '--store', store, '--by', 'date', '--fail-on-regression', '1']);
  assert.equal(gate.exitCode, 1, gate.stderr);
  assert.match(gate.stderr, /1 benchmark\(s\) have a new change point slower by more than 1%/);
  assert.match(gate.stderr, /counted\/loop-100: \[baseline\] on 16\.20\.2 in instructions, .* -1\.2%/);
  assert.equal((await history(['check', '--store', store, '--by', 'date', '--fail-on-regression', '2'])).exitCode, 0);

  // CSV keeps its columns and adds the unit and the count per operation at the end.
  const csv = (await history(['show', '--store', store, '--format', 'csv'])).stdout.trim().split('\n');
  assert.match(csv[0], /,changeNew,unit,perOp,perOpLow,perOpHigh,arch$/);
  assert.ok(csv.some((line) => /^counted,loop-101,.*,instructions\/op,8\d\d\.\d+,/.test(line)), csv.join('\n'));
  // The HTML page's charts are in the series' unit, time and counts on charts of their own.
  const html = (await history(['show', '--store', store, '--format', 'html'])).stdout;
  assert.match(html, /"unit":"instructions\/op"/);
  assert.match(html, /"unit":"ops\/s"/);
});

// Found by a hostile review (2026-11-29): counts of an arm64 build were pooled with the x64 build's
// in one series, as if one binary. The arm64 file is the real x64 run relabelled (its counts are
// not arm64's): what is checked is that the store keeps the two apart and names each.
test('history keeps counts of different architectures in series of their own, each named by it', { timeout: 60_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-history-arch-'));
  const store = path.join(dir, 'store');
  const x64 = variant(COUNTED, dir, 'x64.json', () => {});
  const arm64 = variant(COUNTED, dir, 'arm64.json', (data) => {
    data.createdAt = new Date(Date.parse(data.createdAt) + 3600e3).toISOString();
    data.finishedAt = new Date(Date.parse(data.finishedAt) + 3600e3).toISOString();
    for (const runtime of data.runtimes) Object.assign(runtime, { arch: 'arm64', sha256: 'f'.repeat(64) });
  });
  const added = await history(['add', x64, arm64, '--store', store]);
  assert.equal(added.exitCode, 0, added.stderr);
  const json = JSON.parse((await history(['show', '--store', store, '--format', 'json'])).stdout);
  const loop = json.series.filter((s) => s.benchmark === 'loop-100');
  assert.deepEqual(loop.map((s) => s.arch).sort(), ['arm64', 'x64']);
  for (const s of loop) assert.deepEqual(s.points.map((p) => p.runs.length), [1], `${s.arch}: one run per series`);
  const show = await history(['show', '--store', store]);
  assert.match(show.stdout, /^counted\/loop-100 \[baseline\] in instructions on arm64$/m);
  assert.match(show.stdout, /^counted\/loop-100 \[baseline\] in instructions on x64$/m);
  const csv = (await history(['show', '--store', store, '--format', 'csv'])).stdout.trim().split('\n');
  assert.deepEqual(csv.filter((line) => line.startsWith('counted,loop-100,')).map((line) => line.split(',').at(-1)).sort(), ['arm64', 'x64']);
  // The HTML page: a chart per architecture, each titled by it, not two "baseline" lines under one title.
  const html = (await history(['show', '--store', store, '--format', 'html'])).stdout;
  const titles = [...html.matchAll(/"title":"(counted\/loop-100[^"]*)"/g)].map((m) => m[1]).sort();
  assert.deepEqual(titles, ['counted/loop-100 in instructions on arm64', 'counted/loop-100 in instructions on x64']);
});
