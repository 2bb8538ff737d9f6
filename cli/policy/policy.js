// The launch policy: which processes run next, decided from the cells and their processes so far,
// the run's options, the time budget and its clock, and nothing else. It never launches and never
// changes a cell (the loop in run-loop.js does both, through results/cell.js); asked again after a
// batch has run, it reads what that batch recorded. Because it keeps no state of its own, a
// resumed run continues exactly where the file says it stopped.
//
// The order it produces:
//   1. `processes` rounds, each one process of every pending cell, in blocks (schedule.js); after a
//      round has passed, the processes of the rounds before it that ran on a disturbed machine are
//      replaced (a replacement right after the process it replaces would land in the same slow
//      period of the machine, which lasts minutes); then every disturbed process is replaced;
//      a cell counted in instructions whose processes took different schedules and disagree gets
//      one more process (tieBreaks);
//   2. top-up rounds, up to each cell's ceiling (maxProcesses, more for a cell cheaper than the
//      run's median process: budget.js processCeilings), for cells whose margin is above targetRme and their
//      row's baseline cell (it keeps the ratio's pairs), each round followed by the replacements
//      of the rounds before it;
//   3. the last replacements, then `finalize` (pending cells become ok);
// Each cell gets at most as many replacements as first-round processes.
//   4. the metrics processes of ok micro-benchmark cells, in rounds (every cell's first, shuffled,
//      then every cell's second, ...), so that drift spreads over all cells.
// Under a time budget, replacements and top-ups are launched only while they fit in the time left
// after what must still run (the first rounds and the metrics processes): budget.js.
import { scheduleRound } from './schedule.js';
import { shuffle, prng } from '../stats/random.js';
import { columnKey, rowKey, keptProcesses, perProcessOf } from '../cell-identity.js';
import { logInterval } from '../stats/robust.js';
import { processValue } from '../stats/summary.js';
import { currentSummary, variancePriors } from '../results/cell.js';
import { processCostMs, metricsCostMs, topUpPriority, processCeilings, ceilingBound } from './budget.js';
import { hasSlot, roundLaunches, arrangeReplacements } from './pairing.js';
import { pairedRatio, pairedPrior } from '../stats/compare.js';
import { judgeAll } from '../stats/decision.js';
import { wantsTieBreak } from '../stats/count-schedules.js';

// How many metrics processes a cell gets: run.metricsProcesses, or more where its suite's findings
// are its metrics (suite sampler.metricsProcesses, e.g. gc); none for a service cell (it measures
// CPU and memory during its load) or a command (its probe measures them), or without run.metrics.
export function metricsWanted(cell, { run, suites }) {
  const suite = suites.get(cell.suite);
  if (!run.metrics || suite.service || suite.kind === 'command') return 0;
  return Math.max(run.metricsProcesses ?? 1, suite.sampler?.metricsProcesses ?? 1);
}

// Metrics processes a cell has run (a file from before several were kept has one, unlisted).
export const metricsDone = (cell) => (cell.metrics ? cell.metrics.processes?.length ?? 1 : 0);
const lacksMetrics = (cell, options) => metricsDone(cell) < metricsWanted(cell, options);

// A suite whose findings are its metrics (gc) may ask for a longer window than the run's.
const metricsWindowMs = (suite, runMetricsMs) => suite.sampler?.metricsMs ?? runMetricsMs;

const firstRounds = (cell) => cell.processes.filter((p) => !p.rerun);
const lastRound = (cells) => Math.max(-1, ...cells.flatMap((c) => firstRounds(c).map((p) => p.round)));

// The first of the `processes` rounds with a launch still to make, and its launches; null when
// every round has run.
function missingRound(pending, options) {
  for (let round = 0; round < options.run.processes; round++) {
    const launches = roundLaunches(pending, round, options);
    if (launches.length) return { round, launches };
  }
  return null;
}

// What must still run whatever the budget: the first rounds' processes and the metrics processes.
function reserveMs(cells, options) {
  const { run, suites } = options;
  let ms = 0;
  for (const cell of cells) {
    if (cell.status === 'pending') {
      const missing = run.processes - firstRounds(cell).filter((p) => p.round < run.processes).length;
      ms += Math.max(0, missing) * processCostMs(cell);
    }
    if (cell.status === 'pending' || cell.status === 'ok') {
      const missing = Math.max(0, metricsWanted(cell, options) - metricsDone(cell));
      ms += missing * metricsCostMs(cell, metricsWindowMs(suites.get(cell.suite), run.metricsMs));
    }
  }
  return ms;
}

