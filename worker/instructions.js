'use strict';
// Instruction counting (measure 'instructions'): the same benchmark loops as worker/sampler.js, but
// what a batch costs is the number of instructions the process executed for it, counted by valgrind's
// callgrind, not a clock reading. The host (cli/process/valgrind.js) starts this worker under
//   valgrind --tool=callgrind --callgrind-out-file=BASE --dump-before=fdatasync ...
// so that every entry into libc's fdatasync() writes the instructions executed since the previous
// one as a numbered file, BASE.1, BASE.2, ... (a "part"). The worker calls fdatasync, through
// fs.fdatasyncSync on a file of its own, right before and right after each batch: the part that
// ends at the second call is the batch, and nothing else (start-up, loading, setup, the sampler's
// own work between batches) is in it. Node never calls fdatasync itself; a benchmark that does
// shows up as a part nobody asked for, which the host refuses.
//
// Every decision is taken on counts, so that two processes of the same runtime, flags and code take
// the same ones (V8 started with --predictable and fixed seeds is deterministic under valgrind):
//   calibrate  grow the iterations per batch (to 1, 2 or 5 times a power of ten, so that a count a
//              few instructions apart cannot change it) until one batch executes
//              minBatchInstructions, and again during the warm-up when the code got faster and a
//              batch fell below half of that; or take the host's fixed `iterations`;
//   warm up    run batches until the instructions per operation stop moving (the median of the last
//              warmupWindow batches within warmupTolerance of the median of the ones before), at
//              least warmupMinInstructions were spent and the benchmark was called
//              warmupMinOperations times; or give up (warmup.stable says whether it settled) at
//              warmupMaxInstructions or warmupMaxBatches; or exactly the host's fixed
//              `warmupBatches`. The calls matter: V8 tiers the batch loop up by how often it went
//              round, and sits on lower tiers, stable for many batches, before (a loop of 10,000
//              instructions a call: Node 4.9.1 and 16.20.2 take their last step after about 16,000
//              calls, 0.6% and 3% fewer instructions after it, Node 14.21.3 after 10,000 (18%),
//              Node 24.21.0 after 30,000 (39%));
//   sample     `batches` batches, the measured ones;
//   marker     markerBatches batches of 0 iterations: what a batch costs besides its operations
//              (the two calls and the loop's set-up), which the host subtracts from each sample.
//              After the samples, as the time sampler's empty batches: a call of the batch loop
//              with 0 iterations sends Node 14 and 24 back to slower code for the batches after
//              it (24.21.0: 7,694 instructions per call of a loop before, 12,637 after).
// Where the host gives a vgdb (counting.vgdb: valgrind started with --instr-atstart=no), nothing is
// instrumented until the worker switches instrumentation on, right before its first mark: Node's
// start-up, the worker's modules and the suite's loading and setup run at valgrind's
// uninstrumented speed. Switching it off again for the warm-up was tried and costs more than it
// saves: every switch discards valgrind's translations, and retranslating V8 took 2-4 s of CPU
// time (24.21.0, chain-native: 2.4 s for a 37M-instruction uninstrumented warm-up, then 4.6 s for
// 106M counted, against 0.8 s for 60M counted once translated).
// The worker reads each part's count from BASE.<part> (the header's `summary:` line, written when
// fdatasync is entered) to take these decisions; the host parses the same files after the process
// exits, and its figures are the ones recorded.
// Node-4-compatible: no let/const, arrow functions or default parameters (see suites/README.md).
var fs = require('fs');
var childProcess = require('child_process');
var sampler = require('./sampler');
var clock = require('./clock');

// Taken when the worker loads, before any suite code, like channel.js: a benchmark that replaces
// fs.fdatasyncSync cannot move the marks.
var fdatasyncSync = fs.fdatasyncSync;
var openSync = fs.openSync;
var readSync = fs.readSync;
var closeSync = fs.closeSync;
var spawnSync = childProcess.spawnSync;

var DEFAULTS = {
  batches: 5,
  iterations: null,
  minBatchInstructions: 10e6,
  maxIterations: 1e9,
  warmupBatches: null,
  warmupMinInstructions: 50e6,
  warmupMinOperations: 50000,
  // 500e6 before: on 24.21.0 chain-native's warm-up then took 9.5 s of a 13.9 s process's CPU time
  // and still never settled; 200e6 takes 6.5 s of 11.2 s (2026-11-27, docs/instructions.md).
  warmupMaxInstructions: 200e6,
  warmupMaxBatches: 100,
  warmupTolerance: 0.01,
  warmupWindow: 3,
  markerBatches: 3
};

var HEAD_BYTES = 4096;

