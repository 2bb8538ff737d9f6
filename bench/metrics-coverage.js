#!/usr/bin/env node
// Two figures about the metrics processes (cli/stats/metrics.js), for docs/precision.md:
//   coverage  how often a cell's 95% interval of a metric holds the estimate of the same cell in a
//             rerun of the same matrix (target: 90% or more). Each ordered pair of runs and each
//             cell and metric with an interval is one trial; a metric whose values are all the same
//             (scavenge-ms is 0 in every process of a workload without scavenges) is counted apart;
//   cost      what the metrics processes of a result file's cells cost, from its own timing
//             processes (the estimate the time budget uses, cli/policy/budget.js), and what a
//             different number of metrics processes or window would add or save.
// node bench/metrics-coverage.js A.json B.json [C.json ...] [--json]
// node bench/metrics-coverage.js --runs 2 [--out-dir DIR] -- MATRIX-ARGS...  (runs `nodebench matrix
//   MATRIX-ARGS --out DIR/run-i.json` that many times first, e.g. -- --runtimes 16 --suites gc)
// node bench/metrics-coverage.js --cost RESULT.json [--suite gc] [--processes 3] [--window-ms 500]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { readResult } from '../cli/results/file.js';
import { METRICS, metricValues, metricInterval } from '../cli/stats/metrics.js';
import { metricsCostMs } from '../cli/policy/budget.js';
import { metricsWanted, metricsDone } from '../cli/policy/policy.js';
import { textTable } from '../cli/text/text-table.js';
import { rate } from './lib/trial-rates.js';
import { rateText, atLeast } from './lib/targets.js';
import { answerHelp, runContext, contextLine } from './lib/preamble.js';

answerHelp(import.meta.url);

const projectRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const TARGET = 0.9;
const cellKey = (c) => [c.suite, c.benchmark, c.runtimeLabel, c.flagSet].join(' / ');

function metricRuns(cell) {
  if (cell.status !== 'ok' || !cell.metrics || cell.metrics.error) return null;
  return cell.metrics.processes || [cell.metrics];
}

// Every (interval run, rerun) ordered pair of files, every cell both have metrics for, every metric:
// { cell, metric, held } or { cell, metric, constant: true }.
export function coverageTrials(results) {
  const trials = [];
  for (const [i, a] of results.entries()) {
    for (const [j, b] of results.entries()) {
      if (i === j) continue;
      const rerun = new Map(b.cells.map((c) => [cellKey(c), c]));
      for (const cell of a.cells) {
        const runsA = metricRuns(cell);
        const runsB = rerun.has(cellKey(cell)) ? metricRuns(rerun.get(cellKey(cell))) : null;
        if (!runsA || !runsB) continue;
        for (const { id } of METRICS) {
          const interval = metricInterval(metricValues(runsA, id));
          const estimate = metricInterval(metricValues(runsB, id))?.estimate;
          if (!interval || interval.low === null || !Number.isFinite(estimate)) continue;
          const valuesA = metricValues(runsA, id);
          if (valuesA.every((v) => v === valuesA[0])) {
            trials.push({ cell: cellKey(cell), metric: id, constant: true });
            continue;
          }
          trials.push({ cell: cellKey(cell), metric: id, held: estimate >= interval.low && estimate <= interval.high });
        }
      }
    }
  }
  return trials;
}

export function coverageSummary(trials) {
  const counted = trials.filter((t) => !t.constant);
  const byMetric = METRICS.map(({ id }) => {
    const own = counted.filter((t) => t.metric === id);
    return { metric: id, ...rate(own.filter((t) => t.held).length, own.length) };
  }).filter((m) => m.n);
  const all = rate(counted.filter((t) => t.held).length, counted.length);
  return { all, byMetric, constant: trials.length - counted.length, cells: new Set(counted.map((t) => t.cell)).size, verdict: atLeast(all, TARGET) };
}

function renderCoverage(summary, files) {
  const rows = summary.byMetric.map((m) => [m.metric, `${m.k}/${m.n}`, `${(m.rate * 100).toFixed(0)}%`, `${(m.ci.low * 100).toFixed(0)}-${(m.ci.high * 100).toFixed(0)}%`]);
  return [
    `metric intervals holding a rerun's estimate: ${rateText(summary.all)}; target >= ${TARGET * 100}%: ${summary.verdict}`,
    `(${summary.cells} cells, ${files.length} runs: ${files.join(', ')}; ${summary.constant} trials left out because every process gave the same value, e.g. no scavenges at all)`,
    ...textTable([['metric', 'held', 'rate', '95% CI'], ...rows], { rightFrom: 1 }),
    ''
  ].join('\n');
}