// Processes set aside as disturbed whose round `due` accepts, not yet replaced, within each cell's
// rerun budget (as many replacements as first-round processes), in blocks like a round so that a
// row whose every column was slow is replaced together. A replacement keeps the round of the
// process it replaces, so that the row's pairs hold.
function replacements(cells, pending, due, options) {
  const { run, budget } = options;
  if (!run.rerunDisturbed) return [];
  const candidates = [];
  const ceiling = processCeilings(cells, run);
  for (const cell of pending) {
    // A cell with its ceiling of quiet processes (top-ups came after the disturbed one) has enough.
    if (keptProcesses(cell).length >= ceiling(cell)) continue;
    let left = run.processes - cell.processes.filter((p) => p.rerun).length;
    for (const record of cell.processes) {
      if (left <= 0) break;
      if (!record.setAside || record.replaced || !due(record.round)) continue;
      left--;
      candidates.push({ cell, round: record.round, duetWith: record.duetWith });
    }
  }
  if (!candidates.length) return [];
  const order = new Map(scheduleRound(candidates.map((c) => c.cell), 0, run.seed + 1).map((l, i) => [l.cellId, i]));
  candidates.sort((x, y) => order.get(x.cell.id) - order.get(y.cell.id) || x.round - y.round);
  const taken = budget.fit(candidates, (c) => processCostMs(c.cell), {
    reserveMs: reserveMs(cells, options), kind: 'replacements', key: (c) => `${c.cell.id}@${c.round}/${c.duetWith ?? ''}`
  });
  const launches = taken.map((c) => ({ cellId: c.cell.id, kind: 'timing', round: c.round, rerunOf: c.round, duetWith: c.duetWith }));
  return arrangeReplacements(launches, new Map(cells.map((c) => [c.id, c])), options);
}

// One more process, once, for each counted cell whose processes took different schedules and
// disagree with no majority yet (stats/count-schedules.js): the round after the first ones.
function tieBreaks(pending, options) {
  const { run } = options;
  const due = pending.filter((c) => c.measure === 'instructions' && !c.tieBreak && !firstRounds(c).some((p) => p.round >= run.processes) && wantsTieBreak(c.processes));
  return due.length ? roundLaunches(due, run.processes, options).map((launch) => ({ ...launch, tieBreak: true })) : [];
}

// With no room for more processes (--quick), there is no target to miss.
export function targetOf(run) {
  return ceilingBound(run) > run.processes ? run.targetRme : null;
}

// The cells a top-up round is for, each with the margin that more processes would narrow:
//   run.topUp 'margin'    cells whose own margin is above targetRme;
//   run.topUp 'decision'  cells whose ratio to their row's baseline is still undecided (neither
//                         faster/slower at the run's false discovery rate nor the same within the
//                         equivalence band: stats/decision.js, the definition the tables and diff
//                         use), by the ratio's margin; a cell with no baseline to compare with
//                         (the baseline column itself, a row without it) by its own margin.
// Pinpoint's rule: more processes where a comparison is not yet decided, none where it is.
function wanting(cells, pending, options) {
  const { run, baselineKey } = options;
  const targetRme = targetOf(run);
  const ceiling = processCeilings(cells, run);
  const priors = variancePriors(cells);
  // Below its ceiling in kept processes and in rounds: a cell whose processes keep being set aside
  // as disturbed would otherwise get top-up after top-up (a gc cell reached 18 rounds for a ceiling
  // of 6 at load 4-6, 2026-11-24).
  const room = (cell) => keptProcesses(cell).length < ceiling(cell) && firstRounds(cell).length < ceiling(cell);
  const byMargin = (cell) => ({ cell, rme: currentSummary(cell, priors).rme, kept: keptProcesses(cell).length });
  if (run.topUp !== 'decision') return pending.filter(room).map(byMargin).filter((c) => c.rme > targetRme);
  const isBaseline = (c) => columnKey(c) === baselineKey;
  const baselineOf = new Map(cells.filter((c) => isBaseline(c) && c.processes.length && (c.status === 'pending' || c.status === 'ok')).map((c) => [rowKey(c), c]));
  const compared = pending.filter((c) => !isBaseline(c) && baselineOf.has(rowKey(c)) && c.processes.length);
  const bySuite = new Map();
  for (const cell of compared) bySuite.set(cell.suite, [...(bySuite.get(cell.suite) || []), [baselineOf.get(rowKey(cell)), cell]]);
  const priorOf = new Map([...bySuite].map(([suite, pairs]) => [suite, pairedPrior(pairs)]));
  const ratios = compared.map((cell) => pairedRatio(baselineOf.get(rowKey(cell)), cell, priorOf.get(cell.suite)));
  const { judged } = judgeAll(ratios);
  const undecided = compared.map((cell, i) => ({ cell, rme: ratios[i].rme, kept: keptProcesses(cell).length, verdict: judged[i].verdict }))
    .filter((c) => c.verdict === 'undecided' && room(c.cell) && Number.isFinite(c.rme));
  const alone = pending.filter((c) => !compared.includes(c) && !(isBaseline(c) && compared.some((o) => rowKey(o) === rowKey(c))) && room(c))
    .map(byMargin).filter((c) => c.rme > targetRme);
  return [...undecided, ...alone];
}