// The marks and the counts between them. counting: { marker: a file to open for the marks,
// parts: the callgrind output file's name (BASE) }. mark() returns the number of the part that
// ends at this call; read(part) its instruction count.
function counter(counting) {
  var fd = openSync(counting.marker, 'w');
  var head = typeof Buffer.alloc === 'function' ? Buffer.alloc(HEAD_BYTES) : new Buffer(HEAD_BYTES);
  var marks = 0;
  var switches = [];
  return {
    // Whether the host gave a way to switch instrumentation (valgrind ran with --instr-atstart=no).
    switchable: Boolean(counting.vgdb),
    // Switches callgrind's instrumentation on or off through vgdb, which reaches this process while
    // it waits in spawnSync. The same call with the same arguments in every process (output
    // ignored), so that the JavaScript heap repeats: no pid, as the prefix is this process's own
    // folder. A pid made into a string here allocated or not by whether V8's number-to-string cache
    // still held it, which moved the next incremental marking step: gc/old-gen-marking-async on
    // 16.20.2 counted in two patterns by one bit of the pid (2026-11-28). Returns null or the
    // sentence saying why it could not.
    instrument: function (state) {
      var started = Date.now();
      var ran = spawnSync(counting.vgdb, ['--vgdb-prefix=' + counting.vgdbPrefix, 'instrumentation', state], { stdio: 'ignore' });
      switches.push({ state: state, ms: Date.now() - started, cpuMs: cpuMs() });
      if (ran.error || ran.status !== 0) {
        return 'valgrind\'s vgdb could not switch callgrind\'s instrumentation ' + state + ' (' + (ran.error ? ran.error.message : 'exit status ' + ran.status) + ')';
      }
      return null;
    },
    // [{ state, ms, cpuMs }]: each switch, how long its vgdb took (wall time) and the CPU time at its
    // end, for the record only.
    switches: function () { return switches; },
    mark: function () {
      marks++;
      fdatasyncSync.call(fs, fd);
      return marks;
    },
    marks: function () { return marks; },
    read: function (part) {
      var file = counting.parts + '.' + part;
      var partFd;
      try {
        partFd = openSync(file, 'r');
      } catch (err) {
        if (err.code !== 'ENOENT') throw err;
        partFd = null;
      }
      if (partFd === null) throw new Error('no instruction count was written for batch mark ' + part + ' (' + file + '): the worker is not running under valgrind\'s callgrind with --dump-before=fdatasync');
      var n;
      try {
        n = readSync(partFd, head, 0, HEAD_BYTES, 0);
      } finally {
        closeSync(partFd);
      }
      var count = firstEventCount(head.toString('utf8', 0, n));
      if (count === null) throw new Error('the instruction count file ' + file + ' has no summary line');
      return count;
    },
    close: function () { closeSync(fd); }
  };
}

// CPU time of this process so far (valgrind's, under valgrind), in ms; null where the runtime has no
// process.cpuUsage.
function cpuMs() {
  if (typeof process.cpuUsage !== 'function') return null;
  var used = process.cpuUsage();
  return Math.round((used.user + used.system) / 1000);
}

// The first event's total in a callgrind part's header ("events: Ir ..." then "summary: N ...").
function firstEventCount(text) {
  var match = /(?:^|\n)summary:\s*(\d+)/.exec(text);
  return match ? Number(match[1]) : null;
}

// 1, 2, 5, 10, 20, 50, ...: the smallest of them at or above n.
function niceAtLeast(n) {
  var power = 1;
  while (power * 10 <= n) power *= 10;
  var steps = [1, 2, 5, 10];
  for (var i = 0; i < steps.length; i++) {
    if (steps[i] * power >= n) return steps[i] * power;
  }
  return 10 * power;
}

