// The one engine behind `nodebench matrix` and `nodebench run`: resolve runtimes, describe suites,
// plan cells, run them, and keep the result file current all along.
import path from 'node:path';
import os from 'node:os';
import { createRequire } from 'node:module';
import { resolveRuntimes, describeSuites, buildPlan } from './matrix/plan.js';
import { selectShard } from './matrix/shard.js';
import { runCells, finalizeCell, killAllChildren } from './runner/run-plan.js';
import { hostInfo, loadWarning, governorWarning } from './results/host.js';
import { writeResult, SCHEMA_VERSION } from './results/file.js';
import { UserError } from './errors.js';

const require = createRequire(import.meta.url);
export const NODEBENCH_VERSION = require('../package.json').version;

// 6 processes per cell detect a 2% difference 80% of the time on a quiet 2-core machine
// (docs/precision.md); 3 processes only about 40%.
export const DEFAULT_RUN = {
  processes: 6,
  maxProcesses: 10,
  targetRme: 5,
  samples: 10,
  minSampleMs: 10,
  warmupMinMs: 50,
  warmupMaxMs: 1000,
  maxSampleMs: 5000,
  timeoutSec: 120,
  metrics: true,
  metricsMs: 1000
};

// A fast look: one process, fewer and shorter samples. Less precise, and the result says so.
export const QUICK_RUN = { processes: 1, maxProcesses: 1, samples: 5, minSampleMs: 5, warmupMinMs: 20, warmupMaxMs: 300, metricsMs: 300 };

function samplerOptions(run) {
  const { samples, minSampleMs, warmupMinMs, warmupMaxMs, maxSampleMs } = run;
  return { samples, minSampleMs, warmupMinMs, warmupMaxMs, maxSampleMs };
}

function toPublicRuntime(r) {
  const { path: binary, installedAt, ...rest } = r;
  return { ...rest, source: rest.source || binary };
}

// matrix: { runtimes, flagSets, suites, run, baseDir }; run options already merged with CLI options.
export async function runMatrix(matrix, { out, progress, command = process.argv.slice(2), refresh = false }) {
  const run = { ...DEFAULT_RUN, ...matrix.run };
  if (run.maxProcesses < run.processes) run.maxProcesses = run.processes;
  if (run.seed === undefined) run.seed = Math.floor(Math.random() * 2 ** 31);
  const log = (m) => progress.log(m);

  const runtimes = await resolveRuntimes(matrix.runtimes, { log, refresh });
  const suites = await describeSuites(matrix.suites, matrix.baseDir);
  const planned = await buildPlan({ runtimes, flagSets: matrix.flagSets, suites, log });
  const cells = matrix.shard ? selectShard(planned, matrix.shard) : planned;
  if (!cells.length) {
    throw new UserError(matrix.shard ? `Shard ${matrix.shard.index}/${matrix.shard.count} has no benchmarks (the matrix has fewer benchmarks than shards); use fewer shards.`
      : 'The matrix selects no benchmarks; check the suites and benchmark filters.');
  }

  const result = {
    schemaVersion: SCHEMA_VERSION,
    nodebench: { version: NODEBENCH_VERSION, command },
    createdAt: new Date().toISOString(),
    finishedAt: null,
    status: 'running',
    host: hostInfo(),
    runtimes: runtimes.map(toPublicRuntime),
    flagSets: matrix.flagSets,
    suites: suites.map((s) => ({
      name: s.name, file: s.file, description: s.description, params: s.params,
      libraries: s.libraries || undefined, metricsTable: s.metricsTable || undefined, benchmarks: s.benchmarks.filter((b) => s.selected.includes(b.name))
    })),
    run,
    shard: matrix.shard || undefined,
    schedule: {
      seed: run.seed,
      processesPerCell: run.processes,
      maxProcessesPerCell: run.maxProcesses,
      targetRme: run.targetRme,
      order: 'shuffled round-robin: every cell once per round, order reshuffled each round; then one more round at a time for cells whose ±margin is above targetRme, up to maxProcesses; then one metrics process per ok cell (shuffled, seed + 1)'
    },
    cells
  };
  result.warnings = [...loadWarning(result.host.loadAverageStart, result.host.cores, 'at the start'), ...governorWarning(result.host.cpuGovernor)];
  for (const warning of result.warnings) log(`warning: ${warning}`);
  const save = () => writeResult(out, result);
  await save();
  const runnable = cells.filter((c) => c.status === 'pending').length;
  log(`${cells.length} cells (${runnable} to run, ${cells.length - runnable} unsupported), ${run.processes} process(es) each; writing ${path.relative(process.cwd(), out) || out}`);

  let interrupted = false;
  const onSignal = (signal) => {
    interrupted = true;
    killAllChildren();
    log(`\n${signal}: stopping; keeping what finished in ${out}`);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await runCells(cells, {
      runtimes: new Map(runtimes.map((r) => [r.label, r])),
      suites: new Map(suites.map((s) => [s.name, s])),
      processes: run.processes,
      maxProcesses: run.maxProcesses,
      targetRme: run.targetRme,
      seed: run.seed,
      timeoutMs: run.timeoutSec * 1000,
      sampler: samplerOptions(run),
      metrics: run.metrics,
      metricsMs: run.metricsMs,
      save,
      progress: (p) => progress.update(p),
      shouldStop: () => interrupted
    });
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    progress.done();
    for (const cell of cells) finalizeCell(cell, { interrupted, processesPerCell: run.processes });
    result.status = interrupted ? 'interrupted' : 'complete';
    result.finishedAt = new Date().toISOString();
    result.host.loadAverageEnd = os.loadavg();
    result.warnings.push(...loadWarning(result.host.loadAverageEnd, result.host.cores, 'at the end'));
    await save();
  }
  return { result, interrupted };
}

export function exitCodeFor(result, interrupted) {
  if (interrupted) return 130;
  return result.cells.some((c) => c.status === 'failed' || c.status === 'timeout') ? 1 : 0;
}
