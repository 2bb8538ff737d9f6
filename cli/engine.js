// The one engine behind `nodebench matrix`, `run` and `exec`, `bisect` on a benchmark, `diff --confirm`
// and the API's runMatrix: resolve runtimes, describe suites, plan cells, run them, and keep the
// result file current all along.
import path from 'node:path';
import { resolveRuntimes, describeSuites, buildPlan } from './matrix/plan.js';
import { commandSuite } from './matrix/commands.js';
import { selectShard } from './matrix/shard.js';
import { runCells } from './policy/run-loop.js';
import { killAllGroups } from './process/groups.js';
import { createBudget } from './policy/budget.js';
import { createRunDir } from './runner/run-dir.js';
import { ORDER } from './policy/schedule.js';
import { completeRun, samplerOptions } from './options.js';
import { baselineColumn } from './results/grid.js';
import { findValgrind } from './process/valgrind.js';
import { createResult, finishResult } from './results/document.js';
import { writeResult, readResult } from './results/file.js';
import { lockResultFile } from './results/lock.js';
import { UserError } from './errors.js';

export { NODEBENCH_VERSION } from './results/document.js';
export { DEFAULT_RUN, QUICK_RUN } from './options.js';

// SIGINT, SIGTERM and SIGHUP (a closed terminal), from the moment the result file's lock is taken
// until it is released: whenever one arrives, nodebench ends with 130 and the lock released. Before
// measuring begins (runtimes resolved or installed, suites described, flags checked) the preparation
// is abandoned: what it started is killed, and `prepared(step)` rejects with a UserError of exit code
// 130 (the lock goes in runEngine's finally). From the first save on, the workers are stopped and
// what finished is kept (`interrupted`, the run loop's shouldStop); a second signal then ends
// nodebench at once (the lock goes with the process: results/lock.js releases it at exit).
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

