#!/usr/bin/env node
// The benchmark of nodebench itself: `npm run bench:harness` (or `nodebench doctor --full`).
// It prints FIGURES, not pass/fail: how often nodebench's diff cries wolf (A/A), how small a change
// it detects (sensitivity), whether its intervals hold a rerun, how it agrees with tinybench and
// mitata and how its spread compares at equal wall time, its overhead, and what a matrix costs.
// Everything is measured on this machine, in one run, experiments interleaved so that load changes
// hit all of them alike: compare the figures as ratios within one run. Results: docs/precision.md.
//
//   node bench/harness.js            full mode (~11 min on a 2-core machine; longer when it is loaded)
//   node bench/harness.js --quick    fewer repetitions (a few minutes)
//   node bench/harness.js --smoke    tiny counts and a short budget: checks the table's shape only
//   --json  figures and raw measurements as JSON on stdout;  --keep  keep every invocation's result file
//   --from RUN.json  render the table of an earlier --json run again (no measuring)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_RUN } from '../cli/engine.js';
import { hostInfo } from '../cli/results/host.js';
import { MODES } from './lib/harness-modes.js';
import { runInterleaved } from './lib/interleave.js';
import { aaExperiment, aaSummary } from './lib/harness-aa.js';
import { sensitivityExperiment, sensitivitySummary, sensitivityRows } from './lib/harness-sensitivity.js';
import { simulatedProcessesFor, simulatedPower } from '../cli/doctor/detectable.js';
import { toolsExperiment, summariseTools } from './lib/harness-agreement.js';
import { costExperiment, costRows } from './lib/harness-cost.js';
import { renderFigures, renderMethods, renderTools } from './lib/figure-table.js';
import { mean } from './lib/trial-rates.js';
import { pct } from './lib/targets.js';
import { answerHelp, log } from './lib/preamble.js';

answerHelp(import.meta.url);

function parseArgs(argv) {
  const known = new Set(['--quick', '--smoke', '--json', '--keep', '--from']);
  const fromAt = argv.indexOf('--from');
  const from = fromAt === -1 ? null : argv[fromAt + 1];
  const bad = argv.find((a, i) => !known.has(a) && !(fromAt !== -1 && i === fromAt + 1));
  if (bad || (fromAt !== -1 && !from)) {
    log(bad ? `bench/harness.js: unknown option ${bad}; use --quick, --smoke, --json, --keep or --from FILE.` : 'bench/harness.js: --from needs the JSON file of an earlier run.');
    process.exit(2);
  }
  const mode = argv.includes('--smoke') ? 'smoke' : argv.includes('--quick') ? 'quick' : 'full';
  return { mode, json: argv.includes('--json'), keep: argv.includes('--keep'), from };
}

// Which processes-per-cell setting detects 2% with 80% power: simulated with nodebench diff's own
// test (cli/doctor/detectable.js) at the pooled process CV of this run's A/A cells, and its cost.
function settingRow(aaFigures, aaPairs, wideSettings) {
  const cvProc = aaFigures.withinInvocationCv;
  const defaultProcesses = DEFAULT_RUN.processes;
  const needed = simulatedProcessesFor(0.02, cvProc);
  const perProcessS = mean(aaPairs.flatMap((p) => p.processWallMs)) / 1000;
  return {
    id: 'setting-2pct',
    figure: 'processes per cell for 2% (projected)',
    value: needed ? `--processes ${needed}: ~${(needed * perProcessS).toFixed(1)} s of timing per cell vs ~${(defaultProcesses * perProcessS).toFixed(1)} s at ${defaultProcesses}` : 'more than 60',
    target: '',
    verdict: `simulated power at ${defaultProcesses}: ${pct(simulatedPower(cvProc, defaultProcesses, 0.02), 0)}`,
    how: `compareCells on simulated cells of n log-normal process medians with CV ${pct(cvProc, 2)} (pooled process CV of this run's A/A cells), 2000 pairs per n; smallest n detecting +2% in 80% of pairs (optimistic: real processes have heavier tails than a log-normal); the rows at --processes ${wideSettings.join(', ')} measure it for real; ${perProcessS.toFixed(2)} s per timing process here`
  };
}

