// The history store with real result files from real runs: what it keeps, the older schema version,
// every refusal (another host, other suite parameters, an unfinished run, damaged files, a folder
// that is not a store), two writers at once, a writer killed mid-write, names with escape codes,
// and the formats of `history show`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { execa } from 'execa';
import { parse } from 'csv-parse/sync';
import { hostInfo } from '../cli/results/host.js';
import { prng } from '../cli/stats/random.js';
import { synthesize } from '../bench/lib/synthetic-history.js';
import { cliPath, nodebench } from './helpers/cli.js';
import { historyDir, trendRun, variant, history, assertUserError, V1_FILE, TREND_SUITE } from './helpers/history.js';

const dir = historyDir('history-store');
let first;
let second;

test.before(async () => {
  first = await trendRun(dir, 'first');
  second = await trendRun(dir, 'second');
});

const indexFiles = (store) => fs.readdirSync(path.join(store, 'index')).filter((n) => n.endsWith('.json'));
const showJson = async (store, args = []) => {
  const run = await history(['show', '--store', store, '--format', 'json', ...args]);
  assert.equal(run.exitCode, 0, run.stderr);
  return JSON.parse(run.stdout);
};

test('add keeps each result once, compressed byte for byte, with an index entry that show reads', async () => {
  const store = path.join(dir, 'store-basic');
  const added = await history(['add', first, second, '--store', store, '--label', 'v1.0', '--commit', 'abc1234']);
  assert.equal(added.exitCode, 0, added.stderr);
  assert.match(added.stderr, /added .*first\.json to .* as [0-9a-f]{16} \(2 ok cells\)/);
  assert.equal(indexFiles(store).length, 2);
  // The stored copy is the file as it was written.
  const [id] = /as ([0-9a-f]{16})/.exec(added.stderr).slice(1);
  const stored = zlib.brotliDecompressSync(fs.readFileSync(path.join(store, 'results', `${id}.json.br`))).toString('utf8');
  assert.equal(stored, fs.readFileSync(first, 'utf8'));
  const again = await history(['add', first, '--store', store]);
  assert.equal(again.exitCode, 0);
  assert.match(again.stderr, /first\.json is already in .* not added again/);
  assert.equal(indexFiles(store).length, 2);

  const shown = await showJson(store, ['--by', 'date']);
  assert.equal(shown.runs.length, 2);
  assert.deepEqual(shown.runs.map((r) => [r.label, r.commit, r.schemaVersion]), [['v1.0', 'abc1234', 2], ['v1.0', 'abc1234', 2]]);
  assert.deepEqual(shown.series.map((s) => `${s.suite}/${s.benchmark} ${s.flagSet} ${s.line}`), ['trend/steady baseline system', 'trend/sum baseline system']);
  const result = JSON.parse(fs.readFileSync(first, 'utf8'));
  const cell = result.cells.find((c) => c.benchmark === 'sum');
  const point = shown.series[1].points[0];
  assert.equal(point.opsPerSec, cell.summary.opsPerSec);
  assert.ok(point.low < point.opsPerSec && point.opsPerSec < point.high);
  // Across runs, a point's interval is its own widened by the drift between runs.
  assert.ok(point.low <= 1e9 / cell.summary.ci.high && point.high >= 1e9 / cell.summary.ci.low);

  const byVersion = await showJson(store);
  assert.equal(byVersion.series[1].points.length, 1, 'one runtime version: the two runs pooled into one point');
  assert.equal(byVersion.series[1].points[0].runs.length, 2);
});

