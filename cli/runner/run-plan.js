// Runs every pending cell of a result object: launches in the scheduled order (schedule.js), one
// process at a time (parallel processes would compete for the same cores and skew each other),
// recording each process on its cell (results/cell.js) and saving the result file as it goes.
import path from 'node:path';
import { launchWorker } from './launch.js';
import { killAllGroups } from './process-group.js';
import { scheduleRound, rowKey } from './schedule.js';
import { shuffle, prng } from '../stats/random.js';
import { parseTraceGc, gcSummary } from './gc-trace.js';
import { interpretLaunch } from './outcome.js';
import { runServiceLaunch } from './service.js';
import { processRecord, recordProcess, failCell, judgeCell, keptProcesses, currentSummary, finalizeCells, variancePriors } from '../results/cell.js';
import { quietReferences, columnKey } from '../stats/disturbance.js';
import { createBudget, processCostMs, metricsCostMs, topUpPriority } from './budget.js';

// Saving rewrites the whole file; after every process that is most of the host's work on a large
// matrix, so saves are spaced out. A kill loses at most this much work; Ctrl-C loses none.
const SAVE_EVERY_MS = 5000;

// A suite whose findings are its metrics (gc) may ask for a longer window than the run's.
const metricsWindowMs = (suite, runMetricsMs) => suite.sampler?.metricsMs ?? runMetricsMs;

