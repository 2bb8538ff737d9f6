#!/usr/bin/env node
// Issue 36's targets on two result files of the same commit (an A/A across runs, e.g. the two default
// matrices of ../shared/evidence/2026-11-27, the second with the host in a slow mode):
//   between the files   `diff A B --fail-on-regression 5` (the real CLI) passes; cells decided
//                       faster/slower (target <= 2%);
//   within each file    the ratios to the baseline column (the tables' ratios, results/grid.js grid)
//                       of the one file against the other's: decided in both in opposite directions
//                       (target 0) and pairs of 95% intervals that do not overlap (target 0);
//   hosts               each file's host fingerprint (stats/host-speed.js) and B's against A's.
// --rejudge also sets aside, as a run now would, the processes whose reference ran in the host's slow
// mode (stats/disturbance.js against the runtime's fast mode), with no replacements (a real run
// would have replaced them), adjusts for the host covariate where the file's own data keeps it
// (stats/covariate.js), and prints the figures again, with the median cell margin before and after.
//   node bench/host-trust.js A.json B.json [--rejudge]
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { readResult } from '../cli/results/file.js';
import { grid } from '../cli/results/grid.js';
import { judgeCell, finalizeCells } from '../cli/results/cell.js';
import { quietReferences } from '../cli/stats/disturbance.js';
import { hostFingerprint, compareHosts, describeFingerprint } from '../cli/stats/host-speed.js';
import { benchmarkInColumn } from '../cli/cell-identity.js';
import { median } from '../cli/stats/basic.js';
import { answerHelp, log, contextLine } from './lib/preamble.js';

answerHelp(import.meta.url);

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'cli', 'nodebench.js');
const argv = process.argv.slice(2);
const rejudge = argv.includes('--rejudge');
const [fileA, fileB] = argv.filter((a) => !a.startsWith('--'));
if (!fileA || !fileB) throw new Error('usage: node bench/host-trust.js A.json B.json [--rejudge]');

// The file's cells judged again with the run's own rule: set aside, summaries recomputed.
function judgedAgain(result) {
  const cells = result.cells.map((c) => ({ ...c, processes: c.processes.map((p) => ({ ...p })) }));
  const quiet = quietReferences(cells);
  const thresholdPct = result.run.disturbancePct ?? 10;
  for (const cell of cells) {
    if (cell.status !== 'ok' || !cell.processes.some((p) => p.disturbance)) continue;
    judgeCell(cell, quiet, { thresholdPct, cores: result.host.cores });
    cell.status = 'pending';
  }
  finalizeCells(cells, {});
  return { ...result, cells };
}

// benchmark-in-column -> the ratio value of the tables.
function ratios(result) {
  const map = new Map();
  for (const table of grid(result)) {
    for (const row of table.rows) {
      row.values.forEach((value, i) => {
        if (value.ratioComparison) map.set(`${table.suite}/${benchmarkInColumn(row.benchmark, table.columns[i])}`, value);
      });
    }
  }
  return map;
}

const decided = (v) => v === 'faster' || v === 'slower';

function withinRuns(resultA, resultB) {
  const a = ratios(resultA);
  const b = ratios(resultB);
  let both = 0;
  const opposite = [];
  const disjoint = [];
  let common = 0;
  for (const [key, va] of a) {
    const vb = b.get(key);
    if (!vb) continue;
    common++;
    const [ca, cb] = [va.ratioComparison, vb.ratioComparison];
    if (decided(va.ratioVerdict) && decided(vb.ratioVerdict)) {
      both++;
      if (va.ratioVerdict !== vb.ratioVerdict) opposite.push(`${key.replace(/\0/g, ' ')} ${ca.ratio.toFixed(2)}x vs ${cb.ratio.toFixed(2)}x`);
    }
    if (ca.high < cb.low || cb.high < ca.low) disjoint.push(`${key.replace(/\0/g, ' ')} [${ca.low.toFixed(2)}, ${ca.high.toFixed(2)}] vs [${cb.low.toFixed(2)}, ${cb.high.toFixed(2)}]`);
  }
  const decidedIn = (map) => [...map.values()].filter((v) => decided(v.ratioVerdict)).length;
  return { common, decidedA: decidedIn(a), decidedB: decidedIn(b), both, opposite, disjoint };
}

async function betweenFiles(a, b) {
  const run = await execa(process.execPath, [cli, 'diff', a, b, '--fail-on-regression', '5', '--json'], { reject: false });
  if (run.exitCode !== 0 && run.exitCode !== 1) throw new Error(`diff exited ${run.exitCode}: ${run.stderr.slice(-800)}`);
  const diff = JSON.parse(run.stdout);
  const compared = diff.rows.filter((r) => r.comparison);
  const flagged = compared.filter((r) => decided(r.comparison.verdict));
  return { exitCode: run.exitCode, compared: compared.length, flagged: flagged.map((r) => `${r.label} ${r.column} ${((r.comparison.ratio - 1) * 100).toFixed(1)}%`) };
}

function report(title, resultA, resultB, between) {
  const within = withinRuns(resultA, resultB);
  const host = compareHosts(hostFingerprint(resultA.cells), hostFingerprint(resultB.cells));
  console.log(`\n${title}`);
  console.log(`  ${describeFingerprint(hostFingerprint(resultA.cells), path.basename(fileA))}`);
  console.log(`  ${describeFingerprint(hostFingerprint(resultB.cells), path.basename(fileB))}`);
  if (host) console.log(`  B's reference over A's: ${host.ratio.toFixed(3)} (median over ${host.groups} groups)`);
  if (between) {
    console.log(`  diff A B --fail-on-regression 5: exit ${between.exitCode} (target 0); decided ${between.flagged.length} of ${between.compared} (${((100 * between.flagged.length) / between.compared).toFixed(1)}%, target <= 2%)${between.flagged.length ? `: ${between.flagged.join('; ')}` : ''}`);
  }
  const margin = (result) => median(result.cells.filter((c) => c.status === 'ok' && c.summary?.rme !== null).map((c) => c.summary.rme));
  console.log(`  median cell margin: A ±${margin(resultA).toFixed(1)}%, B ±${margin(resultB).toFixed(1)}%`);
  console.log(`  ratios to the baseline column in both files: ${within.common}; decided in A ${within.decidedA}, in B ${within.decidedB}, in both ${within.both}`);
  console.log(`    opposite directions: ${within.opposite.length} (target 0)${within.opposite.length ? `: ${within.opposite.join('; ')}` : ''}`);
  console.log(`    95% intervals that do not overlap: ${within.disjoint.length} (target 0)${within.disjoint.length ? `: ${within.disjoint.join('; ')}` : ''}`);
}

log(`reading ${fileA} and ${fileB}`);
console.log(contextLine());
const [resultA, resultB] = [await readResult(fileA), await readResult(fileB)];
report('as the files are (their processes set aside by the rule of the run that wrote them)', resultA, resultB, await betweenFiles(fileA, fileB));
if (rejudge) {
  report('judged again: processes in the host\'s slow mode set aside (no replacements; between files not re-run)', judgedAgain(resultA), judgedAgain(resultB), null);
}
