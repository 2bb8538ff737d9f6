#!/usr/bin/env node
// How processes should share the machine and where extra processes should go, measured side by
// side on one slice, the modes interleaved round by round so that a calmer or busier hour of the
// host falls on all of them:
//   pairing   sequential (one process at a time) / duet (a row's baseline and one other cell at
//             once, one per core, compared as pairs) / concurrent (two unrelated processes at once);
//   topUp     margin (extra processes for cells above targetRme) / decision (for ratios undecided).
// One matrix per run: a runtime as the baseline column `a`, the same runtime again as `a2` (A/A: any
// ratio a2/a that is decided faster or slower is a false positive), and a second runtime `b`.
// Printed per variant: wall minutes, the median ±margin of the b/a ratios, that margin scaled to one
// minute of the variant's wall time (margin x sqrt(minutes): lower is more precision per minute,
// comparable across variants because a margin narrows with the square root of processes), the
// minutes the variant would need for ±3% ratios, and the A/A ratios decided (false positives).
//
//   node bench/pairing-modes.js [--rounds 3] [--runtimes 20,22] [--suites promises] [--variants seq-margin,duet-margin,...]
//                         [--keep DIR] [--reread DIR] [--json]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import YAML from 'yaml';
import { grid } from '../cli/results/grid.js';
import { median } from '../cli/stats/basic.js';
import { textTable } from '../cli/text/text-table.js';
import { answerHelp, log, runContext, contextLine } from './lib/preamble.js';

answerHelp(import.meta.url);

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'cli', 'nodebench.js');

export const VARIANTS = {
  'seq-margin': { pairing: 'sequential', topUp: 'margin' },
  'duet-margin': { pairing: 'duet', topUp: 'margin' },
  'concurrent-margin': { pairing: 'concurrent', topUp: 'margin' },
  'seq-decision': { pairing: 'sequential', topUp: 'decision' },
  'duet-decision': { pairing: 'duet', topUp: 'decision' }
};

function parseArgs(argv) {
  const value = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
  return {
    rounds: Number(value('--rounds', 3)),
    runtimes: value('--runtimes', '20,22').split(','),
    suites: value('--suites', 'promises').split(','),
    variants: value('--variants', Object.keys(VARIANTS).join(',')).split(','),
    keep: value('--keep', null),
    reread: value('--reread', null),
    json: argv.includes('--json')
  };
}

function matrixFor([a, b], suites, variant) {
  return {
    runtimes: [{ spec: a, label: 'a' }, { spec: a, label: 'a2' }, { spec: b, label: 'b' }],
    flagSets: { baseline: [] },
    suites,
    run: { processes: 4, maxProcesses: 7, targetRme: 3, metrics: false, baseline: 'a/baseline', ...VARIANTS[variant] }
  };
}

// What one result file says: wall minutes, the b/a ratio margins, the a2/a verdicts.
export function runFigures(result) {
  const minutes = (Date.parse(result.finishedAt) - Date.parse(result.createdAt)) / 60000;
  const ratios = { b: [], a2: [] };
  for (const table of grid(result, { baseline: 'a/baseline' })) {
    table.columns.forEach((col, i) => {
      if (col.runtimeLabel === 'a') return;
      for (const row of table.rows) {
        const v = row.values[i];
        if (v.status === 'ok' && Number.isFinite(v.ratioRme)) ratios[col.runtimeLabel].push({ rme: v.ratioRme, verdict: v.ratioVerdict });
      }
    });
  }
  return {
    minutes,
    ratioMargin: median(ratios.b.map((r) => r.rme)),
    aaRatios: ratios.a2.length,
    aaDecided: ratios.a2.filter((r) => r.verdict === 'faster' || r.verdict === 'slower').length,
    aaMargin: median(ratios.a2.map((r) => r.rme)),
    processes: result.cells.reduce((n, c) => n + c.processes.length, 0)
  };
}

export function summarize(byVariant) {
  return Object.entries(byVariant).map(([variant, runs]) => {
    const minutes = median(runs.map((r) => r.minutes));
    const margin = median(runs.map((r) => r.ratioMargin));
    const aaRatios = runs.reduce((n, r) => n + r.aaRatios, 0);
    const aaDecided = runs.reduce((n, r) => n + r.aaDecided, 0);
    return {
      variant, runs: runs.length, minutes, ratioMargin: margin,
      marginPerMinute: margin * Math.sqrt(minutes),
      minutesFor3: minutes * (margin / 3) ** 2,
      aaRatios, aaDecided, aaRate: aaRatios ? aaDecided / aaRatios : NaN,
      aaMargin: median(runs.map((r) => r.aaMargin))
    };
  });
}

export function render(rows) {
  const f = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '-');
  const header = ['variant', 'runs', 'minutes', 'b/a ratio margin', 'margin x sqrt(min)', 'minutes for ±3%', 'A/A decided', 'A/A margin'];
  return textTable([header, ...rows.map((r) => [r.variant, String(r.runs), f(r.minutes), `±${f(r.ratioMargin)}%`, f(r.marginPerMinute), f(r.minutesFor3), `${r.aaDecided} of ${r.aaRatios} (${f(100 * r.aaRate, 0)}%)`, `±${f(r.aaMargin)}%`])], { rightFrom: 1 }).join('\n');
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const dir = args.reread || args.keep || fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-pairing-'));
  fs.mkdirSync(dir, { recursive: true });
  const byVariant = Object.fromEntries(args.variants.map((v) => [v, []]));
  for (let round = 0; round < args.rounds; round++) {
    for (const variant of args.variants) {
      const out = path.join(dir, `${variant}-${round}.json`);
      if (!args.reread) {
        const file = path.join(dir, `${variant}-${round}.yaml`);
        fs.writeFileSync(file, YAML.stringify(matrixFor(args.runtimes, args.suites, variant)));
        log(`round ${round + 1}/${args.rounds} ${variant}`);
        await execa(process.execPath, [cli, 'matrix', '--matrix', file, '--out', out, '--force', '--seed', String(1000 + round)], { stdout: 'ignore', stderr: 'ignore', reject: false });
      }
      if (fs.existsSync(out)) byVariant[variant].push(runFigures(JSON.parse(fs.readFileSync(out, 'utf8'))));
    }
  }
  const rows = summarize(byVariant);
  const context = runContext();
  process.stdout.write(args.json ? `${JSON.stringify({ context, args, dir, rows }, null, 1)}\n` : `${contextLine(context)}\n${render(rows)}\n(files in ${dir})\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
