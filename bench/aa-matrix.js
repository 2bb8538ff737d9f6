#!/usr/bin/env node
// Two result files of the same matrix (an A/A: same commit, same machine) judged as a user would:
// `nodebench diff A B --json`, its verdicts counted (faster/slower are false decisions, same is the
// answer wanted), beside how many would be "same" under the rule before 2026-11-24 (the 95%
// interval within ±2%, tests at 2.5%), and per file its wall time, margins (bench/lib/margin-figures.js) and
// the smallest change it states it could detect (schedule.detectableChange, stats/detectable.js).
// Targets (issue 31): <= 2% of cells decided faster/slower, >= 70% decided the same within ±2%.
//   node bench/aa-matrix.js A.json B.json [-- DIFF-ARGS]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { marginFigures } from './lib/margin-figures.js';
import { grid } from '../cli/results/grid.js';
import { detectableChange, describeDetectable } from '../cli/stats/detectable.js';
import { EQUIVALENCE } from '../cli/stats/decision.js';
import { answerHelp, contextLine } from './lib/preamble.js';

answerHelp(import.meta.url);

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'cli', 'nodebench.js');
const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const [fileA, fileB] = dash >= 0 ? argv.slice(0, dash) : argv;
const diffArgs = dash >= 0 ? argv.slice(dash + 1) : [];
if (!fileA || !fileB) throw new Error('usage: node bench/aa-matrix.js A.json B.json [-- DIFF-ARGS]');

const pct = (n, of) => `${n} of ${of} (${of ? ((100 * n) / of).toFixed(1) : '-'}%)`;

function fileLine(file) {
  const result = JSON.parse(fs.readFileSync(file, 'utf8'));
  const { rows, wallSeconds } = marginFigures(result);
  const all = rows.find((r) => r.suite === 'all');
  const detectable = result.schedule.detectableChange ?? detectableChange(grid(result), result.cells);
  const load = [result.host.loadAverageStart?.[0], result.host.loadAverageEnd?.[0]].map((x) => (x === undefined || x === null ? '?' : x.toFixed(2))).join(' -> ');
  return [
    `${path.basename(file)}: ${result.createdAt} - ${result.finishedAt}, ${(wallSeconds / 60).toFixed(1)} min, ${all.cells} ok cells, ${all.processes} processes; 1-min load ${load} on ${result.host.cores} cores (${result.host.cpuModel})`,
    `  margins: median ±${all.margin.median.toFixed(1)}%, p95 ±${all.margin.p95.toFixed(1)}%; ratio margin median ±${all.ratioMargin.median.toFixed(1)}%, p95 ±${all.ratioMargin.p95.toFixed(1)}%`,
    ...rows.filter((r) => r.suite !== 'all').map((r) => `    ${r.suite.padEnd(9)} ${String(r.cells).padStart(3)} cells  median ±${r.margin.median.toFixed(1)}%  p95 ±${r.margin.p95.toFixed(1)}%  ratios ±${(r.ratioMargin.median ?? NaN).toFixed(1)}%  ${r.processes} processes  ${r.timingSeconds.toFixed(0)} timing s`),
    `  ${describeDetectable(detectable)}`
  ].join('\n');
}

const run = await execa(process.execPath, [cli, 'diff', fileA, fileB, '--json', ...diffArgs], { reject: false });
if (run.exitCode !== 0 && run.exitCode !== 1) throw new Error(`diff exited ${run.exitCode}: ${run.stderr.slice(-800)}`);
const diff = JSON.parse(run.stdout);
const compared = diff.rows.filter((r) => r.comparison);
const count = (verdict) => compared.filter((r) => r.comparison.verdict === verdict).length;
const oldSame = compared.filter((r) => r.comparison.ci.low >= 1 - EQUIVALENCE && r.comparison.ci.high <= 1 + EQUIVALENCE).length;
const decided = count('faster') + count('slower');
console.log(contextLine());
console.log(`A/A: nodebench diff ${path.basename(fileA)} ${path.basename(fileB)} ${diffArgs.join(' ')} (${new Date().toISOString()})`);
console.log(fileLine(fileA));
console.log(fileLine(fileB));
console.log(`cells compared: ${compared.length}`);
console.log(`  decided faster/slower: ${pct(decided, compared.length)} (target <= 2%): ${compared.filter((r) => ['faster', 'slower'].includes(r.comparison.verdict)).map((r) => `${r.label} ${r.column} ${((r.comparison.ratio - 1) * 100).toFixed(1)}%`).join('; ') || 'none'}`);
console.log(`  decided same within ±${EQUIVALENCE * 100}%: ${pct(count('same'), compared.length)} (target >= 70%); under the rule before 2026-11-24 (95% interval): ${pct(oldSame, compared.length)}`);
console.log(`  undecided: ${pct(count('undecided'), compared.length)}`);
const bySuite = new Map();
for (const r of compared) {
  const suite = r.label.split('/')[0];
  const s = bySuite.get(suite) || { same: 0, decided: 0, n: 0 };
  s.n++;
  if (r.comparison.verdict === 'same') s.same++;
  if (r.comparison.verdict === 'faster' || r.comparison.verdict === 'slower') s.decided++;
  bySuite.set(suite, s);
}
for (const [suite, s] of bySuite) console.log(`    ${suite.padEnd(9)} same ${pct(s.same, s.n)}, faster/slower ${s.decided}`);
console.log(`  ${diff.verdicts?.text ?? ''}`);
if (diff.drift) console.log(`  drift allowed: ${JSON.stringify(diff.drift).slice(0, 300)}`);
