'use strict';
// Garbage-collector workloads whose cost depends on V8 heap flags (see README.md):
//   young-gen-churn         Plaid: scavenges dominated until --max-semi-space-size was raised;
//   old-gen-marking(-async) a PostgreSQL-log-analysis service: GC time and event-loop latency rose
//                           on Node 16 builds with concurrent and parallel marking off.
// The suite only provides the workloads; the harness records GC time/counts and event-loop delay.
// Node-4-compatible: 'use strict', var/function only (see suites/README.md).
var young = require('./young');
var old = require('./old');

module.exports = {
  name: 'gc',
  // The findings are about GC share and event-loop delay, so the metrics grid is printed too.
  metricsTable: true,
  // A 10 ms sample is shorter than the GC cycles these workloads are about, so samples would vary
  // with where a major GC fell (22% within one process). Each sample spans several cycles instead,
  // and a process's value is its total time over total operations, GC pauses included.
  // Its metrics are its findings: three metrics processes give each metric an interval. Their window
  // is the run's metricsMs (1 s by default; the shipped matrix's 0.5 s keeps the three within 10% of
  // its wall time, docs/precision.md; examples/semi-space.yaml asks for longer ones).
  sampler: { minSampleMs: 50, samples: 6, warmupMaxMs: 500, metricsProcesses: 3 },
  perProcess: 'throughput',
  description: 'Young-generation churn from many in-flight async tasks, and marking of a large ' +
    'retained old generation under churn (for semi-space and concurrent-marking flag sets)',
  params: {
    // young-gen-churn
    inflight: 64,
    tasksPerOp: 96,
    recordsPerTask: 100,
    payloads: 16,
    // old-gen-marking, old-gen-marking-async
    retainedMB: 64,
    listLength: 1024,
    listsPerOp: 4,
    garbagePerNode: 1,
    chunk: 256,
    seed: 1
  },
  benchmarks: {
    'young-gen-churn': {
      type: 'promise',
      description: 'params.tasksPerOp tasks (parse, normalise, format, group records across ' +
        'setImmediate and promise hops) completing, params.inflight of them in flight at a time',
      setup: young.setup,
      fn: young.batch
    },
    'old-gen-marking': {
      type: 'sync',
      description: 'replace params.listsPerOp linked lists of a params.retainedMB retained heap, ' +
        'with short-lived garbage',
      setup: old.setup,
      fn: old.churn
    },
    'old-gen-marking-async': {
      type: 'callback',
      description: 'the same replacements split into params.chunk-node steps across setImmediate ' +
        'and promise hops, so GC pauses show up as event-loop delay',
      setup: old.setup,
      fn: old.churnAsync
    }
  }
};
