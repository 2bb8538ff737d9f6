// Agreement on users' own files: the same tinybench and mitata files (bench/fixtures/own-code/) run
// by the library itself and through nodebench (`nodebench run FILE` does the same engine call),
// on the host's Node, where both libraries install. For each task (~1, ~10, ~100 µs of the
// harness's fixed work), `--rounds` rounds of: the file under its library in a fresh process, then
// one nodebench invocation at the default budget, the order alternating by round. Prints, per task,
// the median over rounds of each side's headline figure (tinybench's latency mean, mitata's avg,
// nodebench's estimate; a median, so that one round on a disturbed machine does not decide) and
// their difference against the 5% target (docs/own-code.md, docs/precision.md); then the same for
// medians (the libraries' p50, the median of nodebench's samples), which a disturbed machine moves
// less than the libraries' means.
//   node bench/agreement-files.js [--rounds 5]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { invokeEngine } from './engine-run.js';
import { cv } from './stats.js';
import { median } from '../cli/stats/basic.js';
import { formatNs, grid } from './table.js';
import { within, pct } from './verdict.js';

export const FILE_AGREEMENT_TOLERANCE = 0.05;
const here = path.dirname(fileURLToPath(import.meta.url));
const FILES = {
  tinybench: path.join(here, 'fixtures', 'own-code', 'tinybench-work.mjs'),
  mitata: path.join(here, 'fixtures', 'own-code', 'mitata-work.mjs')
};

// The file as its author runs it: `node FILE`, whose last line is { task: { mean, p50 } } in ns.
async function withLibrary(file) {
  const child = await execa(process.execPath, [file], { reject: false, timeout: 300_000, stdin: 'ignore', env: { NODE_OPTIONS: '' } });
  const line = String(child.stdout || '').trim().split('\n').pop();
  if (child.exitCode !== 0 || !line) throw new Error(`${file} failed (exit ${child.exitCode}): ${String(child.stderr).trim().split('\n').slice(-3).join(' ')}`);
  return JSON.parse(line);
}

async function withNodebench(file, { dir, seed, round, library }) {
  const { cells } = await invokeEngine({ suite: file, run: {}, seed, dir, name: `${library}-${round}` });
  return Object.fromEntries(Object.entries(cells).map(([name, cell]) => [name, { mean: cell.summary.estimate, p50: cell.summary.median }]));
}

export async function fileAgreement({ rounds = 5, seed = 1, log = () => {} } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-agreement-files-'));
  const data = {};
  try {
    for (let round = 0; round < rounds; round++) {
      for (const [library, file] of Object.entries(FILES)) {
        const steps = [
          ['library', () => withLibrary(file)],
          ['nodebench', () => withNodebench(file, { dir, seed: seed + round, round, library })]
        ];
        if (round % 2) steps.reverse();
        for (const [who, step] of steps) {
          const started = Date.now();
          const figures = await step();
          log(`round ${round + 1}/${rounds} ${library} file, ${who === 'library' ? library : 'nodebench'}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
          for (const [task, ns] of Object.entries(figures)) {
            const entry = (data[`${library} ${task}`] ||= { tool: library, task, nodebench: [], library: [] });
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
      `${r.tool}-work.mjs`, r.task, formatNs(median(ours)), formatNs(median(theirs)),
      `${ratio >= 1 ? '+' : ''}${pct(ratio - 1)}`, `${pct(cv(ours))} / ${pct(cv(theirs))}`, within(ratio, FILE_AGREEMENT_TOLERANCE)
    ];
  }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--rounds');
  const rounds = i > 0 ? Number(process.argv[i + 1]) : 5;
  const started = new Date();
  const rows = await fileAgreement({ rounds, log: (m) => process.stderr.write(`${m}\n`) });
  const load = os.loadavg().map((x) => x.toFixed(1)).join(' ');
  console.log(`agreement on users' files, Node ${process.version}, ${rounds} rounds, ${started.toISOString()} (${((Date.now() - started) / 60000).toFixed(1)} min, load average at the end ${load})`);
  console.log('headline figures: tinybench latency mean, mitata avg, nodebench estimate (median over rounds; CV over rounds)');
  console.log(renderAgreement(rows, 'mean'));
  console.log('\nmedians: the libraries\' p50, the median of nodebench\'s samples (median over rounds; CV over rounds)');
  console.log(renderAgreement(rows, 'p50'));
}