// What the metrics processes of `suite` cost in this file, and what `processes` of `windowMs` each
// would cost instead: { cells, perProcessMs, nowMs, thenMs, deltaMs, wallMs }.
export function metricsCost(result, { suite, processes, windowMs }) {
  const suites = new Map(result.suites.map((s) => [s.name, s]));
  const cells = result.cells.filter((c) => c.status === 'ok' && (!suite || c.suite === suite) && metricRuns(c));
  const rows = cells.map((cell) => {
    const window = suites.get(cell.suite)?.sampler?.metricsMs ?? result.run.metricsMs;
    const done = metricsDone(cell);
    const now = done * metricsCostMs(cell, window);
    const then = (processes ?? metricsWanted(cell, { run: result.run, suites })) * metricsCostMs(cell, windowMs ?? window);
    return { cell: cellKey(cell), processes: done, windowMs: window, perProcessMs: metricsCostMs(cell, window), nowMs: now, thenMs: then };
  });
  const total = (k) => rows.reduce((s, r) => s + r[k], 0);
  const wallMs = result.finishedAt ? Date.parse(result.finishedAt) - Date.parse(result.createdAt) : null;
  return { rows, nowMs: total('nowMs'), thenMs: total('thenMs'), deltaMs: total('thenMs') - total('nowMs'), wallMs };
}

function renderCost(cost, { processes, windowMs }) {
  const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
  const rows = cost.rows.map((r) => [r.cell, String(r.processes), `${r.windowMs}`, s(r.perProcessMs), s(r.nowMs), s(r.thenMs)]);
  const asked = `${processes ?? 'as the suite asks'} metrics processes, ${windowMs ?? 'the same'} ms window`;
  return [
    ...textTable([['cell', 'metrics processes', 'window ms', 'one process', 'now', `with ${asked}`], ...rows], { rightFrom: 1 }),
    `metrics processes now: ${s(cost.nowMs)}; with ${asked}: ${s(cost.thenMs)} (${cost.deltaMs >= 0 ? '+' : ''}${s(cost.deltaMs)})${cost.wallMs ? `; the run took ${s(cost.wallMs)}` : ''}`,
    '(one metrics process = the median start-up, set-up and warm-up of the cell\'s timing processes + its window, as cli/policy/budget.js estimates it)',
    ''
  ].join('\n');
}

async function runMatrix(runs, outDir, matrixArgs) {
  const files = [];
  for (let i = 1; i <= runs; i++) {
    const out = path.join(outDir, `run-${i}.json`);
    const args = [path.join(projectRoot, 'cli', 'nodebench.js'), 'matrix', ...matrixArgs, '--out', out, '--force'];
    process.stderr.write(`run ${i}/${runs}: node ${args.slice(1).join(' ')}\n`);
    const child = await execa(process.execPath, args, { reject: false, stdin: 'ignore', stdout: 'ignore', stderr: 'inherit', cwd: projectRoot, env: { NODE_OPTIONS: '' } });
    if (!fs.existsSync(out)) throw new Error(`run ${i} wrote no result file (exit ${child.exitCode})`);
    files.push(out);
  }
  return files;
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      runs: { type: 'string' }, 'out-dir': { type: 'string' }, json: { type: 'boolean' },
      cost: { type: 'string' }, suite: { type: 'string' }, processes: { type: 'string' }, 'window-ms': { type: 'string' }
    }
  });
  const context = runContext();
  if (values.cost) {
    const options = {
      suite: values.suite,
      processes: values.processes === undefined ? undefined : Number(values.processes),
      windowMs: values['window-ms'] === undefined ? undefined : Number(values['window-ms'])
    };
    const cost = metricsCost(await readResult(values.cost), options);
    process.stdout.write(values.json ? `${JSON.stringify({ context, ...cost }, null, 2)}\n` : `${contextLine(context)}\n${renderCost(cost, options)}`);
    return;
  }
  let files = positionals;
  if (values.runs) {
    const outDir = values['out-dir'] || fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-coverage-'));
    files = await runMatrix(Number(values.runs), outDir, positionals);
  }
  if (files.length < 2) {
    process.stderr.write('usage: node bench/metrics-coverage.js A.json B.json [...] | --runs N [--out-dir DIR] -- MATRIX-ARGS | --cost RESULT.json [--suite S] [--processes N] [--window-ms MS]\n');
    process.exit(2);
  }
  const summary = coverageSummary(coverageTrials(await Promise.all(files.map((f) => readResult(f)))));
  process.stdout.write(values.json ? `${JSON.stringify({ context, files, ...summary }, null, 2)}\n` : `${contextLine(context)}\n${renderCoverage(summary, files)}`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    process.stderr.write(`${err.message}\n`);
    process.exit(err.exitCode ?? 70);
  });
}