// Measures one benchmark in instructions; cb(err, report). target, ctx, type as for sampler.measure;
// count: a counter() (tests give a fake one).
function measure(target, ctx, type, options, count, cb) {
  var opts = sampler.withDefaults(options, DEFAULTS);
  var timed;
  try {
    timed = sampler.timingOf(target, ctx, type);
  } catch (err) {
    return cb(err);
  }
  if (timed.timing === 'per-call') {
    return cb(new Error((target.why || 'this benchmark needs work between calls') +
      ', so nodebench would time each call alone; an instruction count cannot leave that work out, so this benchmark cannot be measured in instructions'));
  }
  var batch = timed.batch;
  // A managed form runs its own loop, which need not take 0 iterations: its batches are recorded
  // whole, with no marker batches to subtract.
  var markerBatchCount = timed.timing === 'managed' ? 0 : opts.markerBatches;
  var fixedIterations = opts.iterations != null && opts.iterations > 0;
  var iterations = fixedIterations ? Math.floor(opts.iterations) : 1;
  var phase = fixedIterations ? 'warmup' : 'calibrate';
  var batches = [];
  var calibrationBatches = 0;
  var warmupBatches = 0;
  var warmupInstructions = 0;
  var warmupOperations = 0;
  var warmupRates = [];
  var warmupStable = false;
  var markerBatches = 0;
  var samples = 0;
  var operations = 0;
  var warmupStart = 0;
  var sampleStart = 0;
  var sampleEnd = 0;
  var sampleStartUptimeMs = 0;
  var sampleEndUptimeMs = 0;
  var sampleCpuMs = [];

  function finish() {
    var sampleMs = (sampleEnd - sampleStart) / 1e6;
    cb(null, {
      measure: 'instructions',
      iterationsPerSample: iterations,
      // Every marked batch in order: its phase, its operations, the callgrind part that holds it and
      // the count the worker read there (the host parses the parts again and records its own).
      batches: batches,
      calibrationBatches: calibrationBatches,
      warmup: {
        batches: warmupBatches,
        instructions: warmupInstructions,
        operations: warmupOperations,
        stable: warmupStable,
        ms: (sampleStart - (warmupStart || sampleStart)) / 1e6
      },
      instrumentationSwitches: count.switchable ? count.switches() : undefined,
      cpuMs: { firstSample: sampleCpuMs[0], end: cpuMs() },
      sampleMs: sampleMs,
      window: { startUptimeMs: sampleStartUptimeMs, endUptimeMs: sampleEndUptimeMs },
      operations: operations,
      marks: count.marks(),
      sinkType: sampler.sinkType(),
      timing: timed.timing
    });
  }

  function onBatch(n, part, instructions) {
    batches.push({ phase: phase, operations: n, part: part, instructions: instructions });
    if (phase === 'calibrate') {
      calibrationBatches++;
      if (instructions >= opts.minBatchInstructions || iterations >= opts.maxIterations) {
        phase = 'warmup';
      } else {
        var wanted = instructions * 10 < opts.minBatchInstructions ? iterations * 10 : iterations * opts.minBatchInstructions * 1.1 / Math.max(instructions, 1);
        iterations = Math.min(opts.maxIterations, niceAtLeast(Math.max(iterations + 1, wanted)));
      }
      return;
    }
    if (phase === 'warmup') {
      warmupBatches++;
      warmupInstructions += instructions;
      warmupRates.push(instructions / n);
      // The first calls compile, so calibration can stop at a few iterations that later count far
      // fewer instructions (Node 14 and 16: 60 calls of a 1,300-instruction loop, batches of 80 k):
      // as the code gets faster, batches grow back to minBatchInstructions and the settling starts
      // again, as the time sampler's warm-up does.
      if (!fixedIterations && instructions < opts.minBatchInstructions / 2 && iterations < opts.maxIterations) {
        iterations = Math.min(opts.maxIterations, niceAtLeast(iterations * opts.minBatchInstructions * 1.1 / Math.max(instructions, 1)));
        warmupRates = [];
      }
      warmupStable = sampler.isSettled(warmupRates, opts.warmupWindow, opts.warmupTolerance);
      warmupOperations += n;
      var done = opts.warmupBatches != null
        ? warmupBatches >= opts.warmupBatches
        : (warmupStable && warmupInstructions >= opts.warmupMinInstructions && warmupOperations >= opts.warmupMinOperations) ||
          warmupInstructions >= opts.warmupMaxInstructions || warmupBatches >= opts.warmupMaxBatches;
      if (done) phase = 'sample';
      return;
    }
    if (phase === 'sample') {
      samples++;
      operations += n;
      sampleEnd = clock.now();
      sampleEndUptimeMs = process.uptime() * 1000;
      if (samples === 1) sampleCpuMs.push(cpuMs());
      if (samples >= opts.batches) phase = markerBatchCount > 0 ? 'marker' : 'done';
      return;
    }
    markerBatches++;
    if (markerBatches >= markerBatchCount) phase = 'done';
  }

  function runBatch() {
    if (phase === 'warmup' && opts.warmupBatches === 0) phase = 'sample';
    if (phase === 'warmup' && !warmupStart) warmupStart = clock.now();
    if (phase === 'sample' && !sampleStart) {
      sampleStart = clock.now();
      sampleStartUptimeMs = process.uptime() * 1000;
    }
    var n = phase === 'marker' ? 0 : iterations;
    var called = false;
    count.mark();
    batch(n, function (err, elapsedNs, ops) {
      if (called) return;
      called = true;
      var part = count.mark();
      if (err) return cb(err);
      // A managed form says how many operations its batch ran.
      var ran = ops === undefined ? n : ops;
      if (phase !== 'marker' && !(ran > 0)) return cb(new Error('a batch of ' + n + ' calls reported ' + ran + ' operations'));
      var instructions;
      try {
        instructions = count.read(part);
      } catch (readErr) {
        return cb(readErr);
      }
      onBatch(ran, part, instructions);
      if (phase === 'done') return finish();
      setImmediate(runBatch);
    });
  }

  // valgrind started with --instr-atstart=no counts nothing (and writes no parts) until switched on:
  // start-up, loading and setup ran at its uninstrumented speed.
  if (count.switchable) {
    var problem = count.instrument('on');
    if (problem) return cb(new Error(problem));
  }
  runBatch();
}

module.exports = {
  measure: measure,
  counter: counter,
  firstEventCount: firstEventCount,
  niceAtLeast: niceAtLeast,
  DEFAULTS: DEFAULTS
};
