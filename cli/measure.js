// The two measures a run can take (run.measure), as data every layer asks instead of assuming time:
//   time          ns per operation from the clock: what users feel, and what the host moves (a shared
//                 2-core VM ran the same process 2x apart, docs/precision.md);
//   instructions  instructions per operation counted under valgrind (cli/runner/valgrind.js): exact
//                 on any host, blind to the kernel, to waiting and to concurrency (valgrind runs a
//                 process's threads one at a time), never to be shown as time.
// A cell's value is its cost per operation in the measure's unit; its "rate" (1e9 / cost: operations
// per second, or per 10^9 instructions) is what ratios compare, so a ratio above 1 is less time or
// fewer instructions, and the verdicts faster/slower read "fewer/more instructions" for the second.
import { formatRate } from './text/format.js';

const METRIC = [[1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
export function formatCount(n) {
  if (!Number.isFinite(n)) return 'n/a';
  for (const [size, suffix] of METRIC) if (Math.abs(n) >= size) return `${(n / size).toPrecision(3)}${suffix}`;
  return Math.abs(n) >= 100 ? n.toFixed(0) : n.toPrecision(3);
}

export const MEASURES = {
  time: {
    id: 'time',
    unit: 'ns/op',
    // What a table's value column says, and how one value reads.
    valueHeader: 'ops/s',
    valueText: (summary) => formatRate(rateOf(summary)),
    // The relative spread two processes of one cell show when nothing disturbs them: none assumed.
    repeatability: 0,
    // The band of "same" (stats/decision.js EQUIVALENCE) unless the user gives --equivalence.
    equivalence: 0.02,
    // Between two result files: drift is estimated (stats/drift-estimate.js).
    between: 'estimated drift'
  },
  instructions: {
    id: 'instructions',
    unit: 'instructions/op',
    valueHeader: 'instr/op',
    valueText: (summary) => formatCount(summary.estimate),
    // Counts of one process repeat to a few parts per million for deterministic code (2026-11-27:
    // 5 ppm on Node 4 to 24, 75 ppm for gc/young-gen-churn); 0.05% per process is the floor every
    // interval keeps, so that two counts a few ppm apart are never "decided" different.
    repeatability: 0.0005,
    equivalence: 0.01,
    between: 'the count\'s repeatability'
  }
};

export const DEFAULT_MEASURE = 'time';

// The measure of a result (its run options), of a cell's processes, or by name.
export const measureNamed = (name) => MEASURES[name || DEFAULT_MEASURE] || MEASURES[DEFAULT_MEASURE];
export const measureOfResult = (result) => measureNamed(result?.run?.measure);
export const measureOfCell = (cell) => measureNamed(cell?.measure);

// A summary's rate: operations per 10^9 units of its measure (ops/s for time).
export const rateOf = (summary) => (summary?.estimate > 0 ? 1e9 / summary.estimate : NaN);