export async function runHarness({ mode = 'full', keep = false } = {}) {
  const counts = MODES[mode];
  const run = counts.run;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-harness-'));
  const host = hostInfo();
  const seed = Math.floor(Math.random() * 2 ** 30);
  const started = new Date();
  log(`harness: ${mode} mode; result files in ${dir}`);

  const aa = aaExperiment({ pairs: counts.aaPairs, run, dir, seed });
  const sens = sensitivityExperiment({ reps: counts.sensitivityReps, run, dir, seed: seed + 100_000 });
  const wide = counts.wide.map((w, i) => ({ processes: w.processes, experiment: sensitivityExperiment({ reps: w.reps, run: { ...run, processes: w.processes }, dir, seed: seed + 200_000 + 1000 * i, withAa: false, variants: w.variants, name: `sensitivity-${w.processes}p` }) }));
  const tools = toolsExperiment({ agreementRuns: counts.agreementRuns, overheadRuns: counts.overheadRuns, run, dir, seed: seed + 300_000, maxToolWallMs: counts.maxToolWallMs });
  const cost = costExperiment({ scope: counts.cost, dir });
  let timing;
  try {
    timing = await runInterleaved([aa, sens, ...wide.map((w) => w.experiment), tools, cost], { log });
  } finally {
    if (!keep) fs.rmSync(dir, { recursive: true, force: true });
  }

  const raw = { aa: aa.results, sensitivity: sens.results, wide: wide.map((w) => ({ processes: w.processes, results: w.experiment.results })), tools: tools.data, cost: cost.figures };
  const report = {
    mode,
    command: `node bench/harness.js${mode === 'full' ? '' : ` --${mode}`}`,
    date: started.toISOString(),
    wallSeconds: timing.seconds,
    loadDuringRun: timing.load1,
    host: { ...host, loadAverageEnd: os.loadavg() },
    node: process.version,
    counts: { ...counts, run: undefined, maxToolWallMs: Number.isFinite(counts.maxToolWallMs) ? counts.maxToolWallMs : null },
    budget: { ...DEFAULT_RUN, ...run, maxProcesses: Math.max(run.maxProcesses ?? DEFAULT_RUN.maxProcesses ?? 0, run.processes ?? DEFAULT_RUN.processes), metrics: false },
    seed,
    raw
  };
  return { ...report, ...analyse(raw) };
}

// Figures and table rows, computed from the raw measurements alone (so that --from can redo them).
export function analyse(raw) {
  const aa = aaSummary(raw.aa);
  const sens = sensitivitySummary(raw.sensitivity);
  const wide = raw.wide.map((w) => ({ processes: w.processes, summary: sensitivitySummary(w.results) }));
  const tools = summariseTools(raw.tools);
  const rows = [
    ...aa.rows,
    ...sensitivityRows(sens),
    ...wide.flatMap((w) => sensitivityRows(w.summary, { label: ` at --processes ${w.processes}` })),
    settingRow(aa.figures, raw.aa, wide.map((w) => w.processes)),
    ...tools.rows,
    ...costRows({ figures: raw.cost })
  ];
  return { rows, figures: { aa: aa.figures, sensitivity: sens.figures, wide: wide.map((w) => ({ processes: w.processes, ...w.summary.figures })), tools: tools.figures, cost: raw.cost } };
}

export function renderHarness(report) {
  const { host, counts, budget } = report;
  const load = (l) => l.map((x) => x.toFixed(2)).join(' ');
  const lines = [
    `nodebench harness benchmark (${report.command}), ${report.date}, ${(report.wallSeconds / 60).toFixed(1)} min`,
    `machine: ${host.cpuModel}, ${host.cores} cores, ${(host.memoryBytes / 2 ** 30).toFixed(1)} GB, ${host.os} ${host.kernel}; governor ${host.cpuGovernor ?? 'not readable'}; load average ${load(host.loadAverageStart)} at start, ${load(host.loadAverageEnd)} at end; 1-min load during the run min ${report.loadDuringRun.min.toFixed(2)} / mean ${report.loadDuringRun.mean.toFixed(2)} / max ${report.loadDuringRun.max.toFixed(2)}; host Node ${report.node}`,
    `budget per cell: ${budget.processes} processes${budget.maxProcesses > budget.processes ? ` (more, up to ${budget.maxProcesses}, while its ±margin is above ${budget.targetRme}%)` : ''} x ${budget.samples} samples of >= ${budget.minSampleMs} ms (warm-up ${budget.warmupMinMs}-${budget.warmupMaxMs} ms)${report.mode === 'smoke' ? ' (SMOKE budget: not the default, figures mean nothing)' : ' (the default budget; metrics processes off)'}`,
    `repetitions: A/A ${counts.aaPairs} pairs; sensitivity ${counts.sensitivityReps} invocations; ${counts.wide.map((w) => `at --processes ${w.processes} ${w.reps} invocations`).join(', ')}; tinybench/mitata ${counts.agreementRuns} estimates per function, empty ${counts.overheadRuns}; cost ${counts.cost}`,
    '',
    renderFigures(report.rows),
    '',
    'how each figure was measured:',
    renderMethods(report.rows),
    '',
    'per tool (agreement, spread, overhead):',
    renderTools(report.figures.tools.byFunction, report.figures.tools.node4),
    ''
  ];
  return lines.join('\n');
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const args = parseArgs(process.argv.slice(2));
  try {
    let report;
    if (args.from) {
      // Render an earlier run again (its --json output) with the current analysis and table code.
      report = JSON.parse(fs.readFileSync(args.from, 'utf8'));
      Object.assign(report, analyse(report.raw));
    } else {
      report = await runHarness(args);
    }
    process.stdout.write(args.json ? `${JSON.stringify(report, null, 1)}\n` : renderHarness(report));
  } catch (err) {
    log(`bench/harness.js: ${err.stack || err.message}`);
    process.exitCode = 1;
  }
}
