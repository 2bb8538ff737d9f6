// The run loop: asks the launch policy (policy.js) for the next step, runs its launches through the
// launcher (runner/launcher.js) one at a time, or two at once where the policy groups them (run.pairing:
// a duet pair, pairing.js), records each outcome on its cell (results/cell.js) and saves the result
// file as it goes. What runs when is the policy's; how a process runs is the launcher's.
import { nextStep, stillWanted, knownAhead, budgetLimitedCells, targetOf, timeLeft } from './policy.js';
import { createProcessLauncher } from '../runner/launcher.js';
import { createBudget } from './budget.js';
import { noteLaunch, recordOutcome, judgeCells, finalizeCells } from '../results/cell.js';

// Saving rewrites the whole file; after every process that is most of the host's work on a large
// matrix, so saves are spaced out. A kill loses at most this much work; Ctrl-C loses none.
const SAVE_EVERY_MS = 5000;

// options: { runtimes (label -> runtime), suites (name -> suite), run (complete run options),
//            sampler, baselineKey, cores, save(), progress(), shouldStop(),
//            budget? (createBudget; by default one from run.timeBudgetMin),
//            launcher? (runner/launcher.js interface; by default real processes), now? (a clock, for tests) }
export async function runCells(cells, options) {
  const { run, shouldStop = () => false, now = () => Date.now() } = options;
  const budget = options.budget || createBudget(run.timeBudgetMin, { now });
  const launcher = options.launcher || createProcessLauncher(options);
  const policy = { run, suites: options.suites, baselineKey: options.baselineKey, budget };
  // The time left comes from the policy's view of what is still to run (policy.js timeLeft; about
  // 10 ms for the default matrix), asked when a process has finished, not again when the next starts.
  let left;
  const progress = (p) => {
    if (!options.progress) return;
    if (!p.starting || !left) left = timeLeft(cells, policy, { now: now(), budgetEndsAt: budget.endsAt });
    options.progress({ ...p, budgetEndsAt: budget.endsAt, left });
  };
  const byId = new Map(cells.map((c) => [c.id, c]));
  let lastSave = 0;
  // The count knows the first rounds and the metrics processes in advance; replacements and top-ups
  // join it as they are chosen (the time left expects them before: policy.js timeLeft).
  let done = 0;

  for (;;) {
    if (shouldStop()) return cells;
    if (run.rerunDisturbed) judgeCells(cells, { thresholdPct: run.disturbancePct, cores: options.cores });
    const step = nextStep(cells, policy);
    if (step.kind === 'done') return cells;
    if (step.kind === 'finalize') {
      // Under run.topUp 'decision' the target is a decision, which the tables mark, not a margin.
      finalizeCells(cells, { processesPerCell: run.processes, targetRme: run.topUp === 'decision' ? null : targetOf(run), budgetLimited: budgetLimitedCells(cells, policy) });
      await options.save();
      continue;
    }
    const ahead = knownAhead(cells, policy, step);
    for (let i = 0; i < step.launches.length;) {
      if (shouldStop()) return cells;
      // Launches of one group (run.pairing, pairing.js) run at the same time, one per core.
      const batch = [step.launches[i]];
      while (batch[0].group && step.launches[i + batch.length]?.group === batch[0].group) batch.push(step.launches[i + batch.length]);
      const total = done + (step.launches.length - i) + ahead;
      i += batch.length;
      const wanted = batch.filter((launch) => stillWanted(byId.get(launch.cellId), launch));
      done += batch.length - wanted.length;
      if (!wanted.length) continue;
      for (const launch of wanted) {
        progress({ done, total, cell: byId.get(launch.cellId), starting: true, round: launch.round });
        noteLaunch(byId.get(launch.cellId), launch);
      }
      // A partner whose cell failed meanwhile is not waited for: the other runs alone.
      const alone = wanted.length === 1 ? [{ ...wanted[0], group: undefined, cpu: undefined, duetWith: undefined }] : wanted;
      const outcomes = await Promise.all(alone.map((launch) => launcher.launch(launch, byId.get(launch.cellId))));
      // A process killed by the interruption is not evidence about the benchmark.
      if (shouldStop()) return cells;
      alone.forEach((launch, k) => {
        const cell = byId.get(launch.cellId);
        recordOutcome(cell, launch, outcomes[k]);
        done++;
        progress({ done, total, cell, outcome: launch.kind === 'metrics' ? { status: 'ok' } : outcomes[k] });
      });
      if (now() - lastSave >= SAVE_EVERY_MS) {
        lastSave = now();
        await options.save();
      }
    }
  }
}