test('a result file of schemaVersion 1, written by an older nodebench, is migrated and joins the series', async () => {
  const store = path.join(dir, 'store-v1');
  // The fixture was measured on the machine that wrote it; here it stands for an older run of this one.
  const here = hostInfo();
  const old = variant(V1_FILE, dir, 'v1.json', (data) => {
    Object.assign(data.host, { cpuModel: here.cpuModel, cores: here.cores, memoryBytes: here.memoryBytes, os: here.os });
    data.suites[0].file = path.join(TREND_SUITE, 'index.js');
  });
  assert.equal(JSON.parse(fs.readFileSync(old, 'utf8')).schemaVersion, 1);
  const added = await history(['add', old, first, '--store', store]);
  assert.equal(added.exitCode, 0, added.stderr);
  const shown = await showJson(store, ['--by', 'date', '--benchmark', 'sum']);
  assert.deepEqual(shown.runs.map((r) => r.schemaVersion).sort(), [1, 2]);
  assert.equal(shown.series.length, 1, 'same host, suite and parameters: one series');
  assert.equal(shown.series[0].points.length, 2);
  assert.ok(shown.series[0].points.every((p) => p.status === 'ok' && p.opsPerSec > 0));

  // An index entry of an older format is rebuilt from its stored result.
  const [name] = indexFiles(store);
  const file = path.join(store, 'index', name);
  const [head, cells] = fs.readFileSync(file, 'utf8').split('\n');
  fs.writeFileSync(file, `${JSON.stringify({ ...JSON.parse(head), entryVersion: 0 })}\n[]\n`);
  const rebuilt = await showJson(store, ['--by', 'date', '--benchmark', 'sum']);
  assert.deepEqual(rebuilt.series[0].points, shown.series[0].points);
  assert.ok(JSON.parse(cells).length > 0);
});

test('another host or other suite parameters are refused in one sentence unless allowed; each keeps its own series', async () => {
  const store = path.join(dir, 'store-mixing');
  assert.equal((await history(['add', first, '--store', store])).exitCode, 0);
  const elsewhere = variant(first, dir, 'elsewhere.json', (data) => { data.host.cpuModel = 'Other CPU 9000'; data.host.cores = 64; });
  assertUserError(await history(['add', elsewhere, '--store', store]), /elsewhere\.json was measured on another host \(Other CPU 9000, 64 cores, .*\) than the runs in .*; use another --store, or pass --allow-other-host/);
  // A real run of the same suite with another size.
  const otherParams = path.join(dir, 'other-params.json');
  const run = await nodebench(['run', path.join(TREND_SUITE, 'index.js'), '--node', 'system', '--param', 'size=5000', '--processes', '2', '--max-processes', '2', '--samples', '3', '--out', otherParams]);
  assert.equal(run.exitCode, 0, run.stderr);
  assertUserError(await history(['add', otherParams, '--store', store]), /other-params\.json ran suite trend with parameters \{"size":5000\} but the runs in .* used \{"size":4000\}; .*--allow-other-params/);
  assert.equal(indexFiles(store).length, 1, 'nothing was added');

  assert.equal((await history(['add', elsewhere, '--store', store, '--allow-other-host'])).exitCode, 0);
  assert.equal((await history(['add', otherParams, '--store', store, '--allow-other-params'])).exitCode, 0);
  const shown = await history(['show', '--store', store, '--benchmark', 'sum']);
  assert.equal(shown.exitCode, 0, shown.stderr);
  assert.match(shown.stdout, /host [0-9a-f]{12}: Other CPU 9000, 64 cores/);
  const titles = shown.stdout.split('\n').filter((line) => line.startsWith('trend/sum'));
  assert.equal(titles.length, 3, `one series per host and parameter set:\n${titles.join('\n')}`);
  assert.ok(titles.some((t) => /params \{"size":5000\}/.test(t)));
});

test('matrix --history adds the finished run, and refuses a store of another host before measuring', async () => {
  const store = path.join(dir, 'store-matrix');
  const out = await trendRun(dir, 'with-history', { args: ['--history', store] });
  assert.equal(indexFiles(store).length, 1);
  const shown = await showJson(store);
  assert.equal(shown.runs[0].source, path.basename(out));

  const foreign = path.join(dir, 'store-foreign');
  const elsewhere = variant(first, dir, 'elsewhere-2.json', (data) => { data.host.cpuModel = 'Other CPU 9000'; });
  assert.equal((await history(['add', elsewhere, '--store', foreign])).exitCode, 0);
  const started = Date.now();
  const run = await execa(process.execPath, [cliPath, 'matrix', '--matrix', path.join(dir, 'trend.yaml'), '--out', path.join(dir, 'never.json'), '--history', foreign], { reject: false, env: { NO_COLOR: '1' } });
  assertUserError(run, /The history store .*store-foreign holds runs of another host \(Other CPU 9000, .*\), not of this one .*; leave out --history/);
  assert.ok(!fs.existsSync(path.join(dir, 'never.json')), 'refused before measuring');
  assert.ok(Date.now() - started < 20_000);
});

