#!/usr/bin/env node
// The service suite with its server and load generator pinned to separate cores
// (cli/runner/service-process.js pinServiceCores; NODEBENCH_SERVICE_PINNING=always pins on a busy
// host too) against unpinned (NODEBENCH_SERVICE_PINNING=off),
// invocations alternated so that the host's busy and calm spells fall on both. Per variant: the
// cells' median ±margin, the median spread of process values (log sd), and the widest ratio of a
// cell's slowest to fastest process (two clusters show as a ratio far above 1).
// `node bench/service-pinning.js [--rounds 3] [--processes 4] [--runtimes 16,lts] [--keep DIR]`
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { median, sd } from '../cli/stats/basic.js';
import { keptProcesses, perProcessOf } from '../cli/cell-identity.js';
import { processValue } from '../cli/stats/summary.js';
import { textTable } from '../cli/text/text-table.js';
import { answerHelp, contextLine } from './lib/preamble.js';

answerHelp(import.meta.url);

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const rounds = Number(arg('rounds', 3));
const processes = arg('processes', '4');
const runtimes = arg('runtimes', '16,lts');
const dir = arg('keep', fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-pinning-')));
const cli = new URL('../cli/nodebench.js', import.meta.url).pathname;
const variants = [{ name: 'pinned', env: { NODEBENCH_SERVICE_PINNING: 'always' } }, { name: 'unpinned', env: { NODEBENCH_SERVICE_PINNING: 'off' } }];
const started = new Date();
const load = [];
const figures = new Map(variants.map((v) => [v.name, { margins: [], spreads: [], ranges: [], seconds: 0 }]));
for (let round = 0; round < rounds; round++) {
  for (const variant of round % 2 ? [...variants].reverse() : variants) {
    const out = path.join(dir, `${variant.name}-${round}.json`);
    load.push(os.loadavg()[0]);
    process.stderr.write(`service-pinning: round ${round + 1}/${rounds} ${variant.name} (load ${os.loadavg()[0].toFixed(2)})\n`);
    const t0 = Date.now();
    const run = await execa(process.execPath, [cli, 'matrix', '--suites', 'service', '--runtimes', runtimes, '--processes', processes, '--max-processes', processes, '--out', out, '--force', '--json'],
      { env: variant.env, reject: false, stdout: 'ignore' });
    if (run.exitCode !== 0) throw new Error(`nodebench exited ${run.exitCode}: ${run.stderr.slice(-500)}`);
    const f = figures.get(variant.name);
    f.seconds += (Date.now() - t0) / 1000;
    for (const cell of JSON.parse(fs.readFileSync(out, 'utf8')).cells.filter((c) => c.status === 'ok')) {
      const values = keptProcesses(cell).map((p) => processValue(p, perProcessOf(cell)));
      f.margins.push(cell.summary.rme);
      f.spreads.push(sd(values.map(Math.log)) * 100);
      f.ranges.push(Math.max(...values) / Math.min(...values));
    }
  }
}
load.push(os.loadavg()[0]);
console.log(`Service suite, pinned vs unpinned server and load generator (${started.toISOString()}, ${os.cpus().length} cores ${os.cpus()[0].model}; 1-min load ${Math.min(...load).toFixed(2)}-${Math.max(...load).toFixed(2)})`);
console.log(`${contextLine()}; files in ${dir}\n`);
console.log(textTable([['variant', 'cells', 'margin median', 'margin max', 'process spread median', 'slowest/fastest median', 'max', 'minutes'],
  ...variants.map(({ name }) => {
    const f = figures.get(name);
    return [name, f.margins.length, `±${median(f.margins).toFixed(1)}%`, `±${Math.max(...f.margins).toFixed(1)}%`, `${median(f.spreads).toFixed(1)}%`,
      median(f.ranges).toFixed(2), Math.max(...f.ranges).toFixed(2), (f.seconds / 60).toFixed(1)].map(String);
  })], { rightFrom: 1 }).join('\n'));
