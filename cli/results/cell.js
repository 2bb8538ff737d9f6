// The cell: one (runtime, flag set, suite, benchmark) of a run, and every change of its state.
// Status: pending -> ok | failed | timeout | skipped (interrupted before it ran); unsupported is
// decided by the plan. Processes are recorded as they finish; a process that ran on a disturbed
// machine is set aside (kept in the file with the reason, left out of the estimate) and replaced.
import { createRequire } from 'node:module';
import { summarize, warningsFor, processValue } from '../stats/summary.js';
import { logVariancePrior } from '../stats/robust.js';
import { summarizeService } from '../stats/service.js';
import { judgeProcess, keptSampleIndexes, quietReferences } from '../stats/disturbance.js';
import { summarizeMetricRuns } from '../stats/metrics.js';
import { adjustForHost } from '../stats/covariate.js';
import { oddSchedules, scheduleOutliers, scheduleReason, scheduleOf, wantsTieBreak } from '../stats/count-schedules.js';
import { measureOfCell } from '../measure.js';
import { keptProcesses, perProcessOf, columnKey } from '../cell-identity.js';

// The worker's measurement fields a process record keeps as they are, in the record's order: the
// channel's protocol (worker/protocol.js) says which, so that a field added there is kept here
// and checked against the schema by test/protocol.test.js.
const protocol = createRequire(import.meta.url)('../../worker/protocol.js');
const KEPT = { time: protocol.keptAsIs('time'), instructions: protocol.keptAsIs('instructions') };
const keptFields = (measure, m) => Object.fromEntries(KEPT[measure].map((name) => [name, m[name]]));

// policy/policy.js takes them from here.

// measure: 'instructions' for a run that counts instructions (cli/measure.js); absent for time.
export function createCell({ id, runtime, flagSet, suite, benchmark, perProcess, measure, status = 'pending', error }) {
  return {
    id,
    measure: measure && measure !== 'time' ? measure : undefined,
    runtime: runtime.version,
    runtimeLabel: runtime.label,
    flagSet: flagSet.name,
    flags: flagSet.flags,
    suite: suite.name,
    benchmark: benchmark.name,
    perProcess: perProcess || undefined,
    status,
    error: error || undefined,
    processes: []
  };
}

// What the result file keeps of one finished worker process (timing or service).
export function processRecord(round, result, wallMs, { rerunOf, startedAt, phasesMs, duetWith, pair, cpu } = {}) {
  const m = result.measurement;
  const started = startedAt !== undefined ? new Date(startedAt).toISOString() : undefined;
  const record = protocol.measureOf(m) === 'instructions' ? countedRecord(round, m, { memory: result.memory, wallMs, startedAt: started, phasesMs }) : {
    round,
    ...keptFields('time', m),
    memory: result.memory,
    clockResolutionNs: result.clockResolutionNs ?? null,
    wallMs,
    startedAt: started,
    // When the timed samples ran, in ms of the process's own clock (process.uptime): lines the
    // samples up with what else happened on the machine (bench/suites.js's injected noise).
    sampleWindowMs: m.window ? [m.window.startUptimeMs, m.window.endUptimeMs] : undefined,
    // Where the process's wall time went (runner/launcher.js processPhases).
    phasesMs
  };
  if (m.disturbance) record.disturbance = m.disturbance;
  if (rerunOf !== undefined) record.rerun = true;
  // Ran at the same time as another process (run.pairing): its duet partner's cell, the core it had.
  if (duetWith !== undefined) {
    record.duetWith = duetWith;
    record.pair = pair;
  }
  if (cpu !== undefined) record.cpu = cpu;
  if (result.service) record.service = result.service;
  if (result.command) record.command = result.command;
  return record;
}