test('damaged or unfinished result files, bad stores and bad options: one sentence, exit 2, nothing added', async () => {
  const store = path.join(dir, 'store-refusals');
  const truncated = path.join(dir, 'truncated.json');
  fs.writeFileSync(truncated, fs.readFileSync(first, 'utf8').slice(0, 5000));
  assertUserError(await history(['add', first, truncated, '--store', store]), /truncated\.json is not valid JSON .*it may be truncated/);
  assert.ok(!fs.existsSync(path.join(store, 'index')) || indexFiles(store).length === 0, 'a batch with a damaged file adds nothing');
  assertUserError(await history(['add', path.join(dir, 'nope.json'), '--store', store]), /nope\.json does not exist/);
  const running = variant(first, dir, 'running.json', (data) => { data.status = 'running'; });
  assertUserError(await history(['add', running, '--store', store]), /running\.json is an unfinished run \(status running\); complete it with its matrix command plus --resume/);
  const notResult = path.join(dir, 'package.json');
  fs.writeFileSync(notResult, '{"name": "x"}');
  assertUserError(await history(['add', notResult, '--store', store]), /is not a nodebench result file/);

  const busy = path.join(dir, 'busy');
  fs.mkdirSync(busy);
  fs.writeFileSync(path.join(busy, 'notes.txt'), 'mine');
  assertUserError(await history(['add', first, '--store', busy]), /busy is not a nodebench history store and is not empty \(it has notes\.txt\); give --store a new or empty folder/);
  assertUserError(await history(['add', first, '--store', first]), /Cannot write the history store .*first\.json \(E[A-Z]+\)/);
  assertUserError(await history(['show', '--store', path.join(dir, 'nowhere')]), /There is no history store at .*nowhere; add result files first: nodebench history add RESULT\.json --store/);

  assert.equal((await history(['add', first, '--store', store])).exitCode, 0);
  const [name] = indexFiles(store);
  const entry = path.join(store, 'index', name);
  const text = fs.readFileSync(entry, 'utf8');
  fs.writeFileSync(entry, text.slice(0, text.length - 40));
  assertUserError(await history(['show', '--store', store]), new RegExp(`History index entry .*${name} is damaged .*; delete it and add its result file again`));
  fs.writeFileSync(entry, text);
  fs.writeFileSync(path.join(store, 'nodebench-history.json'), '{"format": "nodebench-history", "version": 99}');
  assertUserError(await history(['show', '--store', store]), /has format 99, newer than this nodebench understands \(1\); upgrade nodebench/);
  fs.writeFileSync(path.join(store, 'nodebench-history.json'), '{"format": "nodebench-history", "version": 1}');

  assertUserError(await history(['show', '--store', store, '--by', 'commit']), /--by "commit" is not known; use version or date/);
  assertUserError(await history(['show', '--store', store, '--format', 'pdf']), /--format "pdf" is not known; use table, markdown, html, json, csv/);
  assertUserError(await history(['show', '--store', store, '--benchmark', ',']), /--benchmark is empty/);
  assertUserError(await history(['check', '--store', store, '--fail-on-regression', 'lots']), /--fail-on-regression takes a percentage like 5, not "lots"/);
});

test('two, and four, history add at once: every file is added, the store stays whole', async () => {
  const store = path.join(dir, 'store-concurrent');
  const copies = ['a', 'b', 'c', 'd'].map((n) => variant(first, dir, `copy-${n}.json`, (data) => { data.createdAt = `2026-01-0${'abcd'.indexOf(n) + 1}T00:00:00.000Z`; }));
  const pair = await Promise.all(copies.slice(0, 2).map((file) => history(['add', file, '--store', store])));
  for (const run of pair) assert.equal(run.exitCode, 0, run.stderr);
  const four = await Promise.all([...copies.slice(2), copies[0], copies[2]].map((file) => history(['add', file, '--store', store])));
  for (const run of four) assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(four.filter((r) => /not added again/.test(r.stderr)).length, 2, 'the same file twice at once is added once');
  assert.equal(indexFiles(store).length, 4);
  assert.equal((await showJson(store, ['--by', 'date'])).runs.length, 4);
  assert.ok(!fs.existsSync(path.join(store, 'store.lock')), 'the lock is released');
});