function watchSignals(out, log) {
  let received = null;
  let measuring = false;
  let abandon;
  const abandoned = new Promise((resolve, reject) => {
    abandon = reject;
  });
  abandoned.catch(() => {});
  const onSignal = (signal) => {
    killAllGroups();
    if (received && measuring) {
      const second = signal === received ? `${signal} again` : `${signal} after ${received}`;
      log(`${second}: stopping now; ${out} keeps what was last saved`);
      process.exit(130);
    }
    if (received) return;
    received = signal;
    if (measuring) log(`\n${signal}: stopping; keeping what finished in ${out}`);
    else abandon(new UserError(`${signal}: stopped before measuring began; nothing was written to ${out}.`, { exitCode: 130 }));
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  return {
    // Settles as `step` does, unless a signal comes first (listed first, so that a signal that came
    // while nothing was awaited wins over a step already done).
    prepared: (step) => Promise.race([abandoned, step]),
    // From here on a signal stops the run and keeps what finished; after one before this, it throws.
    startMeasuring: () => {
      if (received) return abandoned;
      measuring = true;
      return undefined;
    },
    interrupted: () => received !== null,
    remove: () => {
      for (const signal of SIGNALS) process.removeListener(signal, onSignal);
    }
  };
}

// matrix: { runtimes, flagSets, suites, run, baseDir }; run options already merged with CLI options.
// resume: continue the interrupted or killed run in `out` (results/resume.js) instead of starting one.
// stopAfterMin: a hard bound on measuring (diff --confirm's --confirm-minutes), where run.timeBudgetMin
// only stops extra processes: when it passes, the run ends as an interrupted one does (what finished
// is kept, the file says 'interrupted', so a later --resume continues it) and returns timeUp.
export async function runEngine(matrix, { out, progress, command = process.argv.slice(2), refresh = false, resume: resuming = false, stopAfterMin = null }) {
  const release = lockResultFile(out);
  const signals = watchSignals(out, (m) => progress.log(m));
  try {
    const resume = resuming ? await signals.prepared(readResult(out)) : null;
    return await lockedRun(matrix, { out, progress, command, refresh, resume, signals, stopAfterMin });
  } finally {
    signals.remove();
    release();
  }
}

async function lockedRun(matrix, { out, progress, command, refresh, resume, signals, stopAfterMin }) {
  const run = completeRun(matrix.run);
  // A resumed run keeps its launch order, unless --seed says otherwise (and is then refused).
  if (run.seed === undefined) run.seed = resume ? resume.run.seed : Math.floor(Math.random() * 2 ** 31);
  const log = (m) => progress.log(m);

  const { prepared } = signals;
  // Counting instructions needs valgrind: said in one sentence before anything is installed or run.
  if (run.measure === 'instructions') await prepared(findValgrind());
  const runtimes = await prepared(resolveRuntimes(matrix.runtimes, { log, refresh }));
  const suites = await prepared(describeSuites(matrix.suites, matrix.baseDir, { timeoutSec: run.timeoutSec }));
  if (matrix.commands?.length) suites.push(commandSuite(matrix.commands, { baseDir: matrix.baseDir }));
  const planned = await prepared(buildPlan({ runtimes, flagSets: matrix.flagSets, suites, measure: run.measure, log }));
  const cells = matrix.shard ? selectShard(planned, matrix.shard) : planned;
  if (!cells.length) {
    throw new UserError(matrix.shard ? `Shard ${matrix.shard.index}/${matrix.shard.count} has no benchmarks (the matrix has fewer benchmarks than shards); use fewer shards.`
      : 'The matrix selects no benchmarks; check the suites and benchmark filters.');
  }

  const { result, startWarnings } = createResult({
    command, runtimes, flagSets: matrix.flagSets, suites, run, shard: matrix.shard, cells, order: ORDER, previous: resume, file: out
  });
  // Checked before anything runs: a wrong column would otherwise fail only after the whole run.
  const baseline = baselineColumn(result, run.baseline);
  for (const warning of startWarnings) log(`warning: ${warning.message}`);
  const save = () => writeResult(out, result);
  await signals.startMeasuring();
  await save();
  const runnable = result.cells.filter((c) => c.status === 'pending').length;
  // Counted by status: a flag set that aborts a runtime at start makes its cells failed, not unsupported.
  const before = ['ok', 'unsupported', 'failed', 'timeout'].map((status) => [status, result.cells.filter((c) => c.status === status).length]).filter(([, n]) => n);
  const resumed = resume ? `resuming: ${result.cells.reduce((n, c) => n + c.processes.length, 0)} processes kept; ` : '';
  log(`${resumed}${cells.length} cells (${[`${runnable} to run`, ...before.map(([status, n]) => `${n} ${status}`)].join(', ')}), ${run.processes} process(es) each; writing ${path.relative(process.cwd(), out) || out}`);

  // Counted from the first process: installing runtimes is not measuring.
  const budget = createBudget(run.timeBudgetMin);
  const stopAt = stopAfterMin ? Date.now() + stopAfterMin * 60_000 : Infinity;
  let timeUp = false;
  // Checked by the run loop before each launch and after each process; a process that ends after
  // the bound is not recorded, as under an interrupt (at most one process's time is lost).
  const shouldStop = () => signals.interrupted() || (timeUp ||= Date.now() >= stopAt);
  const runDir = await createRunDir(process.env, { warn: (message) => log(`warning: ${message}`) });
  let interrupted;
  try {
    await runCells(result.cells, {
      budget,
      runDir: runDir.path,
      runtimes: new Map(runtimes.map((r) => [r.label, r])),
      suites: new Map(suites.map((s) => [s.name, s])),
      run,
      sampler: samplerOptions(run),
      baselineKey: baseline.key,
      cores: result.host.cores,
      save,
      progress: (p) => progress.update(p),
      shouldStop
    });
  } finally {
    runDir.remove();
    progress.done();
    if (budget.state.limited && budget.state.reached) {
      const { replacements, topUps } = budget.state.skipped;
      log(`time budget of ${budget.state.budgetMin} min (run.timeBudgetMin) reached: ${topUps} top-up and ${replacements} replacement process(es) not run; the cells left above the target say so`);
    }
    // The bound passed with nothing left to run is a complete run.
    timeUp &&= !signals.interrupted() && result.cells.some((c) => c.status === 'pending');
    if (timeUp) log(`time limit of ${stopAfterMin} min reached: stopped; ${path.relative(process.cwd(), out) || out} keeps what finished`);
    interrupted = signals.interrupted() || timeUp;
    finishResult(result, { run, interrupted, budget: budget.state });
    await save();
  }
  return { result, interrupted, timeUp };
}

export function exitCodeFor(result, interrupted) {
  if (interrupted) return 130;
  return result.cells.some((c) => c.status === 'failed' || c.status === 'timeout') ? 1 : 0;
}