// A process measured in instructions (runner/instructions.js): instructions per operation of each
// measured batch, never a time; how they were counted, so that a reader can repeat it.
function countedRecord(round, m, { memory, wallMs, startedAt, phasesMs }) {
  const record = {
    round,
    measure: 'instructions',
    instructionsPerOp: m.instructionsPerOp,
    instructionsPerSample: m.instructionsPerSample,
    markerInstructions: m.markerInstructions,
    ...keptFields('instructions', m),
    valgrind: m.valgrind,
    memory,
    wallMs,
    startedAt,
    phasesMs
  };
  if (m.operationsPerSample) record.operationsPerSample = m.operationsPerSample;
  if (m.cache) record.cache = m.cache;
  return record;
}

export function recordProcess(cell, record, benchmarkType) {
  cell.benchmarkType = benchmarkType;
  cell.processes.push(record);
}

export function failCell(cell, { status, error, stack }) {
  cell.status = status;
  cell.error = error;
  if (stack) cell.stack = stack;
}

// A launch is about to start (policy/policy.js chose it): the cell's first launch is dated, and a
// replacement marks the process it replaces, so that a replacement that fails or is interrupted is
// not chosen again.
export function noteLaunch(cell, launch) {
  if (!cell.launchedAt) cell.launchedAt = new Date().toISOString();
  if (launch.rerunOf === undefined) return;
  const replaced = cell.processes.find((p) => p.round === launch.rerunOf && p.duetWith === launch.duetWith && p.setAside && !p.replaced);
  if (replaced) replaced.replaced = true;
}

// What a launcher (runner/launcher.js) reports of one process, recorded on its cell.
export function recordOutcome(cell, launch, outcome) {
  if (launch.kind === 'metrics') {
    // Every metrics process is kept; the cell's metrics are their summary with intervals.
    const earlier = cell.metrics ? cell.metrics.processes ?? [cell.metrics] : [];
    cell.metrics = summarizeMetricRuns([...earlier, outcome.metrics]);
    return;
  }
  if (outcome.survivors?.length) (cell.survivors ||= []).push(...outcome.survivors);
  if (outcome.holders?.length) (cell.holders ||= []).push(...outcome.holders);
  // The extra process of a counted cell (policy/policy.js tieBreaks) only tells which of its
  // processes' schedules is the cell's: when it fails, the cell keeps the processes it has.
  if (launch.tieBreak && outcome.status !== 'ok') {
    cell.tieBreak = { status: outcome.status, error: outcome.error };
    return;
  }
  // One hang in a cell whose other processes finished is taken for a hiccup of the machine or the
  // runtime, as a disturbed process is: kept in the file and run again (the policy sees its round
  // missing); a second hang fails the cell.
  if (outcome.status === 'timeout' && cell.processes.length && !cell.hangs?.length) {
    cell.hangs = [{ round: launch.round, error: outcome.error, startedAt: outcome.startedAt !== undefined ? new Date(outcome.startedAt).toISOString() : undefined }];
    return;
  }
  if (outcome.status === 'ok') {
    recordProcess(cell, processRecord(launch.round, outcome.result, outcome.wallMs, {
      rerunOf: launch.rerunOf, startedAt: outcome.startedAt, phasesMs: outcome.phasesMs, duetWith: launch.duetWith, pair: launch.group, cpu: outcome.cpu ?? undefined
    }), outcome.result.benchmarkType);
  } else {
    failCell(cell, outcome);
  }
}

// Decides, with the run's current quiet references, which processes and samples of the cell ran
// disturbed. Returns the processes newly set aside (the runner replaces them).
export function judgeCell(cell, quietReferences, { thresholdPct, cores }) {
  const newly = [];
  for (const record of cell.processes) {
    if (!record.disturbance) continue;
    const kept = keptSampleIndexes(record, thresholdPct);
    record.keptSamples = kept.length === record.samplesNsPerOp.length ? undefined : kept;
    const verdict = judgeProcess(record, quietReferences.get(cell.id), { thresholdPct, cores });
    if (verdict && !record.setAside) newly.push(record);
    record.setAside = verdict || undefined;
  }
  return newly;
}

