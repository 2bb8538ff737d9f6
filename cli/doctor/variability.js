// Run-to-run variability: the same fixed-work benchmark measured in several separate processes at the
// default budget; the coefficient of variation of the per-process medians is the noise a comparison
// of two cells has to see through (the process is the unit of evidence: stats/summary.js).
import { measureFixture, FIXTURES } from './probe.js';
import { samplerOptions } from '../options.js';
import { mean, sd } from '../stats/basic.js';

export async function runToRunVariability(runtime, { processes = 10, sampler = samplerOptions(), onProcess } = {}) {
  const measured = await measureFixture(runtime, FIXTURES.fixedWork, { processes, sampler, onProcess });
  const s = measured.summary;
  // Within one process: how much its samples scatter (median over processes of their CV).
  const within = measured.records.map((r) => cv(r.samplesNsPerOp)).sort((a, b) => a - b);
  // CPU time the worker got during its sampling phase / that phase's wall time: ~1 on a quiet core
  // (a little more with GC and compiler threads), lower when other programs take the core from it.
  const shares = measured.records.filter((r) => typeof r.cpuNsPerOp === 'number' && r.sampleMs > 0)
    .map((r) => (r.cpuNsPerOp * r.samplesNsPerOp.length * r.iterationsPerSample) / (r.sampleMs * 1e6)).sort((a, b) => a - b);
  return {
    measured,
    result: {
      cv: s.processCv,
      nsPerOp: s.estimate,
      processMedians: s.processMedians,
      processes: s.processes,
      withinProcessCv: within[Math.floor(within.length / 2)],
      cpuShare: shares.length ? shares[Math.floor(shares.length / 2)] : null,
      cpuShareMin: shares.length ? shares[0] : null,
      cpuShareMethod: `CPU time of the worker process while sampling (${measured.records[0]?.cpuMethod ?? 'n/a'}) / wall time of that phase; median over processes`,
      method: `coefficient of variation (sd / mean) of the per-process medians of a fixed-work benchmark (worker/fixtures/fixed-work.js, ~${(s.estimate / 1000).toFixed(1)} µs/op here) measured in ${s.processes} separate processes at the default budget (${sampler.samples} samples of >= ${sampler.minSampleMs} ms each); with ${s.processes} processes the CV itself is uncertain by about ±${Math.round(100 / Math.sqrt(2 * (s.processes - 1)))}%`
    }
  };
}

function cv(xs) {
  const m = mean(xs);
  return m > 0 ? sd(xs) / m : 0;
}