// One metrics process per cell, after its timing processes: --trace-gc and the event-loop probe
// would distort timing samples, so they never run in a timing process.
async function runMetrics(cell, runtime, suite, { timeoutMs, sampler, metricsMs: runMetricsMs }) {
  const metricsMs = metricsWindowMs(suite, runMetricsMs);
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

// The run's sampler options with the suite's own needs over them (e.g. longer samples for GC).
export function suiteSampler(sampler, suite) {
  return { ...sampler, ...(suite.sampler || {}) };
}

async function launchMicro(runtime, cell, suite, { sampler, timeoutMs }) {
  const launched = await launchWorker(runtime.path, cell.flags, {
    mode: 'run', suite: suite.file, benchmark: cell.benchmark, params: suite.params,
    sampler: { ...suiteSampler(sampler, suite), recordDisturbance: true }
  }, { timeoutMs, cwd: path.dirname(suite.file) });
  return { ...interpretLaunch(launched, { timeoutMs }), wallMs: launched.wallMs, survivors: launched.survivors };
}

// One timing launch of a cell: a worker process (or a service under load), recorded on the cell.
async function timingLaunch(cell, launch, ctx) {
  const { suites, runtimes, sampler, timeoutMs } = ctx;
  const suite = suites.get(cell.suite);
  const runtime = runtimes.get(cell.runtimeLabel);
  const startedAt = Date.now();
  const outcome = suite.service
    ? await runServiceLaunch(runtime.path, cell.flags, { suiteFile: suite.file, benchmark: cell.benchmark, params: suite.params }, { timeoutMs, cwd: path.dirname(suite.file) })
    : await launchMicro(runtime, cell, suite, { sampler, timeoutMs });
  if (ctx.shouldStop()) return null;
  if (outcome.survivors?.length) {
    (cell.survivors ||= []).push(...outcome.survivors);
  }
  const reported = outcome.hello?.runtime?.node;
  if (outcome.status === 'ok' && reported && reported !== runtime.version) {
    // The binary is not the runtime its cache entry claims: never label its numbers with that version.
    failCell(cell, { status: 'failed', error: `the binary ran as Node ${reported}, not ${runtime.version} as its cache entry says; repair it with nodebench runtimes install ${runtime.version} --repair` });
  } else if (outcome.status === 'ok') {
    recordProcess(cell, processRecord(launch.round, outcome.result, outcome.wallMs, { rerunOf: launch.rerunOf, startedAt }), outcome.result.benchmarkType);
  } else {
    failCell(cell, outcome);
  }
  return outcome;
}

// A round a cell already has (a resumed run) is not run again.
const hasRound = (cell, round) => cell.processes.some((p) => !p.rerun && p.round === round);

async function runLaunches(launches, byId, ctx) {
  for (const launch of launches) {
    if (ctx.shouldStop()) return;
    const cell = byId.get(launch.cellId);
    const wanted = launch.metrics ? cell.status === 'ok' && !cell.metrics
      : cell.status === 'pending' && !(launch.rerunOf === undefined && hasRound(cell, launch.round));
    if (!wanted) {
      ctx.count.done++;
      continue;
    }
    ctx.progress({ done: ctx.count.done, total: ctx.count.total, cell, starting: true, round: launch.round });
    if (!cell.launchedAt) cell.launchedAt = new Date().toISOString();
    let outcome;
    if (launch.metrics) {
      const suite = ctx.suites.get(cell.suite);
      cell.metrics = await runMetrics(cell, ctx.runtimes.get(cell.runtimeLabel), suite, { ...ctx, sampler: suiteSampler(ctx.sampler, suite) });
      outcome = { status: 'ok' };
    } else {
      outcome = await timingLaunch(cell, launch, ctx);
      if (!outcome) return;
    }
    ctx.count.done++;
    await ctx.saveSoon();
    ctx.progress({ done: ctx.count.done, total: ctx.count.total, cell, outcome });
  }
}

// Judges every process against the run's current quiet references, then replaces the processes
// set aside in the rounds `due` accepts, within each cell's rerun budget (as many reruns as
// processes). A replacement keeps the round of the process it replaces, so that the row's pairs hold.
async function replaceDisturbed(cells, byId, ctx, due) {
  if (!ctx.rerunDisturbed) return;
  const quiet = quietReferences(cells);
  const candidates = [];
  for (const cell of cells) {
    if (cell.status !== 'pending') continue;
    judgeCell(cell, quiet, { thresholdPct: ctx.disturbancePct, cores: ctx.cores });
    let budget = ctx.processes - cell.processes.filter((p) => p.rerun).length;
    for (const record of cell.processes) {
      if (!record.setAside || record.replaced || !due(record.round) || budget <= 0) continue;
      budget--;
      candidates.push({ cellId: cell.id, record });
    }
  }
  // In blocks, like a round: a row whose every column was slow is replaced together.
  const order = new Map(scheduleRound(candidates.map((l) => byId.get(l.cellId)), 0, ctx.seed + 1).map((l, i) => [l.cellId, i]));
  candidates.sort((x, y) => order.get(x.cellId) - order.get(y.cellId) || x.record.round - y.record.round);
  const taken = ctx.budget.fit(candidates, (l) => processCostMs(byId.get(l.cellId)), { reserveMs: ctx.reserveMs(), kind: 'replacements' });
  const launches = taken.map(({ cellId, record }) => {
    record.replaced = true;
    return { cellId, round: record.round, rerunOf: record.round };
  });
  ctx.count.total += launches.length;
  await runLaunches(launches, byId, ctx);
}

// Phases: (1) `processes` rounds in blocks, each followed by replacements for the disturbed
// processes of the rounds before it, then the last replacements;
// (2) while a cell's margin of error is above targetRme, one more round for those cells and their
// row's baseline cell (so the ratio keeps its pairs), until maxProcesses kept processes; (3) one
// metrics process per ok micro-benchmark cell. Under run.timeBudgetMin, replacements and top-ups
// are only launched while they fit in the time left (budget.js); the others are counted.
// options: { runtimes (label -> runtime), suites (name -> suite), run (complete run options),
//            baselineKey, cores, save(), progress(), shouldStop(), budget? (createBudget; by default
//            one from run.timeBudgetMin) }
export async function runCells(cells, options) {
  const { suites, run, shouldStop = () => false } = options;
  const { processes, seed } = run;
  const maxProcesses = Math.max(run.maxProcesses, processes);
  // With no room for more processes (--quick), there is no target to miss.
  const targetRme = maxProcesses > processes ? run.targetRme : null;
  let lastSave = 0;
  const ctx = {
    ...options,
    processes,
    seed,
    sampler: options.sampler,
    timeoutMs: run.timeoutSec * 1000,
    metricsMs: run.metricsMs,
    rerunDisturbed: run.rerunDisturbed,
    disturbancePct: run.disturbancePct,
    progress: (p) => (options.progress || (() => {}))({ ...p, budgetEndsAt: ctx.budget.endsAt }),
    shouldStop,
    count: { done: 0, total: 0 },
    budget: options.budget || createBudget(run.timeBudgetMin),
    saveSoon: async () => {
      if (Date.now() - lastSave < SAVE_EVERY_MS) return;
      lastSave = Date.now();
      await options.save();
    }
  };
  const byId = new Map(cells.map((c) => [c.id, c]));
  const pending = () => cells.filter((c) => c.status === 'pending');
  // A resumed run may have ok cells whose metrics process had not run yet.
  const micro = cells.filter((c) => (c.status === 'pending' || (c.status === 'ok' && !c.metrics)) && !suites.get(c.suite).service).map((c) => c.id);
  // What is known in advance, for the progress line's ETA; top-up rounds and replacements add to it.
  const roundsToRun = pending().reduce((n, c) => n + processes - c.processes.filter((p) => !p.rerun && p.round < processes).length, 0);
  ctx.count.total = roundsToRun + (run.metrics ? micro.length : 0);

  // What must still run whatever the budget: the first rounds' processes and the metrics processes.
  let roundsLeft = processes;
  ctx.reserveMs = () => {
    let ms = 0;
    for (const cell of pending()) ms += Math.max(0, roundsLeft - 1) * processCostMs(cell);
    if (run.metrics) {
      for (const id of micro) {
        const cell = byId.get(id);
        if (cell.status === 'ok' || cell.status === 'pending') ms += metricsCostMs(cell, metricsWindowMs(suites.get(cell.suite), run.metricsMs));
      }
    }
    return ms;
  };

  for (let round = 0; round < processes && !shouldStop(); round++, roundsLeft--) {
    await runLaunches(scheduleRound(pending(), round, seed), byId, ctx);
    // Slow periods of the machine last minutes: a replacement right after the process it replaces
    // would land in the same one, so it waits for the next round to pass.
    if (round >= 1) await replaceDisturbed(cells, byId, ctx, (r) => r < round);
  }
  roundsLeft = 0;
  for (let pass = 0; pass < 2 && !shouldStop(); pass++) await replaceDisturbed(cells, byId, ctx, () => true);

  // One round per process short of maxProcesses: replacements, not extra rounds, make up for
  // processes set aside.
  const budgetLimited = new Set();
  for (let round = processes; targetRme && round < maxProcesses && !shouldStop(); round++) {
    const priors = variancePriors(cells);
    const imprecise = pending()
      .map((cell) => ({ cell, rme: currentSummary(cell, priors).rme, kept: keptProcesses(cell).length }))
      .filter((c) => c.kept < maxProcesses && c.rme > targetRme);
    if (!imprecise.length) break;
    const isBaseline = (c) => columnKey(c) === options.baselineKey;
    const baselineOf = new Map(pending().filter(isBaseline).map((c) => [rowKey(c), c]));
    // A top-up launches its row's baseline process too (it keeps the ratio's pairs): the cost of a
    // cell is its own process and, once per row, the baseline's (nothing more for the baseline itself).
    const baselineCostMs = (c) => (baselineOf.has(rowKey(c)) ? processCostMs(baselineOf.get(rowKey(c))) : 0);
    const ownCostMs = (c) => (isBaseline(c) ? 0 : processCostMs(c));
    const costOf = (c) => ownCostMs(c) + baselineCostMs(c);
    imprecise.sort((x, y) => topUpPriority(y.rme, y.kept, costOf(y.cell)) - topUpPriority(x.rme, x.kept, costOf(x.cell)));
    const rowsCharged = new Set();
    const taken = ctx.budget.fit(imprecise, ({ cell }) => {
      const row = rowKey(cell);
      const cost = ownCostMs(cell) + (rowsCharged.has(row) ? 0 : baselineCostMs(cell));
      rowsCharged.add(row);
      return cost;
    }, { reserveMs: ctx.reserveMs(), kind: 'topUps' });
    const fitted = new Set(taken);
    for (const c of imprecise) (fitted.has(c) ? budgetLimited.delete(c.cell.id) : budgetLimited.add(c.cell.id));
    if (!taken.length) break;
    const rows = new Set(taken.map((c) => rowKey(c.cell)));
    const chosen = taken.map((c) => c.cell);
    const baselines = pending().filter((c) => isBaseline(c) && rows.has(rowKey(c)) && !chosen.includes(c));
    const launches = scheduleRound([...chosen, ...baselines], round, seed);
    ctx.count.total += launches.length;
    await runLaunches(launches, byId, ctx);
    await replaceDisturbed(cells, byId, ctx, (r) => r < round);
  }
  if (shouldStop()) return cells;
  finalizeCells(cells, { processesPerCell: processes, targetRme, budgetLimited });
  await options.save();

  // Service cells measure CPU and memory of the service during the load itself.
  if (run.metrics) {
    await runLaunches(shuffle(micro, prng(seed + 1)).map((cellId) => ({ cellId, round: maxProcesses, metrics: true })), byId, ctx);
  }
  return cells;
}

// Every worker process group, timing, metrics and service alike (one registry in process-group.js).
export { killAllGroups };
