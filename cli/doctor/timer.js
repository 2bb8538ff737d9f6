// Timer resolution of the runtime under test: the smallest step of process.hrtime() as
// worker/clock.js resolutionNs() finds it (median of 25 spins), measured INSIDE the runtime by every
// worker process the doctor starts; the doctor reports the median over those processes.
import { median } from '../stats/basic.js';

export function timerResolution(records) {
  const values = records.map((r) => r.clockResolutionNs).filter((x) => typeof x === 'number' && x > 0);
  return {
    ns: values.length ? median(values) : null,
    min: values.length ? Math.min(...values) : null,
    max: values.length ? Math.max(...values) : null,
    method: `smallest step of process.hrtime() (worker/clock.js resolutionNs: median of 25 spins until the clock changes), measured inside the runtime in ${values.length} worker processes; median over processes`
  };
}

// One sample lasts at least minSampleMs; the clock's step is this share of it (a quantisation error bound).
export function resolutionShareOfSample(resolutionNs, minSampleMs) {
  return resolutionNs / (minSampleMs * 1e6);
}
