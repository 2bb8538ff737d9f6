// Big inputs: result files too large for one string are read as a stream (forced here on small
// files with the test hook NODEBENCH_STREAM_READ_BYTES, so that CI needs no 512 MB file; the real
// size is measured by bench/scale.js), and a matrix file far larger than any matrix is refused in
// one sentence without being parsed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { nodebench } from './helpers/cli.js';
import { resultObject, okCell, runtimeRecord } from './helpers/result-file.js';
import { readResult } from '../cli/results/read.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-big-'));
const write = (name, data) => {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, JSON.stringify(data, null, 1));
  return file;
};
const cells = (scale) => ['a', 'b', 'c'].flatMap((benchmark) => ['16.20.2', '20.20.2'].map((label) => okCell(benchmark, 'ok', { runtimeLabel: label, opsPerSec: 1e7 * scale })));
const runtimes = [runtimeRecord('16.20.2'), runtimeRecord('20.20.2')];
const fileA = write('a.json', resultObject(cells(1), { runtimes }));
const fileB = write('b.json', resultObject(cells(1.1), { runtimes }));
const shards = [1, 2].map((index) => write(`shard-${index}.json`, { ...resultObject(cells(1).filter((c, i) => i % 2 === index - 1), { runtimes }), shard: { index, count: 2 } }));

test('report, diff and merge read a file the streaming way exactly as they read it whole', { timeout: 120_000 }, async () => {
  const commands = [['report', fileA], ['report', fileA, '--format', 'csv'], ['report', fileA, '--format', 'markdown'], ['diff', fileA, fileB, '--json'], ['merge', ...shards, '--out']];
  for (const args of commands) {
    const outputs = [];
    for (const hook of [undefined, '0']) {
      const out = args.at(-1) === '--out' ? [path.join(tmp, `merged-${hook}.json`)] : [];
      const run = await nodebench([...args, ...out], { env: hook === undefined ? {} : { NODEBENCH_STREAM_READ_BYTES: hook } });
      assert.equal(run.exitCode, 0, `${args.join(' ')}: ${run.stderr}`);
      outputs.push(out.length ? JSON.parse(fs.readFileSync(out[0], 'utf8')).cells : run.stdout);
    }
    assert.deepEqual(outputs[1], outputs[0], args.join(' '));
  }
});

test('a damaged file read the streaming way is refused in one sentence, as when read whole', async () => {
  const env = { NODEBENCH_STREAM_READ_BYTES: '0' };
  const text = fs.readFileSync(fileA, 'utf8');
  const truncated = path.join(tmp, 'truncated.json');
  fs.writeFileSync(truncated, text.slice(0, text.length / 2));
  const twice = path.join(tmp, 'twice.json');
  fs.writeFileSync(twice, text + text);
  for (const [file, message] of [[truncated, /is not valid JSON \(.*\); it may be truncated/], [twice, /is not valid JSON/], [tmp, /is a directory/], [path.join(tmp, 'none.json'), /does not exist/]]) {
    const run = await nodebench(['report', file], { env });
    assert.equal(run.exitCode, 2, run.stderr);
    assert.match(run.stderr, message);
    assert.doesNotMatch(run.stderr, /\n\s+at |internal error/);
  }
  // In-process too: the streaming reader gives the same object as JSON.parse.
  const whole = await readResult(fileA);
  process.env.NODEBENCH_STREAM_READ_BYTES = '0';
  try {
    assert.deepEqual(await readResult(fileA), whole);
  } finally {
    delete process.env.NODEBENCH_STREAM_READ_BYTES;
  }
});

test('a matrix file far larger than a matrix (50 MB, or a device that never ends) is refused at once in one sentence', { timeout: 60_000 }, async () => {
  const huge = path.join(tmp, 'huge.yaml');
  fs.writeFileSync(huge, 'runtimes: [16]\n');
  fs.truncateSync(huge, 50 * 1024 * 1024);
  for (const file of [huge, '/dev/zero']) {
    const run = await nodebench(['matrix', '--matrix', file]);
    assert.equal(run.exitCode, 2, run.stderr);
    assert.match(run.stderr, new RegExp(`^nodebench: Matrix file ${file} is larger than 256 KiB, far more than a matrix of runtimes, flag sets and suites needs; check that --matrix names the right file\\.$`));
  }
});

test('result files too large for the heap are refused in one sentence before they are read, not by V8\'s abort', { timeout: 60_000 }, async () => {
  const heapFlag = '--max-old-space-size=32';
  const limit = Number((await execa(process.execPath, [heapFlag, '-p', 'v8.getHeapStatistics().heap_size_limit'])).stdout);
  // Padded with a long description: big enough that it, and what a command makes of it, would not fit.
  const padded = path.join(tmp, 'padded.json');
  const data = resultObject(cells(1), { runtimes });
  data.suites[0].description = 'x'.repeat(Math.ceil(limit / 2) + 1024);
  fs.writeFileSync(padded, JSON.stringify(data));
  const run = await nodebench(['report', padded], { env: { NODE_OPTIONS: heapFlag } });
  assert.equal(run.exitCode, 2, run.stderr);
  assert.match(run.stderr, new RegExp(`^nodebench: Reading ${padded} \\(.* MiB\\) needs about .* MiB of memory, more than this Node's heap limit of .* MiB; give Node more with NODE_OPTIONS=--max-old-space-size=\\d+, or pass smaller files\\.$`));
  // With the default heap it is an ordinary file.
  const fits = await nodebench(['report', padded]);
  assert.equal(fits.exitCode, 0, fits.stderr);
});
