// The result document's top level: what a run's file holds from its first save (createResult) and
// what is added when measuring ends (finishResult). The cells inside are cell.js's; the shape of
// the whole is result.schema.json (docs/result-format.md); reading, migrating and validating a
// file are read.js and migrate.js, writing it file.js. The engine (cli/engine.js) calls these and
// never builds or edits the top level itself, so that one file answers "where does this field
// come from".
import os from 'node:os';
import { createRequire } from 'node:module';
import { finalizeCells } from './cell.js';
import { grid } from './grid.js';
import { hostInfo, loadWarning, governorWarning, runOwnLoad } from './host.js';
import { SCHEMA_VERSION } from './migrate.js';
import { continueRun } from './resume.js';
import { detectableChange } from '../stats/detectable.js';
import { hostFingerprint } from '../stats/host-speed.js';
import { fitSuites, describeFits } from '../stats/covariate.js';
import { measureNamed } from '../measure.js';

const require = createRequire(import.meta.url);
export const NODEBENCH_VERSION = require('../../package.json').version;

// A runtime as the file records it: where it came from, never the cache path it ran from on this
// machine (a path runtime's own path is its source).
function recordedRuntime(r) {
  const { path: binary, installedAt, ...rest } = r;
  return { ...rest, source: rest.source || binary };
}

// A suite as the file records it: its description and the benchmarks the matrix selected.
function recordedSuite(s) {
  return {
    name: s.name, kind: s.kind, file: s.file, description: s.description, params: s.params, format: s.format, moduleKind: s.moduleKind,
    libraries: s.libraries || undefined, metricsTable: s.metricsTable || undefined,
    sampler: s.sampler || undefined, perProcess: s.perProcess || undefined, benchmarks: s.benchmarks.filter((b) => s.selected.includes(b.name))
  };
}

// Other programs and the CPU's clock move time, not instruction counts: the host's load and
// governor are warned about only for a run measured in time.
const timed = (run) => run.measure !== 'instructions';

// The document a run saves before its first process: status 'running', every planned cell, the
// host's load at the start. run: the complete run options (seed chosen); runtimes and suites as
// matrix/plan.js resolved and described them; cells: the planned cells (cell.js createCell);
// order: how the launches are ordered, in words (policy/schedule.js ORDER: the runner's to say).
// previous: the file a --resume continues (read.js readResult), whose finished processes are kept
// (resume.js; refused with its first difference from this plan), from `file`.
// Returns { result, startWarnings }: the warnings the start added, for the engine to print.
export function createResult({ command, runtimes, flagSets, suites, run, shard, cells, order, previous = null, file }) {
  let result = {
    schemaVersion: SCHEMA_VERSION,
    nodebench: { version: NODEBENCH_VERSION, command },
    createdAt: new Date().toISOString(),
    finishedAt: null,
    status: 'running',
    host: hostInfo(),
    runtimes: runtimes.map(recordedRuntime),
    flagSets,
    suites: suites.map(recordedSuite),
    run,
    shard: shard || undefined,
    schedule: {
      seed: run.seed,
      processesPerCell: run.processes,
      maxProcessesPerCell: run.maxProcesses,
      targetRme: run.targetRme,
      order
    },
    cells
  };
  const startWarnings = timed(run) ? [...loadWarning(result.host.loadAverageStart, result.host.cores, previous ? 'when resumed' : 'at the start'), ...governorWarning(result.host.cpuGovernor)] : [];
  if (previous) {
    result = continueRun(result, previous, file);
    // The governor was said when the run started; the load now is news.
    result.warnings.push(...startWarnings.filter((w) => w.code !== 'governor'));
  } else {
    result.warnings = startWarnings;
  }
  return { result, startWarnings };
}

// Measuring has ended (all run, interrupted, or out of time): every pending cell finalised, then
// what is known only of the whole run. interrupted: the run stopped before every cell ran;
// budget: the time budget's state (policy/budget.js createBudget().state), recorded when it limited
// the run; run: the run options the cells were measured with. Changes `result` in place; the
// engine saves it.
export function finishResult(result, { run, interrupted, budget }) {
  if (budget.limited) result.schedule.timeBudget = { minutes: budget.budgetMin, reached: budget.reached, skipped: budget.skipped };
  finalizeCells(result.cells, { interrupted, processesPerCell: run.processes });
  // How the host ran (stats/host-speed.js): diff compares two files' fingerprints before it believes a time ratio.
  result.hostSpeed = hostFingerprint(result.cells) ?? undefined;
  // The host covariate's fit per suite (stats/covariate.js), as the finalised cells were adjusted.
  result.covariate = describeFits(fitSuites(result.cells.filter((c) => c.status === 'ok')));
  // The smallest change the run could have detected (stats/detectable.js), for whoever reads its verdicts.
  result.schedule.detectableChange = detectableChange(grid(result, { baseline: run.baseline }), result.cells, { equivalence: measureNamed(run.measure).equivalence });
  result.status = interrupted ? 'interrupted' : 'complete';
  result.finishedAt = new Date().toISOString();
  result.host.loadAverageEnd = os.loadavg();
  if (timed(run)) result.warnings.push(...loadWarning(result.host.loadAverageEnd, result.host.cores, 'at the end', { ownLoad: runOwnLoad(run) }));
  return result;
}
