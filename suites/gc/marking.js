'use strict';
// gc-marking: the log-analysis service's workload on its own (log-service.js), for the
// concurrent-marking finding. A suite of its own, not a folder, so that `all` and the default matrix
// leave it out: its figures come in GC cycles of a second or more, so each metrics process watches a
// long window (about 12 s per process), which the survey cannot afford on every runtime and flag set.
// Run it with examples/concurrent-marking.yaml or `--suites suites/gc/marking.js`.
// Node-4-compatible (see suites/README.md).
var service = require('./log-service');

module.exports = {
  name: 'gc-marking',
  metricsTable: true,
  // A process's GC time per second is the sum of the cycles that end inside its window, so the
  // window spans several cycles (about 1.3 s each under a 1 GB heap limit, 6 s without one), and
  // five metrics processes give each metric an interval. The op rate is the request rate unless the
  // service falls behind, and a late request is served at once: samples span 25 requests or more,
  // 2 s in all, so that a catch-up after a GC pause does not read as a faster runtime.
  sampler: { minSampleMs: 250, samples: 8, warmupMaxMs: 500, metricsMs: 10000, metricsProcesses: 5 },
  perProcess: 'throughput',
  description: 'A log-analysis service at a fixed request rate over a large retained index: ' +
    'main-thread marking and event-loop delay, with little scavenging',
  params: {
    indexMB: 240,
    recentMB: 16,
    requestsPerSecond: 100,
    entriesPerRequest: 9000,
    indexUpdatesPerRequest: 50,
    queryEntries: 30000
  },
  benchmarks: {
    'log-service': {
      type: 'callback',
      description: 'one request of a fixed-rate schedule (params.requestsPerSecond): ingest ' +
        'params.entriesPerRequest entries into the recent buffer, update params.indexUpdatesPerRequest ' +
        'index entries, query params.queryEntries; ops/s is the request rate unless the service falls behind',
      setup: service.setup,
      fn: service.request
    }
  }
};
