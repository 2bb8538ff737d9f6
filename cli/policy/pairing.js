// How the launches of a step share the machine (run.pairing), decided by the policy (policy.js):
//   sequential  one process at a time (the default): a process never competes with another of the run;
//   duet        the baseline cell of a row and one other cell of that row run at the same time, one
//               per core (pinned where taskset exists), as a pair: whatever slows the machine slows
//               both, and their ratio is taken from the pair (Bulej et al.'s duet benchmarking). The
//               baseline runs once per partner; a pair stands or falls together (a disturbed side
//               sets the other aside too, results/cell.js judgeCells);
//   concurrent  two unrelated processes (of different rows) at a time, one per core: both cores
//               used, no pairing; the control that tells duet's gain from merely running two at once.
// A launch that runs with another carries `group` (the same for both) and `cpu` (0 or 1); a duet
// launch also `duetWith` (the partner cell's id).
import { scheduleRound } from './schedule.js';
import { columnKey, rowKey } from '../cell-identity.js';
import { shuffle, prng } from '../stats/random.js';

export const PAIRINGS = ['sequential', 'duet', 'concurrent'];

const firstRounds = (cell) => cell.processes.filter((p) => !p.rerun);

// Whether the cell has its process of `round` (with `partner`, for a duet baseline, which has one
// per partner in each round).
export function hasSlot(cell, round, partner) {
  return firstRounds(cell).some((p) => p.round === round && (partner === undefined || p.duetWith === partner));
}

// Group ids are unique across runs and resumes: the two process records of a duet pair keep theirs
// (record.pair), which is how a pair is found again (judging, ratios).
const runTag = `${Date.now().toString(36)}${process.pid.toString(36)}`;
let groups = 0;
const group = () => `${runTag}.${++groups}`;

// Two launches of one group, on the two cores; which side gets which core alternates with `index`,
// so that a difference between the cores does not favour a column.
function together(a, b, index) {
  const id = group();
  const [cpuA, cpuB] = index % 2 ? [1, 0] : [0, 1];
  return [{ ...a, group: id, cpu: cpuA }, { ...b, group: id, cpu: cpuB }];
}

// Launches (one round's, in schedule order) of a duet: per row, the baseline paired with each
// other cell that needs the round; a cell without a baseline to pair with, alone.
function duetRound(pending, round, { baselineKey, seed }) {
  const rows = new Map();
  for (const cell of pending) {
    if (!rows.has(rowKey(cell))) rows.set(rowKey(cell), []);
    rows.get(rowKey(cell)).push(cell);
  }
  const random = prng(seed + round * 7919);
  const out = [];
  let index = 0;
  for (const cells of shuffle([...rows.values()], random)) {
    const base = cells.find((c) => columnKey(c) === baselineKey);
    const others = shuffle(cells.filter((c) => c !== base), random);
    for (const cell of others) {
      if (hasSlot(cell, round)) continue;
      const own = { cellId: cell.id, kind: 'timing', round };
      if (!base || hasSlot(base, round, cell.id)) {
        out.push(own);
        continue;
      }
      out.push(...together({ cellId: base.id, kind: 'timing', round, duetWith: cell.id }, { ...own, duetWith: base.id }, index++));
    }
    // A baseline whose row has no other cell to run this round still gets its process.
    if (base && !others.length && !hasSlot(base, round)) out.push({ cellId: base.id, kind: 'timing', round });
  }
  return out;
}

// Replacement launches of a duet: a replaced pair runs again as a pair; a lone one alone.
function duetReplacements(launches) {
  const out = [];
  const used = new Set();
  let index = 0;
  launches.forEach((l, i) => {
    if (used.has(i)) return;
    const j = l.duetWith === undefined ? -1 : launches.findIndex((m, k) => k > i && !used.has(k) && m.round === l.round && m.cellId === l.duetWith && m.duetWith === l.cellId);
    if (j < 0) {
      out.push(l);
      return;
    }
    used.add(j);
    out.push(...together(l, launches[j], index++));
  });
  return out;
}

// Launches of the concurrent control: consecutive launches of different rows, two at a time.
function concurrentPairs(launches, cellsById) {
  const out = [];
  let index = 0;
  for (let i = 0; i < launches.length; i++) {
    const next = launches[i + 1];
    if (next && rowKey(cellsById.get(launches[i].cellId)) !== rowKey(cellsById.get(next.cellId))) {
      out.push(...together(launches[i], next, index++));
      i++;
    } else {
      out.push(launches[i]);
    }
  }
  return out;
}

// A service launch loads its server from this host and a command may use every core: neither runs
// beside another process.
const pairable = (cell, suites) => {
  const suite = suites.get(cell.suite);
  return !suite.service && suite.kind !== 'command';
};

const sequentialRound = (cells, round, seed) => scheduleRound(cells.filter((c) => !hasSlot(c, round)), round, seed).map((l) => ({ ...l, kind: 'timing' }));

// The launches of one round (or top-up round) of `cells` in the run's pairing: in duet, each cell
// with its row's baseline (which must be among `cells`).
export function roundLaunches(cells, round, options) {
  const { run, baselineKey, suites } = options;
  if (!run.pairing || run.pairing === 'sequential') return sequentialRound(cells, round, run.seed);
  const paired = cells.filter((c) => pairable(c, suites));
  const alone = sequentialRound(cells.filter((c) => !pairable(c, suites)), round, run.seed);
  if (run.pairing === 'duet') return [...duetRound(paired, round, { baselineKey, seed: run.seed }), ...alone];
  return [...concurrentPairs(sequentialRound(paired, round, run.seed), new Map(cells.map((c) => [c.id, c]))), ...alone];
}

// Replacement launches in the run's pairing.
export function arrangeReplacements(launches, cellsById, { run, suites }) {
  if (run.pairing === 'duet') return duetReplacements(launches);
  if (run.pairing !== 'concurrent') return launches;
  const paired = launches.filter((l) => pairable(cellsById.get(l.cellId), suites));
  return [...concurrentPairs(paired, cellsById), ...launches.filter((l) => !paired.includes(l))];
}