// One top-up round: the cells `wanting` says (the most narrowing per ms first, within the budget)
// and their rows' baseline cells.
function topUps(cells, pending, round, options) {
  const { run, budget, baselineKey } = options;
  const targetRme = targetOf(run);
  if (!targetRme || round >= ceilingBound(run)) return [];
  const imprecise = wanting(cells, pending, options);
  if (!imprecise.length) return [];
  const isBaseline = (c) => columnKey(c) === baselineKey;
  const baselineOf = new Map(pending.filter(isBaseline).map((c) => [rowKey(c), c]));
  // A top-up launches its row's baseline process too: the cost of a cell is its own process and,
  // once per row, the baseline's (nothing more for the baseline itself).
  const baselineCostMs = (c) => (baselineOf.has(rowKey(c)) ? processCostMs(baselineOf.get(rowKey(c))) : 0);
  const ownCostMs = (c) => (isBaseline(c) ? 0 : processCostMs(c));
  imprecise.sort((x, y) => topUpPriority(y.rme, y.kept, ownCostMs(y.cell) + baselineCostMs(y.cell))
    - topUpPriority(x.rme, x.kept, ownCostMs(x.cell) + baselineCostMs(x.cell)));
  const rowsCharged = new Set();
  const taken = budget.fit(imprecise, ({ cell }) => {
    const cost = ownCostMs(cell) + (rowsCharged.has(rowKey(cell)) ? 0 : baselineCostMs(cell));
    rowsCharged.add(rowKey(cell));
    return cost;
  }, { reserveMs: reserveMs(cells, options), kind: 'topUps', key: (c) => `${c.cell.id}@${round}` });
  if (!taken.length) return [];
  const chosen = new Set(taken.map((c) => c.cell));
  const rows = new Set(taken.map((c) => rowKey(c.cell)));
  for (const cell of pending) if (isBaseline(cell) && rows.has(rowKey(cell))) chosen.add(cell);
  return roundLaunches([...chosen], round, options);
}

// A hang should cost seconds, not run.timeoutSec: once a cell has processes, the next one may take
// HANG_FACTOR times what they took (at least HANG_FLOOR_MS), never more than run.timeoutSec.
const HANG_FACTOR = 5;
const HANG_FLOOR_MS = 10_000;

// { timeoutMs, expectedMs? } for a launch of `cell`: expectedMs is what the cell's processes took,
// when the limit comes from it.
export function launchTimeout(cell, run, launch) {
  const capMs = run.timeoutSec * 1000;
  if (!cell.processes.some((p) => p.wallMs > 0)) return { timeoutMs: capMs };
  const expectedMs = launch.kind === 'metrics' ? metricsCostMs(cell, launch.windowMs) : processCostMs(cell);
  const adaptiveMs = Math.max(HANG_FLOOR_MS, HANG_FACTOR * expectedMs);
  return adaptiveMs < capMs ? { timeoutMs: adaptiveMs, expectedMs } : { timeoutMs: capMs };
}

