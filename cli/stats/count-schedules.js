// Processes of a cell counted in instructions that took different decisions. A counted process
// decides its batches on counts (worker/instructions.js: the iterations per batch, when the warm-up
// ends), and a count that lands within a few parts per million of a threshold goes either way: a
// warm-up of four batches summing to within 5,000 instructions of the 200M cap ran a fifth in one
// process of two (0.58% apart; promises/pipeline-concurrent-bluebird on 16.20.2), one gc process on
// Node 6 warmed up in 2 batches where the others took 3 and counted 80% more per operation
// (2026-11-28, docs/instructions.md). Such a process did other work than its cell's others, the way
// a process on a disturbed machine is timed on another machine: with two processes that disagree,
// one more is run (policy/policy.js), and where two or more with the same schedule agree, a process
// with another schedule that counts apart from them is set aside (results/cell.js), its counts kept
// in the file. Processes that disagree with the same schedule (time-dependent work) are left as
// they are, with count-varies.
import { processValue, COUNT_VARIES } from './summary.js';
import { mean } from './basic.js';

// The decisions a counted process took before its samples, as its record keeps them.
export const scheduleOf = (p) => `${p.iterationsPerSample} per batch, ${p.calibrationBatches ?? 0} calibration and ${p.warmup?.batches ?? 0} warm-up batches`;

const spread = (values) => Math.max(...values) / Math.min(...values) - 1;
// The processes the rule weighs: counted ones not set aside as disturbed (one set aside for its
// schedule is weighed again, as a resumed cell's majority may have changed).
const counted = (processes) => processes.filter((p) => p.measure === 'instructions' && (!p.setAside || p.setAside.kind === 'schedule'));
// A value the rule can compare (a crafted file may hold a process without counts).
const comparable = (processes) => processes.every((p) => processValue(p) > 0 && Number.isFinite(processValue(p)));

function bySchedule(processes) {
  const groups = new Map();
  for (const p of processes) groups.set(scheduleOf(p), [...(groups.get(scheduleOf(p)) || []), p]);
  return [...groups.values()].sort((a, b) => b.length - a.length);
}

// { odd: processes to set aside, kept: the schedule the agreeing processes took, reference: their
// mean count } or null unless more than half of the processes took one schedule and agree (so a
// cell keeps more than half of its processes: stats/compare.js selectionShift stays out of it).
export function oddSchedules(processes) {
  const live = counted(processes);
  const groups = bySchedule(live);
  if (groups.length < 2 || groups[0].length < 2 || groups[0].length * 2 <= live.length || !comparable(live)) return null;
  const values = groups[0].map((p) => processValue(p));
  if (spread(values) > COUNT_VARIES) return null;
  const reference = mean(values);
  const odd = groups.slice(1).flat().filter((p) => Math.abs(processValue(p) / reference - 1) > COUNT_VARIES);
  return odd.length ? { odd, kept: scheduleOf(groups[0][0]), reference } : null;
}

// Whether one more process would tell which schedule is the cell's: its counted processes disagree
// by more than COUNT_VARIES, took more than one schedule, and none has a majority yet.
// (The policy asks once per cell: a cell whose extra process failed keeps what it has.)
export function wantsTieBreak(processes) {
  const live = counted(processes);
  if (live.length < 2 || live.length !== processes.length || !comparable(live)) return false;
  if (spread(live.map((p) => processValue(p))) <= COUNT_VARIES) return false;
  return bySchedule(live).length > 1 && !oddSchedules(live);
}

// The processes oddSchedules would set aside, none where it would not.
export const scheduleOutliers = (processes) => oddSchedules(processes)?.odd ?? [];

// The reason a set-aside process carries (record.setAside, kind 'schedule').
export function scheduleReason(process, { kept, reference }) {
  const apart = (processValue(process) / reference - 1) * 100;
  return `it took other decisions than the cell's agreeing processes (${scheduleOf(process)}, against ${kept}) and counted ${Math.abs(apart).toFixed(2)}% ${apart > 0 ? 'more' : 'fewer'} instructions per operation: a count that lands within parts per million of one of the sampler's thresholds goes either way, or the process did other work (docs/instructions.md)`;
}
