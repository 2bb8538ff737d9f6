// Runs every pending cell of a result object: launches in the scheduled order, one process at a
// time (parallel processes would compete for the same cores and skew each other), recording each
// process as it finishes and saving the result file after every one.
import path from 'node:path';
import { launchWorker, killAllWorkers } from './launch.js';
import { scheduleLaunches, shuffle, prng } from './schedule.js';
import { parseTraceGc, gcSummary } from './gc-trace.js';
import { interpretLaunch } from './outcome.js';
import { summarize, warningsFor } from '../stats/summary.js';
import { runServiceLaunch, killAllServiceWorkers } from './service.js';
import { processRecord } from './process-record.js';
import { summarizeService } from '../stats/service.js';

export function finalizeCell(cell, { interrupted = false, processesPerCell } = {}) {
  if (cell.status !== 'pending') return;
  if (!cell.processes.length) {
    cell.status = 'skipped';
    cell.error = 'not run: the run was interrupted before this cell started';
    return;
  }
  cell.status = 'ok';
  cell.summary = summarize(cell.processes);
  if (cell.processes[0].service) cell.service = summarizeService(cell.processes);
  cell.warnings = warningsFor(cell.summary, cell.processes);
  if (interrupted && cell.processes.length < processesPerCell) {
    cell.warnings.push(`interrupted after ${cell.processes.length} of ${processesPerCell} processes; the interval is wider than a full run's.`);
  }
}

// One metrics process per cell, after its timing processes: --trace-gc and the event-loop probe
// would distort timing samples, so they never run in a timing process.
async function runMetrics(cell, runtime, suite, { timeoutMs, sampler, metricsMs }) {
  const launched = await launchWorker(runtime.path, [...cell.flags, '--trace-gc'], {
    mode: 'metrics', suite: suite.file, benchmark: cell.benchmark, params: suite.params,
    sampler: { ...sampler, samples: 1e9, maxSampleMs: metricsMs }
  }, { timeoutMs, cwd: path.dirname(suite.file), collectStdout: true });
  const report = launched.messages.find((m) => m.type === 'metrics');
  if (!report) {
    const outcome = interpretLaunch(launched, { timeoutMs });
    return { error: `the metrics process ${outcome.status === 'timeout' ? 'timed out' : 'failed'}: ${outcome.error}` };
  }
  const { type, benchmarkType, window, ...figures } = report;
  return {
    ...figures,
    windowMs: window.endUptimeMs - window.startUptimeMs,
    gc: gcSummary(parseTraceGc(launched.stdout), { startMs: window.startUptimeMs, endMs: window.endUptimeMs })
  };
}

async function launchMicro(runtime, cell, suite, { sampler, timeoutMs }) {
  const launched = await launchWorker(runtime.path, cell.flags, {
    mode: 'run', suite: suite.file, benchmark: cell.benchmark, params: suite.params, sampler
  }, { timeoutMs, cwd: path.dirname(suite.file) });
  return { ...interpretLaunch(launched, { timeoutMs }), wallMs: launched.wallMs };
}

// options: { runtimes (label -> runtime), suites (name -> suite), processes, seed, timeoutMs,
//            sampler, metrics, metricsMs, save(), progress({ done, total, cell, outcome }), shouldStop() }
export async function runCells(cells, options) {
  const { runtimes, suites, processes, seed, timeoutMs, sampler, save, progress = () => {}, shouldStop = () => false } = options;
  const pending = cells.filter((c) => c.status === 'pending');
  const launches = scheduleLaunches(pending.map((c) => c.id), processes, seed);
  if (options.metrics) {
    // Service cells measure CPU and memory of the service during the load itself.
    const micro = pending.filter((c) => !suites.get(c.suite).service).map((c) => c.id);
    for (const cellId of shuffle(micro, prng(seed + 1))) launches.push({ cellId, round: processes, metrics: true });
  }
  const byId = new Map(cells.map((c) => [c.id, c]));
  let done = 0;
  for (const launch of launches) {
    if (shouldStop()) break;
    const cell = byId.get(launch.cellId);
    done++;
    const suite = suites.get(cell.suite);
    const runtime = runtimes.get(cell.runtimeLabel);
    if (launch.metrics && cell.status === 'ok') {
      progress({ done: done - 1, total: launches.length, cell, starting: true, round: launch.round });
      cell.metrics = await runMetrics(cell, runtime, suite, { timeoutMs, sampler, metricsMs: options.metricsMs });
      await save();
      progress({ done, total: launches.length, cell, outcome: { status: 'ok' } });
      continue;
    }
    if (cell.status !== 'pending' || launch.metrics) {
      progress({ done, total: launches.length, cell, skipped: true });
      continue;
    }
    progress({ done: done - 1, total: launches.length, cell, starting: true, round: launch.round });
    const outcome = suite.service
      ? await runServiceLaunch(runtime.path, cell.flags, { suiteFile: suite.file, benchmark: cell.benchmark, params: suite.params }, { timeoutMs, cwd: path.dirname(suite.file) })
      : await launchMicro(runtime, cell, suite, { sampler, timeoutMs });
    if (shouldStop()) break;
    if (outcome.status === 'ok') {
      cell.benchmarkType = outcome.result.benchmarkType;
      cell.processes.push(processRecord(launch.round, outcome.result, outcome.wallMs));
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

export function killAllChildren() {
  killAllWorkers();
  killAllServiceWorkers();
}
