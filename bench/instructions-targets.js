#!/usr/bin/env node
// Issue 37's targets for counting instructions, through the real CLI:
//
//   node bench/instructions-targets.js planted [--trials 20] [--runtime 24.21.0] [--keep DIR]
//       `trials` runs of a user's file (test/fixtures/suites/instructions-planted, its `steps` loop)
//       with three flag sets, each of two processes under valgrind: baseline, plus1 (1% more loop
//       steps) and plus05 (0.5% more), `--measure instructions`; each trial's diff of plus1 and
//       plus05 against baseline (`nodebench diff --from R/baseline --to R/plusN --equivalence 0.25
//       --json`, the band below the planted change) counted decided slower or not. Targets: 1%
//       decided slower in 20 of 20 trials, 0.5% in at least 19 of 20.
//   node bench/instructions-targets.js aa A.json B.json
//       two instruction-mode result files of the same matrix (e.g. two default matrices, or one run
//       alone and one beside busy loops): `nodebench diff A B --json` counted (target: at least 95%
//       of measurable cells "same", 0 decided faster/slower), and how far each cell's count moved
//       between the files (target: within 0.1%).
// --json prints the figures as JSON.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import YAML from 'yaml';
import { rate } from './lib/trial-rates.js';
import { rateText } from './lib/targets.js';
import { answerHelp, log, runContext, contextLine } from './lib/preamble.js';
import { projectRoot } from '../cli/paths.js';

answerHelp(import.meta.url);

const cli = path.join(projectRoot, 'cli', 'nodebench.js');
const SUITE = path.join(projectRoot, 'test', 'fixtures', 'suites', 'instructions-planted', 'index.js');
const PLANTED = { plus1: { flag: '--title=nodebench-plus1', percent: 1 }, plus05: { flag: '--title=nodebench-plus05', percent: 0.5 } };

async function nodebench(args) {
  const run = await execa(process.execPath, [cli, ...args], { reject: false, stdin: 'ignore', env: { NO_COLOR: '1' } });
  if (run.exitCode !== 0 && run.exitCode !== 1) throw new Error(`nodebench ${args.join(' ')} exited ${run.exitCode}: ${run.stderr.slice(-2000)}`);
  return run;
}

async function plantedTrial(dir, i, runtime) {
  const out = path.join(dir, `t${i}.json`);
  if (!fs.existsSync(out)) {
    const matrix = path.join(dir, `t${i}.yaml`);
    const flagSets = { baseline: [], ...Object.fromEntries(Object.entries(PLANTED).map(([name, { flag }]) => [name, { flags: [flag], suites: ['instructions-planted'] }])) };
    fs.writeFileSync(matrix, YAML.stringify({ runtimes: [runtime], flagSets, suites: [{ name: SUITE, benchmarks: ['steps'] }], run: { measure: 'instructions' } }));
    const started = Date.now();
    await nodebench(['matrix', '--matrix', matrix, '--out', out, '--seed', String(1000 + i)]);
    log(`  t${i}: ${((Date.now() - started) / 60000).toFixed(1)} min`);
  }
  const verdicts = {};
  for (const name of Object.keys(PLANTED)) {
    const diff = JSON.parse((await nodebench(['diff', out, '--from', `${runtime}/baseline`, '--to', `${runtime}/${name}`, '--equivalence', '0.25', '--json'])).stdout);
    const row = diff.rows.find((r) => r.label === 'instructions-planted/steps');
    verdicts[name] = { verdict: row.comparison.verdict, ratio: row.comparison.ratio, low: row.comparison.ci.low, high: row.comparison.ci.high };
  }
  return verdicts;
}