// A launch the loop should still make when its turn comes: an earlier launch of the same batch may
// have failed the cell.
export function stillWanted(cell, launch) {
  if (launch.kind === 'metrics') return cell.status === 'ok' && metricsDone(cell) === launch.metricsIndex;
  return cell.status === 'pending' && (launch.rerunOf !== undefined || !hasSlot(cell, launch.round, launch.duetWith));
}

// The next step of the run:
//   { kind: 'launch', phase, launches: [{ cellId, kind: 'timing' | 'metrics', round, rerunOf?,
//                                          timeoutMs, expectedMs? (launchTimeout), windowMs? }] }
//   { kind: 'finalize' }  every pending cell is done measuring: finalize them (results/cell.js)
//   { kind: 'done' }
// phase: 'round' | 'replacements' | 'topUps' | 'metrics'.
// options: { run (complete run options), suites (name -> { service, sampler }), baselineKey,
//            budget (budget.js createBudget) }
export function nextStep(cells, options) {
  const { run } = options;
  const pending = cells.filter((c) => c.status === 'pending');
  const byId = new Map(cells.map((c) => [c.id, c]));
  const launch = (phase, launches) => ({ kind: 'launch', phase, launches: launches.map((l) => ({ ...l, ...launchTimeout(byId.get(l.cellId), run, l) })) });
  if (pending.length) {
    const missing = missingRound(pending, options);
    if (missing) {
      const replace = missing.round >= 2 ? replacements(cells, pending, (r) => r < missing.round - 1, options) : [];
      if (replace.length) return launch('replacements', replace);
      return launch('round', missing.launches);
    }
    const ties = tieBreaks(pending, options);
    if (ties.length) return launch('tieBreaks', ties);
    // Once the first rounds are done every disturbed process is due before the first top-up round
    // (which cells need more depends on it); after a top-up round, those of the rounds before it.
    const last = lastRound(pending);
    const settled = replacements(cells, pending, last < run.processes ? () => true : (r) => r < last, options);
    if (settled.length) return launch('replacements', settled);
    const more = topUps(cells, pending, last + 1, options);
    if (more.length) return launch('topUps', more);
    const rest = replacements(cells, pending, () => true, options);
    if (rest.length) return launch('replacements', rest);
    return { kind: 'finalize' };
  }
  const lacking = cells.filter((c) => c.status === 'ok' && lacksMetrics(c, options));
  if (lacking.length) {
    const index = Math.min(...lacking.map(metricsDone));
    const due = lacking.filter((c) => metricsDone(c) === index);
    const windowMs = new Map(due.map((c) => [c.id, metricsWindowMs(options.suites.get(c.suite), run.metricsMs)]));
    return launch('metrics', shuffle(due.map((c) => c.id), prng(run.seed + 1 + index))
      .map((cellId) => ({ cellId, kind: 'metrics', round: ceilingBound(run) + index, metricsIndex: index, windowMs: windowMs.get(cellId) })));
  }
  return { kind: 'done' };
}

// Launches known to be ahead that are not part of `step` (for the progress line's ETA): the first
// rounds' processes and the metrics processes. Replacements and top-ups are counted as they come.
export function knownAhead(cells, options, step) {
  const { run } = options;
  let n = 0;
  for (const cell of cells) {
    if (cell.status === 'pending') {
      n += Math.max(0, run.processes - firstRounds(cell).filter((p) => p.round < run.processes).length);
    }
    if (cell.status === 'pending' || cell.status === 'ok') n += Math.max(0, metricsWanted(cell, options) - metricsDone(cell));
  }
  const counted = step?.kind === 'launch' && (step.phase === 'round' || step.phase === 'metrics') ? step.launches.length : 0;
  return n - counted;
}

// The cells the budget left short: above the target with room for more processes, in a run whose
// budget was reached (without a budget, top-ups go on until the target or maxProcesses).
export function budgetLimitedCells(cells, options) {
  const { run, budget } = options;
  if (!budget.state.reached) return new Set();
  const ceiling = processCeilings(cells, run);
  const priors = variancePriors(cells);
  return new Set(cells.filter((c) => c.status === 'pending' && keptProcesses(c).length < ceiling(c)
    && currentSummary(c, priors).rme > targetOf(run)).map((c) => c.id));
}

