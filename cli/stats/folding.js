// Is a benchmark measuring anything but the loop around it? Each timing process also times an
// empty benchmark of the same kind right after its samples (worker/sampler.js: same process, same
// JIT state, same iterations per batch); `emptyNsPerOp` in the process record. A benchmark whose
// fastest sample is within FOLDED_RATIO of the fastest empty batch, in the median process, costs no
// more than the loop: the runtime folded the work away (constant inputs) or removed it, and its rate
// (1.8 G ops/s on this machine) and every ratio it takes part in say nothing about the operation.
// Fastest against fastest, because a disturbed machine only slows a reading down.
// The line between the two is a fraction of a CPU cycle, so it moves with the host's processor: on an
// Intel host (2026-11-23) folded operations ran at 0.8-1.46x the empty loop on Node 4 to 24 and the
// cheapest real work at 1.9x and more; on an AMD EPYC (2026-11-29) Node 24's empty loop took 0.33 ns
// and everything it keeps of a folded body 1.55-1.61x that, real work on Node 8 to 24 2.15x and more
// (docs/statistics.md, bench/verdicts.js folding). 1.6 cut through Node 24's folded cells there.
import { median } from './basic.js';

export const FOLDED_RATIO = 1.8;

// pairs: per kept process { fastestNs, emptyNs } (processes without an empty reading left out).
// Returns { ratio, emptyNs, processes } or null when no process measured an empty benchmark.
export function foldingEvidence(pairs) {
  const usable = pairs.filter((p) => p.fastestNs > 0 && p.emptyNs > 0);
  if (!usable.length) return null;
  return {
    ratio: median(usable.map((p) => p.fastestNs / p.emptyNs)),
    emptyNs: median(usable.map((p) => p.emptyNs)),
    processes: usable.length
  };
}

export const looksFolded = (evidence) => Boolean(evidence) && evidence.ratio < FOLDED_RATIO;
