// Agreement on users' own files: the same tinybench, mitata and bench-node files
// (bench/fixtures/own-code/) run by the library itself and through nodebench (`nodebench run FILE`
// does the same engine call), on the host's Node, where the libraries install. The files: plain
// tasks of ~1, ~10 and ~100 µs of the harness's fixed work (tinybench-work, mitata-work), and the
// forms nodebench times other than by its batch of calls: tinybench beforeEach (per-call timing,
// ~10 and ~100 µs: shorter calls are refused), mitata computed parameters and bench-node's managed
// timer (~1, ~10, ~100 µs). For each, `--rounds` rounds of: the file under its library in a fresh
// process, then one nodebench invocation at the default budget, the order alternating by round.
// Prints, per task, the median over rounds of each side's headline figure (tinybench's latency mean,
// mitata's avg, bench-node's time per operation (1 / ops per second), nodebench's estimate; a median,
// so that one round on a disturbed machine does not decide) and their difference against the 5%
// target (docs/own-code.md, docs/precision.md); then the same for medians (the libraries' p50, the
// median of nodebench's samples), which a disturbed machine moves less than the libraries' means.
//   node bench/agreement-files.js [--rounds 5] [--only tinybench-each,mitata-params,bench-node-timer]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { invokeEngine } from './lib/engine-run.js';
import { cv } from './lib/trial-rates.js';
import { median } from '../cli/stats/basic.js';
import { formatNs, grid } from './lib/figure-table.js';
import { within, pct } from './lib/targets.js';
import { answerHelp, contextLine } from './lib/preamble.js';

answerHelp(import.meta.url);

export const FILE_AGREEMENT_TOLERANCE = 0.05;
const here = path.dirname(fileURLToPath(import.meta.url));
// name -> the library that runs it and the flags its author runs it with (bench-node insists on
// --allow-natives-syntax).
const FILES = {
  'tinybench-work': { tool: 'tinybench', nodeArgs: [] },
  'mitata-work': { tool: 'mitata', nodeArgs: [] },
  'tinybench-each': { tool: 'tinybench', nodeArgs: [] },
  'mitata-params': { tool: 'mitata', nodeArgs: [] },
  'bench-node-timer': { tool: 'bench-node', nodeArgs: ['--allow-natives-syntax'] }
};
const fixture = (name) => path.join(here, 'fixtures', 'own-code', `${name}.mjs`);

// The file as its author runs it: `node FILE`, whose last line is { task: { mean, p50 } } in ns.
async function withLibrary(file, nodeArgs) {
  const child = await execa(process.execPath, [...nodeArgs, file], { reject: false, timeout: 300_000, stdin: 'ignore', env: { NODE_OPTIONS: '' } });
  const line = String(child.stdout || '').trim().split('\n').pop();
  if (child.exitCode !== 0 || !line) throw new Error(`${file} failed (exit ${child.exitCode}): ${String(child.stderr).trim().split('\n').slice(-3).join(' ')}`);
  return JSON.parse(line);
}

async function withNodebench(file, { dir, seed, round, library }) {
  const { cells } = await invokeEngine({ suite: file, run: {}, seed, dir, name: `${library}-${round}` });
  return Object.fromEntries(Object.entries(cells).map(([name, cell]) => [name, { mean: cell.summary.estimate, p50: cell.summary.median }]));
}

export async function fileAgreement({ rounds = 5, seed = 1, only = Object.keys(FILES), log = () => {} } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-agreement-files-'));
  const data = {};
  try {
    for (let round = 0; round < rounds; round++) {
      for (const name of only) {
        const { tool, nodeArgs } = FILES[name];
        const file = fixture(name);
        const steps = [
          ['library', () => withLibrary(file, nodeArgs)],
          ['nodebench', () => withNodebench(file, { dir, seed: seed + round, round, library: name })]
        ];
        if (round % 2) steps.reverse();
        for (const [who, step] of steps) {
          const started = Date.now();
          const figures = await step();
          log(`round ${round + 1}/${rounds} ${name}.mjs, ${who === 'library' ? tool : 'nodebench'}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
          for (const [task, ns] of Object.entries(figures)) {
            const entry = (data[`${name} ${task}`] ||= { tool, file: `${name}.mjs`, task, nodebench: [], library: [] });
            entry[who].push(ns);
          }
        }
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return Object.values(data);
}

// figure: 'mean' (each side's headline) or 'p50'.
export function renderAgreement(rows, figure) {
  return grid(['file', 'task', 'nodebench', 'library', 'difference', 'CV nodebench / library', 'within 5%'], rows.map((r) => {
    const ours = r.nodebench.map((x) => x[figure]);
    const theirs = r.library.map((x) => x[figure]);
    const ratio = median(ours) / median(theirs);
    return [
      r.file, r.task, formatNs(median(ours)), formatNs(median(theirs)),
      `${ratio >= 1 ? '+' : ''}${pct(ratio - 1)}`, `${pct(cv(ours))} / ${pct(cv(theirs))}`, within(ratio, FILE_AGREEMENT_TOLERANCE)
    ];
  }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--rounds');
  const rounds = i > 0 ? Number(process.argv[i + 1]) : 5;
  const o = process.argv.indexOf('--only');
  const only = o > 0 ? process.argv[o + 1].split(',') : Object.keys(FILES);
  const unknown = only.filter((name) => !FILES[name]);
  if (unknown.length) throw new Error(`no agreement file ${unknown.join(', ')}; there are ${Object.keys(FILES).join(', ')}`);
  const started = new Date();
  const rows = await fileAgreement({ rounds, only, log: (m) => process.stderr.write(`${m}\n`) });
  const load = os.loadavg().map((x) => x.toFixed(1)).join(' ');
  console.log(contextLine());
  console.log(`agreement on users' files, Node ${process.version}, ${rounds} rounds, ${started.toISOString()} (${((Date.now() - started) / 60000).toFixed(1)} min, load average at the end ${load})`);
  console.log('headline figures: tinybench latency mean, mitata avg, bench-node 1/ops per second, nodebench estimate (median over rounds; CV over rounds)');
  console.log(renderAgreement(rows, 'mean'));
  console.log('\nmedians: the libraries\' p50, the median of nodebench\'s samples (median over rounds; CV over rounds)');
  console.log(renderAgreement(rows, 'p50'));
}