// A process of a cell measured in no round yet costs what the measured cells of its suite cost (else
// all measured cells), drawn toward budget.js's 1 s while few are measured: the first cell of the
// default matrix may be a 3 s gc cell, and taken for typical it made the first estimate 2x too long.
// A process counted under valgrind costs far more: 14.4 s of CPU on average in a default matrix of
// instructions (3,495 s for 242 processes, 2026-11-28), its wall time on 2 idle cores two at once;
// drawn toward 1 s, the first estimate of two such matrices side by side was "~8m31s left" of an hour.
const PRIOR_CELLS = 5;
const FALLBACK_COST_MS = { time: 1000, instructions: 15_000 };
// Of the processes still to run, the share that will be set aside as disturbed and replaced: what
// the run saw so far, drawn toward 10% while it has seen few.
const PRIOR_DISTURBED = 0.1;
const PRIOR_PROCESSES = 10;

function typicalCosts(cells, costOf) {
  const measured = cells.filter((c) => c.processes.some((p) => p.wallMs > 0));
  const fallbackMs = FALLBACK_COST_MS[cells.some((c) => c.measure === 'instructions') ? 'instructions' : 'time'];
  const shrunk = (group) => (group.reduce((sum, c) => sum + costOf(c), 0) + PRIOR_CELLS * fallbackMs) / (group.length + PRIOR_CELLS);
  const bySuite = new Map();
  for (const cell of measured) bySuite.set(cell.suite, [...(bySuite.get(cell.suite) || []), cell]);
  const overall = shrunk(measured);
  return (cell) => (cell.processes.some((p) => p.wallMs > 0) ? costOf(cell) : bySuite.has(cell.suite) ? shrunk(bySuite.get(cell.suite)) : overall);
}

// The time the rest of the run is expected to take, for the progress line: { ms, atLeast }.
//   must:     the first rounds' processes and the metrics processes not yet run, each at its cell's
//             cost (budget.js: what its processes took; typicalCosts for a cell not measured yet);
//   expected: replacements (processes set aside and not yet replaced within each cell's allowance,
//             and the share set aside so far of the timing processes still to come) and top-ups (per
//             cell above the target, the processes that bring its margin there, a margin narrowing
//             as 1/sqrt(processes), up to its ceiling; its row's baseline cell as many; a cell with
//             fewer than two kept processes as the mean of its suite's cells that have two).
// Under a time budget, replacements and top-ups run only while they fit before its end with what
// must run kept back (budget.js), so they add at most the budget left beyond what must run; while
// no cell has the two processes a margin needs, the budget is expected to be filled (a default
// matrix on a 2-core VM filled its 18.5 minutes). Without a budget and with nothing to judge top-ups
// by yet, what must run is a lower bound (atLeast). The old estimate, processes left at the mean time
// of those run, counted neither: "~8m45s left" at the start of a 19-minute default matrix.
// now, budgetEndsAt: epoch ms (budgetEndsAt null without a budget).
export function timeLeft(cells, options, { now, budgetEndsAt = null }) {
  const { run, suites } = options;
  // Processes of a duet or concurrent run go two at a time, and a pair takes its longer process.
  const paired = Boolean(run.pairing && run.pairing !== 'sequential');
  const timingCost = typicalCosts(cells, (c) => processCostMs(c));
  const overhead = typicalCosts(cells, (c) => metricsCostMs(c, 0));
  let mustMs = 0;
  let toCome = 0;
  const costsToCome = [];
  for (const cell of cells) {
    if (cell.status === 'pending') {
      const missing = Math.max(0, run.processes - firstRounds(cell).filter((p) => p.round < run.processes).length);
      for (let i = 0; i < missing; i++) costsToCome.push(timingCost(cell));
      toCome += missing;
    }
    if (cell.status === 'pending' || cell.status === 'ok') {
      const missing = Math.max(0, metricsWanted(cell, options) - metricsDone(cell));
      mustMs += missing * (overhead(cell) + metricsWindowMs(suites.get(cell.suite), run.metricsMs));
    }
  }
  // Per ms of processes, the ms they take: 1 one at a time; in pairs, half the longer of two drawn
  // from those to come over their mean.
  const perMs = paired ? longerOfTwo(costsToCome) / 2 : 1;
  mustMs += costsToCome.reduce((sum, ms) => sum + ms, 0) * perMs;
  const expected = expectedExtraMs(cells, options, { timingCost, toCome });
  const extraMs = expected === null ? null : expected * perMs;
  if (!budgetEndsAt) return extraMs === null ? { ms: mustMs, atLeast: true } : { ms: mustMs + extraMs, atLeast: false };
  const roomMs = Math.max(0, budgetEndsAt - now - mustMs);
  return { ms: mustMs + (extraMs === null ? roomMs : Math.min(extraMs, roomMs)), atLeast: false };
}

