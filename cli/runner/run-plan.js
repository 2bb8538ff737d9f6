// Runs every pending cell of a result object: launches in the scheduled order, one process at a
// time (parallel processes would compete for the same cores and skew each other), recording each
// process as it finishes and saving the result file after every one.
import path from 'node:path';
import { launchWorker, killAllWorkers } from './launch.js';
import { scheduleLaunches } from './schedule.js';
import { interpretLaunch } from './outcome.js';
import { summarize, warningsFor } from '../stats/summary.js';

function processRecord(round, launched, result) {
  const m = result.measurement;
  return {
    round,
    samplesNsPerOp: m.samplesNsPerOp,
    iterationsPerSample: m.iterationsPerSample,
    calibrationBatches: m.calibrationBatches,
    warmup: m.warmup,
    sampleMs: m.sampleMs,
    cpuNsPerOp: m.cpuNsPerOp,
    cpuMethod: m.cpuMethod,
    memory: result.memory,
    clockResolutionNs: result.clockResolutionNs,
    wallMs: launched.wallMs
  };
}

export function finalizeCell(cell, { interrupted = false, processesPerCell } = {}) {
  if (cell.status !== 'pending') return;
  if (!cell.processes.length) {
    cell.status = 'skipped';
    cell.error = 'not run: the run was interrupted before this cell started';
    return;
  }
  cell.status = 'ok';
  cell.summary = summarize(cell.processes);
  cell.warnings = warningsFor(cell.summary, cell.processes);
  if (interrupted && cell.processes.length < processesPerCell) {
    cell.warnings.push(`interrupted after ${cell.processes.length} of ${processesPerCell} processes; the interval is wider than a full run's.`);
  }
}

// options: { runtimes (label -> runtime), suites (name -> suite), processes, seed, timeoutMs,
//            sampler, save(), progress({ done, total, cell, outcome }), shouldStop() }
export async function runCells(cells, options) {
  const { runtimes, suites, processes, seed, timeoutMs, sampler, save, progress = () => {}, shouldStop = () => false } = options;
  const pending = cells.filter((c) => c.status === 'pending');
  const launches = scheduleLaunches(pending.map((c) => c.id), processes, seed);
  const byId = new Map(cells.map((c) => [c.id, c]));
  let done = 0;
  for (const launch of launches) {
    if (shouldStop()) break;
    const cell = byId.get(launch.cellId);
    done++;
    if (cell.status !== 'pending') {
      progress({ done, total: launches.length, cell, skipped: true });
      continue;
    }
    const suite = suites.get(cell.suite);
    const runtime = runtimes.get(cell.runtimeLabel);
    progress({ done: done - 1, total: launches.length, cell, starting: true, round: launch.round });
    const launched = await launchWorker(runtime.path, cell.flags, {
      mode: 'run', suite: suite.file, benchmark: cell.benchmark, params: suite.params, sampler
    }, { timeoutMs, cwd: path.dirname(suite.file) });
    if (shouldStop()) break;
    const outcome = interpretLaunch(launched, { timeoutMs });
    if (outcome.status === 'ok') {
      cell.benchmarkType = outcome.result.benchmarkType;
      cell.processes.push(processRecord(launch.round, launched, outcome.result));
      if (cell.processes.length === processes) finalizeCell(cell, { processesPerCell: processes });
    } else {
      cell.status = outcome.status;
      cell.error = outcome.error;
      if (outcome.stack) cell.stack = outcome.stack;
    }
    await save();
    progress({ done, total: launches.length, cell, outcome });
  }
  return cells;
}

export { killAllWorkers };
