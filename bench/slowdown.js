#!/usr/bin/env node
// A small slowdown of one column, on one runtime pair and one real suite: is it found, and how
// often is an unchanged column called changed? Each invocation is one `nodebench matrix` of the
// shipped promises suite (bench/fixtures/promises-scaled.js) on two runtimes (`a`, `b`) under three
// flag sets: baseline, `aa` (the same work: an A/A column) and `slower` (every benchmark's work
// scaled by --factor, 2% by default). The run options are the shipped matrix.yaml's (no time budget,
// no metrics processes). Per invocation and runtime, `nodebench diff FILE --from X/baseline --to
// X/slower` and `--to X/aa` as a user would run them: the slower comparisons decided slower are
// detections, the A/A ones decided faster or slower are false positives (decided at diff's false
// discovery rate over the suite's benchmarks, "same" within ±2%).
//
//   node bench/slowdown.js [--invocations 3] [--runtimes 20,22] [--factor 1.02] [--top-up margin|decision] [--processes N] [--pairing duet]
//                          [--keep DIR | --reread DIR] [--json]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import YAML from 'yaml';
import { median } from '../cli/stats/basic.js';
import { textTable } from '../cli/text/text-table.js';
import { rate } from './lib/trial-rates.js';
import { rateText } from './lib/targets.js';
import { answerHelp, log, runContext, contextLine } from './lib/preamble.js';

answerHelp(import.meta.url);

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'cli', 'nodebench.js');
const FIXTURE = path.join(root, 'bench', 'fixtures', 'promises-scaled.js');

function parseArgs(argv) {
  const value = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
  return {
    invocations: Number(value('--invocations', 3)),
    runtimes: value('--runtimes', '20,22').split(','),
    factor: Number(value('--factor', 1.02)),
    topUp: value('--top-up', null),
    pairing: value('--pairing', null),
    // processes per cell instead of the shipped matrix's (no top-ups then: maxProcesses = processes)
    processes: value('--processes', null) === null ? null : Number(value('--processes', null)),
    keep: value('--keep', null),
    reread: value('--reread', null),
    json: argv.includes('--json')
  };
}

function matrixFor({ runtimes: [a, b], factor, topUp, processes, pairing }) {
  const { timeBudgetMin, ...shipped } = YAML.parse(fs.readFileSync(path.join(root, 'matrix.yaml'), 'utf8')).run;
  return {
    runtimes: [{ spec: a, label: 'a' }, { spec: b, label: 'b' }],
    flagSets: { baseline: [], aa: ['--title=nodebench-scale-1'], slower: [`--title=nodebench-scale-${factor}`] },
    suites: [{ name: FIXTURE }],
    run: { ...shipped, metrics: false, baseline: 'a/baseline', ...(topUp ? { topUp } : {}), ...(pairing ? { pairing } : {}), ...(processes ? { processes, maxProcesses: processes } : {}) }
  };
}

async function diffColumns(file, from, to) {
  const run = await execa(process.execPath, [cli, 'diff', file, '--from', from, '--to', to, '--json'], { reject: false });
  if (run.exitCode !== 0 && run.exitCode !== 1) throw new Error(`diff ${from} ${to} exited ${run.exitCode}: ${run.stderr.slice(-1000)}`);
  return JSON.parse(run.stdout).rows.filter((row) => row.comparison).map((row) => ({ benchmark: row.benchmark, ratio: row.comparison.ratio, verdict: row.comparison.verdict }));
}

async function invocationFigures(file) {
  const result = JSON.parse(fs.readFileSync(file, 'utf8'));
  const minutes = (Date.parse(result.finishedAt) - Date.parse(result.createdAt)) / 60000;
  const slower = [];
  const aa = [];
  for (const label of ['a', 'b']) {
    slower.push(...await diffColumns(file, `${label}/baseline`, `${label}/slower`));
    aa.push(...await diffColumns(file, `${label}/baseline`, `${label}/aa`));
  }
  return { minutes, processes: result.cells.reduce((n, c) => n + c.processes.length, 0), slower, aa };
}

export function figures(invocations, factor) {
  const slower = invocations.flatMap((i) => i.slower);
  const aa = invocations.flatMap((i) => i.aa);
  const decided = (r) => r.verdict === 'faster' || r.verdict === 'slower';
  return {
    factor,
    invocations: invocations.length,
    minutes: median(invocations.map((i) => i.minutes)),
    processes: median(invocations.map((i) => i.processes)),
    detected: rate(slower.filter((r) => r.verdict === 'slower').length, slower.length),
    wrongWay: slower.filter((r) => r.verdict === 'faster').length,
    slowerUndecided: slower.filter((r) => r.verdict === 'undecided').length,
    estimatedRatio: median(slower.map((r) => r.ratio)),
    aaDecided: rate(aa.filter(decided).length, aa.length),
    aaSame: aa.filter((r) => r.verdict === 'same').length,
    aaCount: aa.length
  };
}

export function render(f) {
  return textTable([
    ['figure', 'value', 'target'],
    ['invocations', `${f.invocations} (median ${f.minutes.toFixed(1)} min, ${f.processes} processes each)`, '<= 10 min each'],
    [`a ${((f.factor - 1) * 100).toFixed(1)}% slowdown decided slower`, rateText(f.detected), '>= 80%'],
    ['  ... decided faster / undecided', `${f.wrongWay} / ${f.slowerUndecided}`, ''],
    ['  median estimated rate ratio', `${f.estimatedRatio.toFixed(4)} (expected ${(1 / f.factor).toFixed(4)})`, ''],
    ['A/A comparisons decided faster or slower', rateText(f.aaDecided), '<= 5%'],
    ['  A/A comparisons decided same within ±2%', `${f.aaSame} of ${f.aaCount}`, '']
  ]).join('\n');
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const dir = args.reread || args.keep || fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-slowdown-'));
  fs.mkdirSync(dir, { recursive: true });
  const invocations = [];
  for (let i = 0; i < args.invocations; i++) {
    const out = path.join(dir, `invocation-${i}.json`);
    if (!args.reread && !fs.existsSync(out)) {
      const file = path.join(dir, `invocation-${i}.yaml`);
      fs.writeFileSync(file, YAML.stringify(matrixFor(args)));
      log(`invocation ${i + 1}/${args.invocations}, load ${os.loadavg()[0].toFixed(2)}`);
      const run = await execa(process.execPath, [cli, 'matrix', '--matrix', file, '--out', out, '--seed', String(2000 + i)], { stdout: 'ignore', stderr: 'pipe', reject: false });
      if (run.exitCode !== 0) log(`  nodebench matrix exited ${run.exitCode}: ${run.stderr.trim().split('\n').pop()}`);
    }
    if (fs.existsSync(out)) invocations.push(await invocationFigures(out));
  }
  const f = figures(invocations, args.factor);
  const context = runContext();
  process.stdout.write(args.json ? `${JSON.stringify({ context, args, dir, figures: f }, null, 1)}\n` : `${contextLine(context)}\n${render(f)}\n(files in ${dir})\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