test('a history add killed with SIGKILL at any moment leaves a store that reads, and the next add completes it', async (t) => {
  const store = path.join(dir, 'store-killed');
  // A 150-cell result (the trend run's cells cloned, bench/lib/synthetic-history.js): a longer write to hit.
  const template = JSON.parse(fs.readFileSync(first, 'utf8'));
  const big = path.join(dir, 'big.json');
  fs.writeFileSync(big, JSON.stringify(synthesize(template, 0, prng(1)), null, 1));
  assert.equal((await history(['add', first, '--store', store])).exitCode, 0);
  // Kills at random moments, and kills timed from the moment the writer takes the store's lock
  // (its checks and writes come after that).
  const lock = path.join(store, 'store.lock');
  const moments = [{ after: 100 }, { after: 300 }, { after: 600 }, ...[0, 5, 10, 20, 40, 60, 90, 130].map((ms) => ({ locked: ms }))];
  let heldLock = 0;
  for (const moment of moments) {
    const child = execa(process.execPath, [cliPath, 'history', 'add', big, '--store', store], { reject: false });
    if (moment.after !== undefined) {
      await new Promise((resolve) => setTimeout(resolve, moment.after));
    } else {
      while (!fs.existsSync(lock) && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 1));
      await new Promise((resolve) => setTimeout(resolve, moment.locked));
    }
    child.kill('SIGKILL');
    await child;
    if (fs.existsSync(lock)) heldLock++;
    // Whatever the moment: every entry reads, and each has its result file.
    const shown = await history(['show', '--store', store, '--format', 'json']);
    assert.equal(shown.exitCode, 0, `after a kill at ${JSON.stringify(moment)}: ${shown.stderr}`);
    for (const name of indexFiles(store)) assert.ok(fs.existsSync(path.join(store, 'results', name.replace(/\.json$/, '.json.br'))), name);
  }
  t.diagnostic(`${heldLock} of ${moments.length} kills hit a writer holding the lock`);
  assert.ok(heldLock > 0, 'some kills hit the writer while it checked and wrote');
  const finished = await history(['add', big, '--store', store]);
  assert.equal(finished.exitCode, 0, finished.stderr);
  assert.equal(indexFiles(store).length, 2);
  const leftovers = ['results', 'index'].flatMap((sub) => fs.readdirSync(path.join(store, sub)).filter((n) => n.endsWith('.tmp')));
  assert.deepEqual(leftovers, [], 'temporary files of killed writers are removed by the next add');
  const shown = await showJson(store, ['--suite', 'promises', '--benchmark', 'chain-native']);
  assert.equal(shown.series.length, 1, 'the 150-cell run reads back');
  assert.deepEqual(shown.series[0].points.map((p) => p.x), ['4.9.1', '6.17.1', '14.21.3', '16.20.2', '24.21.0']);
});

test('names with escape codes are shown escaped, never sent to the terminal', async () => {
  const store = path.join(dir, 'store-escapes');
  const hostile = variant(first, dir, 'hostile.json', (data) => {
    for (const cell of data.cells) cell.benchmark = `${cell.benchmark}\u001b[31m\u0007`;
  });
  assert.equal((await history(['add', hostile, '--store', store, '--label', 'x\u001b]0;title\u0007'])).exitCode, 0);
  for (const format of ['text', 'md', 'csv', 'html']) {
    const run = await history(['show', '--store', store, '--by', 'date', '--format', format]);
    assert.equal(run.exitCode, 0, run.stderr);
    assert.ok(!run.stdout.includes('\u001b') && !run.stdout.includes('\u0007'), format);
  }
  const text = await history(['show', '--store', store, '--by', 'date']);
  assert.match(text.stdout, /trend\/sum\\x1b\[31m\\x07 \[baseline\]/);
});

test('show as CSV and Markdown: the same points, parseable', async () => {
  const store = path.join(dir, 'store-formats');
  assert.equal((await history(['add', first, second, '--store', store])).exitCode, 0);
  const csv = await history(['show', '--store', store, '--by', 'date', '--format', 'csv']);
  const rows = parse(csv.stdout, { columns: true });
  assert.equal(rows.length, 4, 'two series of two runs');
  for (const row of rows) assert.ok(Number(row.low) < Number(row.opsPerSec) && Number(row.opsPerSec) < Number(row.high));
  const md = await history(['show', '--store', store, '--format', 'markdown']);
  assert.match(md.stdout, /^### nodebench history/m);
  assert.match(md.stdout, /<details><summary>trend: 2 series<\/summary>/);
});
