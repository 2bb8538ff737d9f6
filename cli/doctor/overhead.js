// Harness overhead per operation: an empty benchmark measured through the real worker and sampler
// at the default budget. Whatever ns/op it shows is nodebench's own cost (the batch loop, the call,
// the store into the sampler's sink), included in every sync benchmark's figure.
import { measureFixture, FIXTURES } from './probe.js';
import { samplerOptions } from '../options.js';

export async function harnessOverhead(runtime, { processes = 3, sampler = samplerOptions(), onProcess } = {}) {
  const measured = await measureFixture(runtime, FIXTURES.empty, { processes, sampler, onProcess });
  const s = measured.summary;
  return {
    measured,
    result: {
      nsPerOp: s.estimate,
      ci: { level: s.ci.level, low: s.ci.low, high: s.ci.high },
      processMedians: s.processMedians,
      processes: s.processes,
      method: `an empty sync benchmark (worker/fixtures/empty.js) through worker/sampler.js at the default budget (${sampler.samples} samples of >= ${sampler.minSampleMs} ms), ${s.processes} processes; mean of per-process medians, ${s.ci.method}`
    }
  };
}