// The expected longer of two processes drawn from `costs`, over their mean (1 when they cost alike,
// up to 2): a pair of processes run at once ends with its longer one. The replayed instruction
// matrix of 2026-11-28 (07:49-08:21 UTC, 14.21.3 and 16.20.2, every suite) took 1.5x its
// processes' summed time over two, and its estimates said 0.66x of the time left.
function longerOfTwo(costs) {
  if (costs.length < 2) return 1;
  const sorted = [...costs].sort((a, b) => a - b);
  let longer = 0;
  let sum = 0;
  sorted.forEach((ms, i) => {
    longer += ms * i;
    sum += ms;
  });
  return longer / ((sorted.length * (sorted.length - 1)) / 2) / (sum / sorted.length);
}

// A cell's margin as currentSummary has it, from its interval alone (the summary's sample statistics
// took 30 ms a call for the default matrix's cells).
function marginOf(cell, priors) {
  const interval = logInterval(keptProcesses(cell).map((p) => Math.log(processValue(p, perProcessOf(cell)))), 'processes', priors.get(cell.suite) ?? null);
  return ((interval.high - interval.low) / 2 / interval.estimate) * 100;
}

// ms of the replacements and top-ups still expected (timeLeft), or null when top-ups may come and no
// cell has two kept processes yet to judge them by.
function expectedExtraMs(cells, options, { timingCost, toCome }) {
  const { run, baselineKey } = options;
  const pending = cells.filter((c) => c.status === 'pending');
  let ms = 0;
  let topUpsToCome = 0;
  const target = targetOf(run);
  if (target) {
    const ceiling = processCeilings(cells, run);
    const priors = variancePriors(cells);
    const needed = new Map();
    for (const cell of pending) {
      const kept = keptProcesses(cell).length;
      if (kept < 2) continue;
      const rme = marginOf(cell, priors);
      const more = rme > target ? Math.ceil(kept * (rme / target) ** 2) - kept : 0;
      needed.set(cell, Math.max(0, Math.min(more, ceiling(cell) - kept)));
    }
    const judged = [...needed.keys()];
    if (pending.length && !judged.length) return null;
    const meanOf = (group) => group.reduce((sum, c) => sum + needed.get(c), 0) / group.length;
    for (const cell of pending) {
      if (needed.has(cell)) continue;
      const sameSuite = judged.filter((c) => c.suite === cell.suite);
      needed.set(cell, meanOf(sameSuite.length ? sameSuite : judged));
    }
    // A top-up of a cell brings its row's baseline cell along: the baseline runs as many as the most
    // its row needs.
    const mostInRow = new Map();
    for (const cell of pending) if (columnKey(cell) !== baselineKey) mostInRow.set(rowKey(cell), Math.max(mostInRow.get(rowKey(cell)) ?? 0, needed.get(cell)));
    for (const cell of pending) {
      const count = columnKey(cell) === baselineKey ? Math.max(needed.get(cell), mostInRow.get(rowKey(cell)) ?? 0) : needed.get(cell);
      ms += count * timingCost(cell);
      topUpsToCome += count;
    }
  }
  if (run.rerunDisturbed) {
    const timing = cells.flatMap((c) => c.processes.filter((p) => Array.isArray(p.samplesNsPerOp)));
    const share = (timing.filter((p) => p.setAside).length + PRIOR_DISTURBED * PRIOR_PROCESSES) / (timing.length + PRIOR_PROCESSES);
    let waitingMs = 0;
    for (const cell of pending) {
      const allowance = Math.max(0, run.processes - cell.processes.filter((p) => p.rerun).length);
      const unreplaced = Math.min(allowance, cell.processes.filter((p) => p.setAside && !p.replaced).length);
      waitingMs += unreplaced * timingCost(cell);
    }
    const mean = pending.length ? pending.reduce((sum, c) => sum + timingCost(c), 0) / pending.length : 0;
    ms += waitingMs + share * (toCome + topUpsToCome) * mean;
  }
  return ms;
}