async function plantedMode({ trials, runtime, keep }) {
  const dir = keep || fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-instr-targets-'));
  fs.mkdirSync(dir, { recursive: true });
  const started = Date.now();
  const results = [];
  for (let i = 0; i < trials; i++) {
    log(`trial ${i + 1} of ${trials} (${dir})`);
    results.push(await plantedTrial(dir, i, runtime));
  }
  const figures = Object.fromEntries(Object.entries(PLANTED).map(([name, { percent }]) => {
    const rows = results.map((r) => r[name]);
    return [name, { percent, decidedSlower: rate(rows.filter((r) => r.verdict === 'slower').length, rows.length), ratios: [...new Set(rows.map((r) => r.ratio.toFixed(5)))], widestInterval: Math.max(...rows.map((r) => r.high - r.low)) }];
  }));
  return { ...runContext(), mode: 'planted', runtime, trials, minutes: (Date.now() - started) / 60000, files: dir, figures };
}

function plantedLines(f) {
  return [
    contextLine(f),
    `instructions-planted/steps on ${f.runtime}, ${f.trials} trials of three flag sets x 2 processes under valgrind, diff --equivalence 0.25 (${f.minutes.toFixed(1)} min; files in ${f.files})`,
    ...Object.values(f.figures).map((x) => `${x.percent}% more loop steps: decided slower in ${rateText(x.decidedSlower)} (target: ${x.percent === 1 ? '20 of 20' : 'at least 19 of 20'}); ratios seen ${x.ratios.join(', ')}; widest 95% interval ${(x.widestInterval * 100).toFixed(3)} points`)
  ];
}

async function aaMode([fileA, fileB]) {
  const diff = JSON.parse((await nodebench(['diff', fileA, fileB, '--json'])).stdout);
  const compared = diff.rows.filter((r) => r.comparison);
  const count = (verdict) => compared.filter((r) => r.comparison.verdict === verdict).length;
  const moves = compared.map((r) => ({ label: `${r.label} ${r.column}`, move: Math.abs(r.comparison.ratio - 1) })).sort((x, y) => y.move - x.move);
  return {
    ...runContext(), mode: 'aa', files: [fileA, fileB],
    cells: compared.length, notCompared: diff.rows.length - compared.length,
    same: count('same'), faster: count('faster'), slower: count('slower'), undecided: count('undecided'),
    within01: moves.filter((m) => m.move <= 0.001).length, largestMoves: moves.slice(0, 5)
  };
}

function aaLines(f) {
  const pct = (n) => `${n} of ${f.cells} (${((n / f.cells) * 100).toFixed(1)}%)`;
  return [
    contextLine(f),
    `${f.files[0]} against ${f.files[1]}: ${f.cells} cells compared (${f.notCompared} not: unsupported or failed on a side)`,
    `same ${pct(f.same)} (target: at least 95%), faster ${f.faster}, slower ${f.slower} (target: 0), undecided ${f.undecided}`,
    `counts within 0.1% of the other file's: ${pct(f.within01)}; largest moves: ${f.largestMoves.map((m) => `${m.label} ${(m.move * 100).toFixed(3)}%`).join('; ')}`
  ];
}

async function main() {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { trials: { type: 'string', default: '20' }, runtime: { type: 'string', default: '24.21.0' }, keep: { type: 'string' }, json: { type: 'boolean', default: false } } });
  const [mode, ...files] = positionals;
  let figures;
  let lines;
  if (mode === 'planted') {
    figures = await plantedMode({ trials: Number(values.trials), runtime: values.runtime, keep: values.keep });
    lines = plantedLines(figures);
  } else if (mode === 'aa' && files.length === 2) {
    figures = await aaMode(files);
    lines = aaLines(figures);
  } else {
    process.stderr.write('usage: node bench/instructions-targets.js planted [--trials 20] [--runtime 24.21.0] [--keep DIR] | aa A.json B.json  [--json]\n');
    process.exit(2);
  }
  process.stdout.write(values.json ? `${JSON.stringify(figures, null, 1)}\n` : `${lines.join('\n')}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err.stack}\n`);
  process.exit(70);
});
