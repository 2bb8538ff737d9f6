// Runs every pending cell of a result object: launches in the scheduled order, one process at a
// time (parallel processes would compete for the same cores and skew each other), recording each
// process as it finishes and saving the result file after every one.
import path from 'node:path';
import { launchWorker } from './launch.js';
import { killAllGroups } from './process-group.js';
import { scheduleLaunches, shuffle, prng } from './schedule.js';
import { parseTraceGc, gcSummary } from './gc-trace.js';
import { interpretLaunch } from './outcome.js';
import { summarize, warningsFor } from '../stats/summary.js';
import { runServiceLaunch } from './service.js';
import { processRecord } from './process-record.js';
import { summarizeService } from '../stats/service.js';

export function finalizeCell(cell, { interrupted = false, processesPerCell, targetRme = null } = {}) {
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
  if (targetRme && cell.summary.rme > targetRme) {
    cell.warnings.push(`the ±${cell.summary.rme.toFixed(1)}% margin is above the ${targetRme}% target after ${cell.processes.length} processes (run.maxProcesses); the machine is noisy or the benchmark varies from process to process.`);
  }
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

// One timing launch of a cell: a worker process (or a service under load), recorded on the cell.
async function timingLaunch(cell, launch, ctx) {
  const { suites, runtimes, sampler, timeoutMs } = ctx;
  const suite = suites.get(cell.suite);
  const runtime = runtimes.get(cell.runtimeLabel);
  const outcome = suite.service
    ? await runServiceLaunch(runtime.path, cell.flags, { suiteFile: suite.file, benchmark: cell.benchmark, params: suite.params }, { timeoutMs, cwd: path.dirname(suite.file) })
    : await launchMicro(runtime, cell, suite, { sampler, timeoutMs });
  if (ctx.shouldStop()) return null;
  if (outcome.status === 'ok') {
    cell.benchmarkType = outcome.result.benchmarkType;
    cell.processes.push(processRecord(launch.round, outcome.result, outcome.wallMs));
  } else {
    cell.status = outcome.status;
    cell.error = outcome.error;
    if (outcome.stack) cell.stack = outcome.stack;
  }
  return outcome;
}

async function runLaunches(launches, byId, ctx) {
  for (const launch of launches) {
    if (ctx.shouldStop()) return;
    const cell = byId.get(launch.cellId);
    const wanted = launch.metrics ? cell.status === 'ok' : cell.status === 'pending';
    if (!wanted) {
      ctx.count.done++;
      continue;
    }
    ctx.progress({ done: ctx.count.done, total: ctx.count.total, cell, starting: true, round: launch.round });
    let outcome;
    if (launch.metrics) {
      const suite = ctx.suites.get(cell.suite);
      cell.metrics = await runMetrics(cell, ctx.runtimes.get(cell.runtimeLabel), suite, ctx);
      outcome = { status: 'ok' };
    } else {
      outcome = await timingLaunch(cell, launch, ctx);
      if (!outcome) return;
    }
    ctx.count.done++;
    await ctx.save();
    ctx.progress({ done: ctx.count.done, total: ctx.count.total, cell, outcome });
  }
}

// Phases: (1) `processes` rounds for every cell, interleaved; (2) while a cell's margin of error is
// above targetRme, one more round for those cells, up to maxProcesses; (3) one metrics process per
// ok micro-benchmark cell.
// options: { runtimes (label -> runtime), suites (name -> suite), processes, maxProcesses, targetRme,
//            seed, timeoutMs, sampler, metrics, metricsMs, save(), progress(), shouldStop() }
export async function runCells(cells, options) {
  const { suites, processes, seed, maxProcesses = processes, shouldStop = () => false } = options;
  // With no room for more processes (--quick), there is no target to miss.
  const targetRme = maxProcesses > processes ? options.targetRme : null;
  const ctx = { ...options, progress: options.progress || (() => {}), shouldStop, count: { done: 0, total: 0 } };
  const byId = new Map(cells.map((c) => [c.id, c]));
  const pending = cells.filter((c) => c.status === 'pending');
  const micro = pending.filter((c) => !suites.get(c.suite).service).map((c) => c.id);
  ctx.count.total = pending.length * processes + (options.metrics ? micro.length : 0);

  await runLaunches(scheduleLaunches(pending.map((c) => c.id), processes, seed), byId, ctx);

  for (let round = processes; targetRme && round < maxProcesses && !shouldStop(); round++) {
    const imprecise = cells.filter((c) => c.status === 'pending' && c.processes.length === round && summarize(c.processes).rme > targetRme);
    if (!imprecise.length) break;
    ctx.count.total += imprecise.length;
    await runLaunches(shuffle(imprecise.map((c) => c.id), prng(seed + round)).map((cellId) => ({ cellId, round })), byId, ctx);
  }
  if (shouldStop()) return cells;
  for (const cell of cells) {
    if (cell.status === 'pending' && cell.processes.length >= processes) finalizeCell(cell, { processesPerCell: processes, targetRme });
  }
  await ctx.save();

  // Service cells measure CPU and memory of the service during the load itself.
  if (options.metrics) {
    await runLaunches(shuffle(micro, prng(seed + 1)).map((cellId) => ({ cellId, round: maxProcesses, metrics: true })), byId, ctx);
  }
  return cells;
}

// Every worker process group, timing, metrics and service alike (one registry in process-group.js).
export const killAllChildren = killAllGroups;