// Judges the processes of every pending cell against the run's current quiet references. The two
// processes of a duet pair stand or fall together: a pair's ratio needs both sides quiet.
export function judgeCells(cells, { thresholdPct, cores }) {
  const quiet = quietReferences(cells);
  const pending = cells.filter((c) => c.status === 'pending');
  for (const cell of pending) judgeCell(cell, quiet, { thresholdPct, cores });
  const byId = new Map(cells.map((c) => [c.id, c]));
  for (const cell of pending) {
    for (const record of cell.processes) {
      if (record.pair === undefined || record.setAside) continue;
      const partner = byId.get(record.duetWith)?.processes.find((p) => p.pair === record.pair && p.setAside);
      if (partner) record.setAside = { reason: `its duet partner (${columnKey(byId.get(record.duetWith))}) ran on a disturbed machine: ${partner.setAside.reason}` };
    }
  }
}

// Map suite -> its variance prior (stats/moderate.js), from every cell of the suite with two or more
// kept processes: what 4-5 processes cannot say about their own spread, the suite's other cells can.
export function variancePriors(cells) {
  const bySuite = new Map();
  for (const cell of cells) {
    if ((cell.status !== 'pending' && cell.status !== 'ok') || !cell.processes.length) continue;
    // A count's spread is its own benchmark's (exact code repeats to ppm, clock-driven code does
    // not): a suite's other benchmarks say nothing about it, so counted cells borrow no variance.
    if (measureOfCell(cell).id === 'instructions') continue;
    const logs = keptProcesses(cell).map((p) => Math.log(processValue(p, perProcessOf(cell))));
    if (logs.length < 2) continue;
    if (!bySuite.has(cell.suite)) bySuite.set(cell.suite, []);
    bySuite.get(cell.suite).push(logs);
  }
  return new Map([...bySuite].map(([suite, groups]) => [suite, logVariancePrior(groups)]));
}

// priors: from variancePriors over the run's cells (none: each cell on its own).
// A counted process that took another schedule than its cell's agreeing majority counts for nothing
// while the run goes on either (what top-ups are chosen by), before finalize sets it aside.
export function currentSummary(cell, priors) {
  const measure = measureOfCell(cell);
  const odd = measure.id === 'instructions' ? scheduleOutliers(cell.processes) : [];
  return summarize(keptProcesses(cell).filter((p) => !odd.includes(p)), { perProcess: perProcessOf(cell), prior: priors?.get(cell.suite) ?? null, measure });
}

// Finalizes every pending cell, with the priors of all cells that have processes, after the host
// covariate (stats/covariate.js) has adjusted their processes where the run's data keeps it.
export function finalizeCells(cells, options) {
  adjustForHost(cells.filter((c) => c.status === 'pending'));
  const priors = variancePriors(cells);
  for (const cell of cells) finalizeCell(cell, { ...options, priors });
}

// A counted cell's processes that took another schedule than its agreeing majority and counted apart
// from it (stats/count-schedules.js) are set aside, once their cell has them all.
function setAsideOddSchedules(cell) {
  // Judged afresh each time: a resumed cell's new processes may have made another schedule the majority.
  for (const record of cell.processes) if (record.setAside?.kind === 'schedule') record.setAside = undefined;
  const found = oddSchedules(cell.processes);
  if (!found) return;
  for (const record of found.odd) record.setAside = { reason: scheduleReason(record, found), kind: 'schedule' };
}

