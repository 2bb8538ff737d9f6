// Repetition counts of bench/harness.js per mode. The full mode is sized to finish in about 11
// minutes on a 2-core machine (a loaded one takes longer; the limit we aim under is 25); --quick is
// 3-4 minutes; --smoke is a shape check for the tests (tiny counts, a short budget: its figures
// mean nothing).
import { QUICK_RUN } from '../../cli/engine.js';

export const MODES = {
  full: {
    aaPairs: 30, // A/A: pairs of separate engine invocations of the same cell
    sensitivityReps: 35, // invocations with base, base-again, +2%, +5% (interleaved in one run)
    // +2% (and +5%) again at larger processes-per-cell settings: what would meet the targets
    wide: [{ processes: 6, reps: 10, variants: ['plus-2pct', 'plus-5pct'] }, { processes: 10, reps: 10, variants: ['plus-2pct'] }],
    agreementRuns: 8, // estimates per tool per function size
    overheadRuns: 4, // estimates per tool of the empty benchmark
    cost: 'slice', // time `nodebench matrix` (--quick and default) on one suite, all runtimes
    run: {}, // the default budget (DEFAULT_RUN)
    maxToolWallMs: Infinity
  },
  quick: {
    aaPairs: 6,
    sensitivityReps: 6,
    wide: [{ processes: 6, reps: 2, variants: ['plus-2pct', 'plus-5pct'] }, { processes: 10, reps: 2, variants: ['plus-2pct'] }],
    agreementRuns: 3,
    overheadRuns: 2,
    cost: 'host', // one suite on the host runtime only
    run: {},
    maxToolWallMs: Infinity
  },
  smoke: {
    aaPairs: 2,
    sensitivityReps: 1,
    wide: [{ processes: 3, reps: 1, variants: ['plus-2pct'] }],
    agreementRuns: 2,
    overheadRuns: 1,
    cost: 'none',
    run: { ...QUICK_RUN, processes: 2 },
    maxToolWallMs: 400
  }
};
