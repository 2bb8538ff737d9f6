// How report, diff and merge scale with the number of cells: synthetic result files of 1e4, 1e5 and
// 1e6 cells (half the benchmarks on each of two runtimes, ten suites, three processes of three
// samples per cell, as a --quick-ish run writes them), each command run as a user runs it, its wall
// time and peak memory (GNU time) printed. Files of a million cells are over 512 MB, longer than the
// longest string V8 holds, so that row also measures the streaming reader (results/read.js).
// Usage: node bench/scale.js [--cells 10000,100000,1000000] [--only report,csv,markdown,diff,merge]
//        [--heap MB] [--keep]. The 1e6 row takes ~25 min; its diff reads 2.4 GiB of files and needs
// --heap 8192 (without it, nodebench refuses in one sentence: results/read.js).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { writeResult, SCHEMA_VERSION } from '../cli/results/file.js';
import { streamReadBytes } from '../cli/results/read.js';
import { textTable } from '../cli/text/text-table.js';
import { formatBytes } from '../cli/text/format.js';
import { projectRoot } from '../cli/paths.js';
import { answerHelp, contextLine } from './lib/preamble.js';

answerHelp(import.meta.url);

const COMMANDS = {
  report: (a) => ['report', a],
  csv: (a) => ['report', a, '--format', 'csv'],
  markdown: (a) => ['report', a, '--format', 'markdown'],
  diff: (a, b) => ['diff', a, b],
  merge: (a, b, shards, merged) => ['merge', ...shards, '--out', merged]
};
const { values: args } = parseArgs({
  options: {
    cells: { type: 'string', default: '10000,100000,1000000' }, only: { type: 'string', default: Object.keys(COMMANDS).join(',') },
    heap: { type: 'string' }, keep: { type: 'boolean', default: false }
  }
});
const only = args.only.split(',');
const sizes = args.cells.split(',').map(Number);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-scale-'));
const cli = path.join(projectRoot, 'cli', 'nodebench.js');
const RUNTIMES = ['16.20.2', '20.20.2'];

const runtime = (version) => ({ spec: version, label: version, version, v8: '9.4.146.26-node.26', arch: 'x64', provider: 'npm', sha256: '0'.repeat(64) });

// A deterministic spread of rates, so that ratios, priors and diff verdicts have real work to do.
function cell(id, benchmark, suite, runtimeLabel, scale) {
  const center = 100 * (1 + (id % 97) / 97) * scale;
  const processes = [1, 2, 3].map((round) => ({
    round, iterationsPerSample: 1000, warmup: { batches: 3, ms: 20, stable: true },
    samplesNsPerOp: [0, 1, 2].map((k) => center * (1 + ((id + round * 7 + k * 3) % 11 - 5) / 500))
  }));
  return {
    id, runtime: runtimeLabel, runtimeLabel, flagSet: 'baseline', flags: [], suite, benchmark, status: 'ok', processes,
    summary: { unit: 'ns/op', opsPerSec: 1e9 / center, median: center, mean: center, rme: 1, samples: 9, processes: 3, ci: { level: 0.95, low: center * 0.99, high: center * 1.01, method: 't' } }
  };
}

function result(cells, { shard, scale = 1 } = {}) {
  const list = [];
  for (let i = 0; i < cells; i++) {
    const b = Math.floor(i / RUNTIMES.length);
    if (shard && (b % shard.count) + 1 !== shard.index) continue;
    list.push(cell(list.length, `benchmark-${b}`, `suite-${b % 10}`, RUNTIMES[i % RUNTIMES.length], scale));
  }
  return {
    schemaVersion: SCHEMA_VERSION, nodebench: { version: '0.1.0' }, createdAt: new Date().toISOString(), finishedAt: null, status: 'complete',
    host: { hostname: 'scale', cpuModel: 'synthetic', cores: 2, memoryBytes: 4e9, os: 'linux', kernel: '6.1.0', loadAverageStart: [0, 0, 0] },
    runtimes: RUNTIMES.map(runtime), flagSets: [{ name: 'baseline', flags: [] }],
    suites: Array.from({ length: 10 }, (_, i) => ({ name: `suite-${i}`, file: `suite-${i}.js`, params: {}, benchmarks: [] })),
    run: {}, schedule: { seed: 1, processesPerCell: 3, order: 'shuffled' }, shard, cells: list
  };
}

async function timed(file, data) {
  const started = process.hrtime.bigint();
  await writeResult(file, data);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

// One command as a user runs it: wall seconds and peak RSS, or why it failed.
async function command(commandArgs) {
  const run = await execa('/usr/bin/time', ['-f', '%e %M', process.execPath, cli, ...commandArgs], {
    reject: false, stdout: 'ignore', cwd: dir, env: { NO_COLOR: '1', ...(args.heap ? { NODE_OPTIONS: `--max-old-space-size=${args.heap}` } : {}) }
  });
  const [wall, rssKb] = run.stderr.trim().split('\n').pop().split(' ').map(Number);
  if (run.exitCode !== 0) return `exit ${run.exitCode}: ${(run.stderr.split('\n').find((l) => l.startsWith('nodebench')) || run.stderr.replace(/\s+/g, ' ')).slice(0, 160)}`;
  return `${wall.toFixed(1)} s, ${formatBytes(rssKb * 1024)}`;
}

const rows = [];
for (const n of sizes) {
  const a = path.join(dir, `a-${n}.json`);
  const b = path.join(dir, `b-${n}.json`);
  const writeSeconds = await timed(a, result(n));
  await timed(b, result(n, { scale: 1.02 }));
  const shards = [1, 2].map((index) => path.join(dir, `shard-${index}-${n}.json`));
  for (const [i, file] of shards.entries()) await timed(file, result(n, { shard: { index: i + 1, count: 2 } }));
  const size = fs.statSync(a).size;
  process.stderr.write(`scale: ${n} cells, ${formatBytes(size)} per file (${size > streamReadBytes() ? 'streamed' : 'JSON.parse'}); written in ${writeSeconds.toFixed(1)} s\n`);
  const row = [String(n), formatBytes(size), size > streamReadBytes() ? 'stream' : 'JSON.parse', `${writeSeconds.toFixed(1)} s`];
  for (const name of Object.keys(COMMANDS)) {
    if (!only.includes(name)) {
      row.push('-');
      continue;
    }
    row.push(await command(COMMANDS[name](a, b, shards, path.join(dir, `merged-${n}.json`))));
    process.stderr.write(`scale: ${n} cells: ${name}: ${row.at(-1)}\n`);
  }
  rows.push(row);
  if (!args.keep) for (const file of fs.readdirSync(dir)) fs.rmSync(path.join(dir, file));
}
if (!args.keep) fs.rmSync(dir, { recursive: true, force: true });

process.stdout.write(`${contextLine()}${args.heap ? `, --max-old-space-size=${args.heap}` : ''}\n`);
process.stdout.write(`${textTable([['cells', 'file', 'read by', 'write', 'report (table)', 'report csv', 'report markdown', 'diff A B', 'merge 2 shards'], ...rows]).join('\n')}\n`);
