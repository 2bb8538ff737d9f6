'use strict';
// The worker <-> host channel, described once. A worker (child.js, serve.js, profile.js, through
// common.js and channel.js) and nodebench's command probe (cli/runner/command-probe.js) write one
// JSON message per line on fd 3, each with the nonce the host sent; the host reads them
// (cli/process/channel.js readChannel, which drops the nonce) and turns them into a cell's
// outcome (cli/runner/outcome.js, launcher.js, service.js, command.js) and a process record
// (cli/results/cell.js). Both sides load this file: channel.js takes the final messages from it,
// cell.js the measurement fields a process record keeps as they are; test/protocol.test.js checks
// the messages of real workers on Node 4.9.1 and the newest runtime against it, and the process
// records cell.js makes of them against cli/results/result.schema.json.
// Runs on Node 4 (the runtime side's syntax: docs/architecture.md) and must not require cli/.
//
// What the host writes to the worker is not described here: the request (the first line on
// stdin, { request, nonce }: cli/process/channel.js sendRequest) and a service's `start`
// and `stop` lines (worker/serve.js).

var REQUIRED = 'required';
var OPTIONAL = 'optional';

// type -> { from: who sends it, final: the sender's last word (worker/channel.js then reports no
// exit: an exit after it is the worker's own), fields: name -> REQUIRED | OPTIONAL }. Every message also carries `nonce` (absent only for a worker started by
// hand with its request as an argument).
var MESSAGES = {
  // The first word of every worker: the runtime as the process sees it (checked against the cell's
  // runtime: cli/runtimes/verify.js). The command probe runs on the host's Node: runtime null.
  hello: { from: 'worker/common.js start; cli/runner/command-probe.js', final: false, fields: { runtime: REQUIRED, probe: OPTIONAL } },
  // Said before each phase starts, so that a silent end names the phase it died in.
  phase: { from: 'worker/child.js', final: false, fields: { phase: REQUIRED } },
  // mode list: the suite described for the plan (worker/suite-loader.js describe).
  suite: { from: 'worker/child.js', final: true, fields: { suite: REQUIRED } },
  // mode run: one process's measurement (MEASUREMENTS below) and what surrounds it.
  result: {
    from: 'worker/child.js',
    final: true,
    fields: { benchmarkType: REQUIRED, params: REQUIRED, measurement: REQUIRED, memory: REQUIRED, clockResolutionNs: REQUIRED }
  },
  // mode metrics: a window of the benchmark under --trace-gc and the event-loop probe.
  metrics: {
    from: 'worker/child.js',
    final: true,
    fields: {
      benchmarkType: REQUIRED, window: REQUIRED, operations: REQUIRED, wallNsPerOp: REQUIRED, cpuNsPerOp: REQUIRED,
      cpuMethod: REQUIRED, memory: REQUIRED, eventLoopDelay: REQUIRED
    }
  },
  // mode once: what one call returned (tests check what suites compute).
  value: { from: 'worker/child.js', final: true, fields: { value: REQUIRED } },
  // mode profile (nodebench explain): the host is asked to start or stop the inspector's profiler
  // on a runtime without an in-process one, then the profiled window.
  'profiler-wanted': { from: 'worker/profile.js', final: false, fields: { action: REQUIRED } },
  // Not final for the channel (as before this file): the process.exit after it is reported as an
  // exit message too, which explain, reading the profile message first, passes over.
  profile: {
    from: 'worker/profile.js',
    final: false,
    fields: {
      benchmarkType: REQUIRED, operations: REQUIRED, sampleMs: REQUIRED, profiledMs: REQUIRED, windowEndUs: REQUIRED,
      wallNsPerOp: REQUIRED, cpuNsPerOp: REQUIRED, optimizationStatus: REQUIRED, v8: REQUIRED
    }
  },
  // A service (worker/serve.js): listening with its load settings, then `started` and
  // `service-metrics` at the host's start and stop.
  listening: { from: 'worker/serve.js', final: false, fields: { host: REQUIRED, port: REQUIRED, pid: REQUIRED, load: REQUIRED, params: REQUIRED, requests: REQUIRED } },
  started: { from: 'worker/serve.js', final: false, fields: {} },
  'service-metrics': {
    from: 'worker/serve.js',
    final: true,
    fields: {
      cpuMs: REQUIRED, wallMs: REQUIRED, cpuPercent: REQUIRED, cpuMethod: REQUIRED, peakRssBytes: REQUIRED, peakRssMethod: REQUIRED,
      memory: REQUIRED, requestsHandled: REQUIRED, requestsTotal: REQUIRED
    }
  },
  // One run of a whole command (phase warmup or measured): its figures, or `error` when it could not
  // be started.
  command: {
    from: 'cli/runner/command-probe.js',
    final: false,
    fields: {
      phase: REQUIRED, error: OPTIONAL, wallNs: OPTIONAL, exitCode: OPTIONAL, signal: OPTIONAL, cpu: OPTIONAL,
      peakRssBytes: OPTIONAL, peakRssMethod: OPTIONAL
    }
  },
  // The benchmark (or nodebench) failed; the probe's errors have no name or stack.
  error: { from: 'worker/common.js fail; cli/runner/command-probe.js', final: true, fields: { phase: REQUIRED, message: REQUIRED, name: OPTIONAL, stack: OPTIONAL } },
  unsupported: { from: 'worker/common.js unsupported; worker/profile.js', final: true, fields: { reason: REQUIRED } },
  // The process is ending without its final message (worker/channel.js arm): how.
  exit: { from: 'worker/channel.js', final: true, fields: { code: REQUIRED, phase: REQUIRED, calledExit: REQUIRED } }
};

