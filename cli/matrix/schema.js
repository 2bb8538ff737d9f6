// What matrix.yaml may contain, checked field by field so that every mistake gets a sentence with
// the file, the line and the fix. Documented in docs/matrix.md.
export const RUN_OPTIONS = {
  processes: { type: 'integer', min: 1, max: 100, help: 'fresh processes per cell' },
  maxProcesses: { type: 'integer', min: 1, max: 100, help: 'most processes per cell while its margin is above targetRme' },
  targetRme: { type: 'number', min: 0.1, max: 100, help: 'wanted ±95% margin in percent; more processes until met or maxProcesses' },
  samples: { type: 'integer', min: 1, max: 10000, help: 'timed samples per process' },
  minSampleMs: { type: 'number', min: 0.1, max: 60000, help: 'minimum duration of one sample (ms)' },
  warmupMinMs: { type: 'number', min: 0, max: 600000, help: 'minimum warm-up (ms)' },
  warmupMaxMs: { type: 'number', min: 0, max: 600000, help: 'warm-up cap (ms)' },
  maxSampleMs: { type: 'number', min: 1, max: 3600000, help: 'sampling time cap per process (ms)' },
  timeoutSec: { type: 'number', min: 1, max: 86400, help: 'per-process time limit (s)' },
  seed: { type: 'integer', min: 0, max: 2 ** 31 - 1, help: 'seed of the launch order shuffle' },
  baseline: { type: 'string', help: 'baseline column, "<runtime label>/<flag set>"' },
  metrics: { type: 'boolean', help: 'add a GC/CPU/memory/event-loop metrics process per cell' },
  metricsMs: { type: 'number', min: 50, max: 600000, help: 'length of the metrics window (ms)' }
};

export const TOP_LEVEL = ['runtimes', 'flagSets', 'suites', 'run'];
