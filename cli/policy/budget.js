// The run's wall-time budget (run.timeBudgetMin). The first `processes` rounds always run: they are
// what every cell's interval needs. What a noisy machine makes elastic (replacements of disturbed
// processes, top-up rounds for cells above targetRme) is planned against the time left, keeping
// room for the metrics processes, so that a bad day on a shared CI runner gives wider margins that
// say so, not a run twice as long. On a quiet machine the budget is not reached.
// Costs are what this run's own processes of the same cell took (wallMs), so they follow the machine.
import { median } from '../stats/basic.js';

const FALLBACK_PROCESS_MS = 1000;
const MOST_PROCESSES = 100; // run.maxProcesses' own upper bound (options.js)

// ms one more timing process of `cell` is expected to take.
export function processCostMs(cell, fallbackMs = FALLBACK_PROCESS_MS) {
  const walls = cell.processes.map((p) => p.wallMs).filter((ms) => typeof ms === 'number' && ms > 0);
  return walls.length ? median(walls) : fallbackMs;
}

// ms a metrics process of `cell` is expected to take: a timing process's start-up, set-up and
// warm-up, with the metrics window in place of its sampling.
export function metricsCostMs(cell, windowMs, fallbackMs = FALLBACK_PROCESS_MS) {
  const overheads = cell.processes
    .filter((p) => typeof p.wallMs === 'number' && typeof p.sampleMs === 'number')
    .map((p) => Math.max(0, p.wallMs - p.sampleMs));
  return (overheads.length ? median(overheads) : fallbackMs) + windowMs;
}

// The most processes a cell may keep. maxProcesses is the ceiling of a cell whose process costs the
// run's median process; a cheaper one may keep up to maxProcesses × (median cost / its cost), at most
// run.cheapFactor times maxProcesses, because the same seconds buy it that many more processes: a
// promises cell at 0.28 s per process reaches ±2% with 12-15 processes in the time a gc cell spends
// on 4. A dearer cell keeps maxProcesses (its margin is what the budget's priority, topUpPriority,
// weighs against what it costs). Derived from the cells alone, so a resumed run agrees with itself.
export function processCeilings(cells, run) {
  const maxProcesses = Math.max(run.maxProcesses, run.processes);
  const factor = run.cheapFactor ?? 1;
  const costs = cells.filter((c) => c.processes.some((p) => p.wallMs > 0)).map((c) => processCostMs(c));
  const typicalMs = costs.length ? median(costs) : null;
  const bound = ceilingBound(run);
  return (cell) => {
    if (typicalMs === null || factor <= 1 || maxProcesses === run.processes || !cell.processes.some((p) => p.wallMs > 0)) return maxProcesses;
    const cheapness = Math.min(factor, typicalMs / processCostMs(cell));
    return Math.min(bound, Math.max(maxProcesses, Math.floor(maxProcesses * cheapness)));
  };
}

// The most processes any cell of `run` may keep (processCeilings' upper bound).
export function ceilingBound(run) {
  const maxProcesses = Math.max(run.maxProcesses, run.processes);
  if (maxProcesses === run.processes) return maxProcesses;
  return Math.min(MOST_PROCESSES, Math.floor(maxProcesses * Math.max(1, run.cheapFactor ?? 1)));
}

// budgetMin: run.timeBudgetMin (undefined or null: no budget). now: a clock, for tests.
export function createBudget(budgetMin, { now = () => Date.now() } = {}) {
  const limited = typeof budgetMin === 'number' && budgetMin > 0;
  const deadline = limited ? now() + budgetMin * 60_000 : Infinity;
  const state = { limited, budgetMin: limited ? budgetMin : null, skipped: { replacements: 0, topUps: 0 }, reached: false };
  const skippedKeys = { replacements: new Set(), topUps: new Set() };
  return {
    state,
    endsAt: limited ? deadline : null,
    // ms left before the deadline once `reserveMs` (e.g. the metrics processes) is set aside.
    leftMs(reserveMs = 0) {
      return deadline - now() - reserveMs;
    },
    // The longest prefix of `items` (in the order given) whose costs fit in the time left; what does
    // not fit is counted under `kind` in state.skipped, once per `key` however often it is offered.
    fit(items, costOf, { reserveMs = 0, kind, key = (item) => item }) {
      if (!limited) return items;
      let left = this.leftMs(reserveMs);
      const taken = [];
      for (const item of items) {
        const cost = costOf(item);
        if (cost > left) break;
        left -= cost;
        taken.push(item);
      }
      if (taken.length < items.length) {
        state.reached = true;
        for (const item of items.slice(taken.length)) skippedKeys[kind].add(key(item));
        state.skipped[kind] = skippedKeys[kind].size;
      }
      return taken;
    }
  };
}

// The order in which imprecise cells get a top-up process when not all fit: the largest expected
// narrowing of the margin per ms first. One more process takes a margin from rme to about
// rme * sqrt(n / (n + 1)); costMs includes what else the cell brings (its row's baseline process).
export function topUpPriority(rme, kept, costMs) {
  return (rme * (1 - Math.sqrt(kept / (kept + 1)))) / Math.max(costMs, 1);
}