// What the host's reader makes of a line that is not a message of the worker's (never sent by one).
var HOST_MADE = {
  forged: 'a line without the nonce, or JSON that is not an object: { claimed: the type it gave itself }',
  garbled: 'a line that is not JSON: { line: its first 200 characters }'
};

// Objects inside messages, by the path of their field.
var NESTED = {
  'hello.runtime': { node: REQUIRED, v8: REQUIRED, arch: REQUIRED, platform: REQUIRED, execArgv: REQUIRED, features: REQUIRED },
  // worker/metrics.js memory.
  memory: { rssBytes: REQUIRED, heapUsedBytes: REQUIRED, heapTotalBytes: REQUIRED, peakRssBytes: REQUIRED, peakRssMethod: REQUIRED }
};

// A result's measurement, by what it measures (measurement.measure; absent: time). Each field:
// { field: REQUIRED | OPTIONAL, kept: how the process record (cli/results/cell.js processRecord)
// keeps it }. kept: 'as is' (the same name and value; in this order in the record), the record
// field it becomes, or null: not kept, with the reason beside it.
var MEASUREMENTS = {
  // worker/sampler.js measure.
  time: {
    samplesNsPerOp: { field: REQUIRED, kept: 'as is' },
    // Absent when the sampler is asked for no empty batches (emptyBatches: 0).
    emptyNsPerOp: { field: OPTIONAL, kept: 'as is' },
    iterationsPerSample: { field: REQUIRED, kept: 'as is' },
    calibrationBatches: { field: REQUIRED, kept: 'as is' },
    warmup: { field: REQUIRED, kept: 'as is' },
    sampleMs: { field: REQUIRED, kept: 'as is' },
    cpuNsPerOp: { field: REQUIRED, kept: 'as is' },
    cpuMethod: { field: REQUIRED, kept: 'as is' },
    // [start, end] of the sampling on the process's own clock.
    window: { field: REQUIRED, kept: 'sampleWindowMs' },
    // null unless the host asked for it (sampler.recordDisturbance); kept when there.
    disturbance: { field: REQUIRED, kept: 'disturbance' },
    // Samples times iterations, except for a form that runs its own loop: used by metrics and
    // profile processes, not by a timing process's record.
    operations: { field: REQUIRED, kept: null },
    // Diagnostics of the sampler (what the sink held; batch, managed or per-call timing and the
    // clock cost subtracted per call), not figures of the benchmark.
    sinkType: { field: REQUIRED, kept: null },
    timing: { field: REQUIRED, kept: null },
    clockCostNs: { field: OPTIONAL, kept: null }
  },
  // worker/instructions.js measure: marked batches, whose counts the host reads from callgrind
  // (cli/process/valgrind.js instructionFigures adds instructionsPerOp, instructionsPerSample,
  // markerInstructions and operationsPerSample; cli/runner/instructions.js the valgrind record).
  instructions: {
    measure: { field: REQUIRED, kept: 'measure' },
    iterationsPerSample: { field: REQUIRED, kept: 'as is' },
    calibrationBatches: { field: REQUIRED, kept: 'as is' },
    warmup: { field: REQUIRED, kept: 'as is' },
    sampleMs: { field: REQUIRED, kept: 'as is' },
    timing: { field: REQUIRED, kept: 'as is' },
    sinkType: { field: REQUIRED, kept: 'as is' },
    // What the host counts from: replaced in the record by the counts it read.
    batches: { field: REQUIRED, kept: 'instructionsPerOp' },
    marks: { field: REQUIRED, kept: null },
    window: { field: REQUIRED, kept: null },
    operations: { field: REQUIRED, kept: null },
    // What a process costs (vgdb's switch of instrumentation, CPU time at the switch, the first
    // measured batch and the end): cli/runner/instructions.js moves them into the valgrind record.
    instrumentationSwitches: { field: OPTIONAL, kept: null },
    cpuMs: { field: OPTIONAL, kept: null }
  }
};