// budgetLimited: ids of the cells the run's time budget (run.timeBudgetMin) left short of top-ups.
export function finalizeCell(cell, { interrupted = false, processesPerCell, targetRme = null, priors, budgetLimited } = {}) {
  if (cell.status !== 'pending') return;
  if (!cell.processes.length) {
    cell.status = 'skipped';
    cell.error = cell.launchedAt
      ? `not measured: the run was interrupted ${((Date.now() - Date.parse(cell.launchedAt)) / 1000).toFixed(0)} s after this cell's first process started, before any finished`
      : 'not run: the run was interrupted before this cell started';
    return;
  }
  if (measureOfCell(cell).id === 'instructions') setAsideOddSchedules(cell);
  const kept = keptProcesses(cell);
  cell.status = 'ok';
  cell.summary = currentSummary(cell, priors);
  if (cell.processes[0].service) cell.service = summarizeService(kept);
  cell.warnings = warningsFor(cell.summary, kept);
  const otherSchedules = cell.processes.filter((p) => p.setAside?.kind === 'schedule');
  if (otherSchedules.length) {
    const one = otherSchedules.length === 1;
    cell.warnings.push({ code: 'schedule-differs', message: `${otherSchedules.length} of ${cell.processes.length} processes took other decisions than the others (${otherSchedules.map((p) => scheduleOf(p)).join('; ')}, against ${scheduleOf(kept[0])}) and counted apart from them, so ${one ? 'it was' : 'they were'} set aside (${one ? 'its counts stay' : 'their counts stay'} in the file): a count within parts per million of one of the sampler's thresholds goes either way, or the process did other work (docs/instructions.md).` });
  }
  const setAside = cell.processes.filter((p) => p.setAside && p.setAside.kind !== 'schedule').length;
  if (setAside) {
    const all = kept.length === cell.processes.length;
    cell.warnings.push({ code: 'disturbed', message: `${setAside} of ${cell.processes.length} processes ran on a disturbed machine and were set aside${all ? ', but fewer than two quiet ones were left, so all of them count' : ''} (their samples stay in the file).` });
  }
  if (cell.hangs?.length) {
    cell.warnings.push({ code: 'hung', message: `one process hung and was run again: it ${cell.hangs[0].error.replace(/^did not finish/, 'did not finish')}.` });
  }
  if (cell.survivors?.length) {
    const some = (list, name) => `${list.slice(0, 10).map(name).join(', ')}${list.length > 10 ? ` and ${list.length - 10} more` : ''}`;
    // holders: processes that kept the worker's output open after it exited (process/pipe-holders.js).
    const holders = cell.holders || [];
    const held = new Set(holders.map((h) => h.pid));
    const others = cell.survivors.filter((pid) => !held.has(pid));
    const message = holders.length
      ? `the benchmark started ${cell.survivors.length} process(es) that outlived its worker: ${holders.length} held its output open after it exited (${some(holders, (h) => `pid ${h.pid}${h.name ? ` (${h.name})` : ''}`)})${others.length ? ` and ${others.length} more ran on in their own session or in the background (pids ${some(others, String)})` : ''}; nodebench stopped waiting for them and killed them: stop what the benchmark starts in its teardown.`
      : `the benchmark started ${cell.survivors.length} process(es) that outlived its worker in their own session or in the background (pids ${some(cell.survivors, String)}); nodebench killed them: stop what the benchmark starts in its teardown.`;
    cell.warnings.push({ code: 'survivors', message });
  }
  if (targetRme && cell.summary.rme > targetRme) {
    const why = budgetLimited?.has(cell.id)
      ? 'the run\'s time budget (run.timeBudgetMin) left no room for more; raise it, or give the machine a quieter time'
      : 'run.maxProcesses; the machine is noisy or the benchmark varies from process to process';
    cell.warnings.push({ code: 'target-missed', message: `the ±${cell.summary.rme.toFixed(1)}% margin is above the ${targetRme}% target after ${kept.length} processes (${why}).` });
  }
  if (cell.tieBreak) {
    cell.warnings.push({ code: 'schedule-differs', message: `its processes took other decisions and counted apart, and the process run to tell which is the cell's ${cell.tieBreak.status === 'timeout' ? 'timed out' : 'failed'} (${cell.tieBreak.error}), so all of them count.` });
  }
  // Processes set aside for their schedule ran to the end: not missing.
  const finished = kept.length + otherSchedules.length;
  if (interrupted && finished < processesPerCell) {
    cell.warnings.push({ code: 'interrupted', message: `interrupted after ${kept.length} of ${processesPerCell} processes; the interval is wider than a full run's.` });
  } else if (interrupted && !cell.tieBreak && wantsTieBreak(cell.processes)) {
    cell.warnings.push({ code: 'interrupted', message: 'interrupted before the extra process that tells which of its processes\' schedules is the cell\'s (--resume runs it).' });
  }
}