// What the process record keeps of a result message's other fields.
var RESULT_KEPT = { benchmarkType: 'cell.benchmarkType', memory: 'memory', clockResolutionNs: 'clockResolutionNs', params: null, measurement: 'the record' };

function measureOf(measurement) {
  return measurement && measurement.measure === 'instructions' ? 'instructions' : 'time';
}

// The measurement fields a process record keeps under the same name, in the record's order.
function keptAsIs(measure) {
  var fields = MEASUREMENTS[measure];
  return Object.keys(fields).filter(function (name) { return fields[name].kept === 'as is'; });
}

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// What in `value` (an object) the field list does not allow: names missing or not listed.
function fieldProblems(where, value, fields) {
  if (!isObject(value)) return [where + ' is not an object'];
  var problems = [];
  Object.keys(fields).forEach(function (name) {
    var rule = fields[name];
    var required = rule === REQUIRED || (rule && rule.field === REQUIRED);
    if (required && !(name in value)) problems.push(where + ' lacks ' + name);
  });
  Object.keys(value).forEach(function (name) {
    if (!(name in fields)) problems.push(where + ' has ' + name + ', which the protocol does not list');
  });
  return problems;
}

// Every way `message` (as the host's reader hands it over: nonce removed) departs from the
// protocol, as sentences; [] when it is one of the messages above.
function problems(message) {
  if (!isObject(message)) return ['the message is not an object'];
  var spec = MESSAGES[message.type];
  if (!spec) return ['type ' + JSON.stringify(message.type) + ' is not a message of the protocol'];
  var fields = { type: REQUIRED };
  Object.keys(spec.fields).forEach(function (name) { fields[name] = spec.fields[name]; });
  var where = 'a ' + message.type + ' message';
  var found = fieldProblems(where, message, fields);
  if (message.type === 'hello' && message.runtime !== null && 'runtime' in message) {
    found = found.concat(fieldProblems(where + "'s runtime", message.runtime, NESTED['hello.runtime']));
  }
  if (isObject(message.memory)) found = found.concat(fieldProblems(where + "'s memory", message.memory, NESTED.memory));
  if (message.type === 'result' && 'measurement' in message) {
    var measure = measureOf(message.measurement);
    found = found.concat(fieldProblems(where + "'s " + measure + ' measurement', message.measurement, MEASUREMENTS[measure]));
  }
  return found;
}

// The types after which a sender says nothing more.
function finalTypes() {
  return Object.keys(MESSAGES).filter(function (type) { return MESSAGES[type].final; });
}

module.exports = {
  REQUIRED: REQUIRED,
  OPTIONAL: OPTIONAL,
  MESSAGES: MESSAGES,
  HOST_MADE: HOST_MADE,
  NESTED: NESTED,
  MEASUREMENTS: MEASUREMENTS,
  RESULT_KEPT: RESULT_KEPT,
  measureOf: measureOf,
  keptAsIs: keptAsIs,
  problems: problems,
  finalTypes: finalTypes
};
