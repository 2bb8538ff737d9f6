'use strict';
// The one sampler every runtime runs (Node 4 to current), so a comparison across versions compares
// runtimes, not measurement code. Shape of a run (after pyperf and mitata):
//   calibrate  grow the iterations per batch until one batch lasts minSampleMs, far above the
//              clock's resolution and the per-batch overhead;
//   warm up    run batches until the rate stops trending (the median of the last few batches is
//              within warmupTolerance of the median of the few before: JIT tiering done, whatever
//              the batch-to-batch noise) after warmupMinMs, or give up at warmupMaxMs and say so;
//   sample     `samples` batches (fewer if maxSampleMs runs out, never fewer than minSamples), each
//              a sample of ns per operation.
// What a batch is depends on the form (measure's `target`):
//   a function       nodebench's loop calls it n times between two clock readings (most forms);
//   managed          the form times its own loop of n calls (bench-node's timer.start()/end(),
//                    mitata's iterator and computed parameters) and reports the time and the count;
//   per-call         each call is timed alone, with work between calls left out of the timing
//                    (tinybench beforeEach/afterEach): allowed only where the clock's own cost,
//                    measured in this process and subtracted, is at most PER_CALL_CLOCK_SHARE of a
//                    call; a shorter call is refused with the length it needs.
// Written with callbacks because async/await does not exist on Node 4.
var clock = require('./clock');
var disturbance = require('./disturbance');

// Every result goes into this ring, so the optimiser cannot drop a call whose value is unused.
var sink = new Array(16);
for (var s = 0; s < sink.length; s++) sink[s] = 0;

function syncBatch(fn, ctx) {
  return function (n, cb) {
    var start = clock.now();
    for (var i = 0; i < n; i++) sink[i & 15] = fn(ctx);
    var elapsed = clock.since(start);
    cb(null, elapsed);
  };
}

function asError(reason, what) {
  if (reason instanceof Error) return reason;
  return new Error(what + ': ' + String(reason));
}

function promiseBatch(fn, ctx) {
  return function (n, cb) {
    var i = 0;
    var start = clock.now();
    function fail(reason) { cb(asError(reason, 'the benchmark\'s promise was rejected')); }
    function next(value) {
      sink[i & 15] = value;
      if (i++ >= n) return cb(null, clock.since(start));
      var promise;
      try {
        promise = fn(ctx);
      } catch (err) {
        return cb(err);
      }
      if (!promise || typeof promise.then !== 'function') {
        return cb(new Error('a promise benchmark returned ' + typeof promise + ' instead of a promise'));
      }
      promise.then(next, fail);
    }
    next(0);
  };
}

// fn(ctx, done); done may be called synchronously or later. The loop below runs synchronous
// completions without growing the stack and resumes from `done` when a completion is asynchronous.
function callbackBatch(fn, ctx) {
  return function (n, cb) {
    var i = 0;
    var inside = false;
    var completedInside = false;
    var finished = false;
    var start = clock.now();
    function finish(err) {
      if (finished) return;
      finished = true;
      if (err) cb(asError(err, 'the benchmark called back with an error'));
      else cb(null, clock.since(start));
    }
    function done(err, value) {
      if (err) return finish(err);
      sink[i & 15] = value;
      i++;
      if (inside) completedInside = true;
      else loop();
    }
    function loop() {
      while (i < n && !finished) {
        inside = true;
        completedInside = false;
        try {
          fn(ctx, done);
        } catch (err) {
          inside = false;
          return finish(err);
        }
        inside = false;
        if (!completedInside) return;
      }
      finish(null);
    }
    loop();
  };
}

function isThenable(value) {
  return !!value && typeof value.then === 'function';
}

// Each of n calls timed alone: beforeEach, the timed call (awaited when it returns a promise),
// afterEach; any step may return a promise, which is awaited outside the timing. Reports the timed
// total less the clock's cost per call, and the batch's wall time (hooks included).
function perCallBatch(fn, ctx, hooks, clockCostNs) {
  var beforeEach = hooks.beforeEach || null;
  var afterEach = hooks.afterEach || null;
  var now = clock.callNow;
  return function (n, cb) {
    var i = 0;
    var stage = 0;
    var timedNs = 0;
    var startNs = 0;
    var finished = false;
    var wallStart = clock.now();
    function fail(reason) {
      if (finished) return;
      finished = true;
      cb(asError(reason, stage === 1 ? 'the benchmark\'s promise was rejected' : 'a hook\'s promise was rejected'));
    }
    function advance() {
      stage = (stage + 1) % 3;
      if (stage === 0) i++;
    }
    function resumeAfterCall(value) {
      timedNs += now() - startNs;
      sink[i & 15] = value;
      advance();
      loop();
    }
    function resume() {
      advance();
      loop();
    }
    function loop() {
      while (i < n) {
        var value;
        try {
          if (stage === 0) {
            value = beforeEach ? beforeEach() : undefined;
          } else if (stage === 1) {
            startNs = now();
            value = fn(ctx);
            if (!isThenable(value)) {
              timedNs += now() - startNs;
              sink[i & 15] = value;
            }
          } else {
            value = afterEach ? afterEach() : undefined;
          }
        } catch (err) {
          return fail(err);
        }
        if (isThenable(value)) {
          value.then(stage === 1 ? resumeAfterCall : resume, fail);
          return;
        }
        advance();
      }
      finished = true;
      cb(null, Math.max(0, timedNs - n * clockCostNs), n, clock.since(wallStart));
    }
    loop();
  };
}

// A call timed alone must last this many times the clock's cost (the cost is 2% of it or less).
var PER_CALL_CLOCK_SHARE = 0.02;

function perCallTooShort(target, callNs, clockCostNs) {
  var needed = clockCostNs / PER_CALL_CLOCK_SHARE;
  return new Error((target.why || 'this benchmark needs work between calls') +
    ', so nodebench times each call alone; reading the clock (' + clock.callClockName + ') costs ' +
    formatNs(clockCostNs) + ' here, and a call must last at least ' + formatNs(needed) +
    ' for that to stay within ' + PER_CALL_CLOCK_SHARE * 100 + '% of it, but a timed call measures ' + formatNs(callNs + clockCostNs) + ' with the clock\'s cost' +
    ': give each call more work (a loop inside the task), or do the per-call work inside the task');
}

function formatNs(ns) {
  if (ns >= 1e6) return (ns / 1e6).toFixed(2) + ' ms';
  if (ns >= 1e3) return (ns / 1e3).toFixed(2) + ' µs';
  return ns.toFixed(ns < 10 ? 1 : 0) + ' ns';
}

// The cost of an empty benchmark of the same type, timed by loops of the same shape right after the
// samples (same process, same JIT state, same iterations per batch): what a benchmark whose work the
// optimiser folded away still costs. Sync: its own copy of the loop (a closure of syncBatch would
// share its call-site feedback with the benchmark's and not inline the empty body), storing into its
// own ring. Promise and callback: the benchmark's loops with a body that does nothing else.
var emptySink = new Array(16);

function emptyBody(ctx) {}

function emptySyncBatch(fn, ctx) {
  return function (n, cb) {
    var start = clock.now();
    for (var i = 0; i < n; i++) emptySink[i & 15] = fn(ctx);
    var elapsed = clock.since(start);
    cb(null, elapsed);
  };
}

function emptyPromise(ctx) { return Promise.resolve(); }

function emptyCallback(ctx, done) { done(null); }

function emptyBatchFor(type, ctx) {
  if (type === 'promise') return promiseBatch(emptyPromise, ctx);
  if (type === 'callback') return callbackBatch(emptyCallback, ctx);
  return emptySyncBatch(emptyBody, ctx);
}

// The benchmark's loop reached its timed samples hot: calibration and warm-up called it dozens of
// times with growing iterations. A loop called only for the timed batches stays in a lower tier
// (on Node 20, 1.2 ns per empty iteration instead of 0.8), so the empty loop is first called the
// same way: iterations growing tenfold up to n, then at most WARM_ITERATIONS, before it is timed.
var EMPTY_WARM_CALLS = 20;
var EMPTY_WARM_ITERATIONS = 10000;

// cb(err, [ns per op of each of `batches` timed empty batches of n iterations]).
function measureEmpty(batch, n, batches, cb) {
  var warmCalls = 0;
  var size = 1;
  var values = [];
  function next() {
    if (values.length >= batches) return cb(null, values);
    var warming = warmCalls < EMPTY_WARM_CALLS;
    var iterations = warming ? Math.min(size, n, EMPTY_WARM_ITERATIONS) : n;
    batch(iterations, function (err, elapsedNs) {
      if (err) return cb(err);
      if (warming) {
        warmCalls++;
        size *= 10;
      } else {
        values.push(elapsedNs / n);
      }
      setImmediate(next);
    });
  }
  next();
}

function batchFor(type, fn, ctx) {
  if (type === 'promise') return promiseBatch(fn, ctx);
  if (type === 'callback') return callbackBatch(fn, ctx);
  return syncBatch(fn, ctx);
}

// Calls fn once to learn whether it returns a thenable, when the suite did not say.
function detectType(fn, ctx, cb) {
  var value;
  try {
    value = fn(ctx);
  } catch (err) {
    return cb(err);
  }
  if (value && typeof value.then === 'function') {
    value.then(function () { cb(null, 'promise'); }, function (reason) {
      cb(asError(reason, 'the benchmark\'s promise was rejected'));
    });
  } else {
    cb(null, 'sync');
  }
}

function medianOf(values) {
  var sorted = values.slice().sort(function (a, b) { return a - b; });
  var mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// True when the last `window` rates and the `window` before them have medians within tolerance.
function isSettled(rates, window, tolerance) {
  if (rates.length < 2 * window) return false;
  var recent = medianOf(rates.slice(-window));
  var before = medianOf(rates.slice(-2 * window, -window));
  return Math.abs(recent / before - 1) <= tolerance;
}

var DEFAULTS = {
  minSampleMs: 10,
  samples: 10,
  warmupMinMs: 50,
  warmupMaxMs: 1000,
  warmupTolerance: 0.02,
  warmupWindow: 3,
  maxSampleMs: 2000,
  minSamples: 3,
  maxIterations: 1e9,
  recordDisturbance: false,
  // Batches of an empty benchmark after the samples (0: none); the first may still be warming up.
  emptyBatches: 5
};

// The keys of `defaults` (DEFAULTS here, worker/instructions.js its own), each from options when given.
function withDefaults(options, defaults) {
  var merged = {};
  Object.keys(defaults).forEach(function (key) {
    merged[key] = options && options[key] != null ? options[key] : defaults[key];
  });
  return merged;
}

// A batch that runs long in wall time though its timed part is short (per-call hooks, a managed
// form's untimed setup) stops growing at this many times minSampleMs of wall time.
var WALL_LIMIT_FACTOR = 10;

// How a target (see the top of this file) is timed: { batch, empty, timing, clockCostNs }.
function timingOf(target, ctx, type) {
  if (typeof target === 'function') return { batch: batchFor(type, target, ctx), empty: emptyBatchFor(type, ctx), timing: 'batch' };
  if (target && target.timing === 'managed' && typeof target.run === 'function') {
    return { batch: target.run, empty: emptyBatchFor('sync', ctx), timing: 'managed' };
  }
  if (target && target.timing === 'per-call' && typeof target.fn === 'function') {
    var costNs = clock.callClockCostNs();
    return {
      batch: perCallBatch(target.fn, ctx, target, costNs),
      empty: perCallBatch(type === 'promise' ? emptyPromise : emptyBody, ctx, {}, costNs),
      timing: 'per-call',
      clockCostNs: costNs
    };
  }
  throw new Error('nodebench cannot time ' + (target && target.timing ? 'a "' + target.timing + '" target' : typeof target) + ' (a bug in a format of worker/formats/)');
}

// Measures one benchmark; cb(err, report) with per-sample ns/op and how they were obtained.
// target: the function to time, or a managed or per-call target (top of this file).
function measure(target, ctx, type, options, cb) {
  var opts = withDefaults(options, DEFAULTS);
  var minSampleNs = opts.minSampleMs * 1e6;
  var timed;
  try {
    timed = timingOf(target, ctx, type);
  } catch (err) {
    return cb(err);
  }
  var batch = timed.batch;
  var iterations = 1;
  var calibrationBatches = 0;
  var warmupBatches = 0;
  var warmupStart = 0;
  var warmupRates = [];
  var warmupStable = false;
  var samples = [];
  var operations = 0;
  var sampleStart = 0;
  var cpuStart = null;
  var sampleStartUptimeMs = 0;
  var phase = 'calibrate';
  // Readings that tell the host whether the machine was disturbed (timing processes only: the
  // reference loop would dilute a metrics window).
  var watch = opts.recordDisturbance ? disturbance.recorder() : null;
  var referenceTotalNs = 0;

  function later(step) { setImmediate(step); }

  // The part of a batch that counts towards its length: its timed time, or a share of its wall
  // time where untimed work between calls makes the batch much longer than what it times.
  function lengthOf(elapsedNs, wallNs) {
    return typeof wallNs === 'number' ? Math.max(elapsedNs, wallNs / WALL_LIMIT_FACTOR) : elapsedNs;
  }

  function onBatch(err, elapsedNs, ops, wallNs) {
    if (err) return cb(err);
    if (ops === undefined) ops = iterations;
    if (!(ops > 0)) return cb(new Error('a batch of ' + iterations + ' calls reported ' + ops + ' operations'));
    var length = lengthOf(elapsedNs, wallNs);
    if (phase === 'calibrate') {
      calibrationBatches++;
      if (length >= minSampleNs || iterations >= opts.maxIterations) {
        phase = 'warmup';
        warmupStart = clock.now();
      } else {
        var grown = length < minSampleNs / 10 ? iterations * 10 : Math.ceil(iterations * minSampleNs * 1.1 / Math.max(length, 1));
        iterations = Math.min(opts.maxIterations, Math.max(iterations + 1, grown));
      }
      return later(runBatch);
    }
    if (phase === 'warmup') {
      warmupBatches++;
      warmupRates.push(elapsedNs / ops);
      // JIT tiers up during warm-up; keep each batch above the minimum sample time as it does.
      if (length < minSampleNs / 2 && iterations < opts.maxIterations) {
        iterations = Math.min(opts.maxIterations, Math.ceil(iterations * minSampleNs * 1.1 / Math.max(length, 1)));
        warmupRates = [];
      }
      var warmedMs = clock.since(warmupStart) / 1e6;
      warmupStable = isSettled(warmupRates, opts.warmupWindow, opts.warmupTolerance);
      if ((warmedMs >= opts.warmupMinMs && warmupStable) || warmedMs >= opts.warmupMaxMs) {
        if (timed.timing === 'per-call') {
          var callNs = medianOf(warmupRates.length ? warmupRates.slice(-opts.warmupWindow) : [elapsedNs / ops]);
          if (timed.clockCostNs > PER_CALL_CLOCK_SHARE * callNs) return cb(perCallTooShort(target, callNs, timed.clockCostNs));
        }
        phase = 'sample';
        if (watch) watch.start();
        sampleStartUptimeMs = process.uptime() * 1000;
        sampleStart = clock.now();
        cpuStart = cpuTimeNs();
      }
      return later(runBatch);
    }
    samples.push(elapsedNs / ops);
    operations += ops;
    if (watch) {
      var referenceStart = clock.now();
      watch.afterSample();
      referenceTotalNs += clock.since(referenceStart);
    }
    var sampledMs = clock.since(sampleStart) / 1e6;
    if (samples.length >= opts.samples || (sampledMs >= opts.maxSampleMs && samples.length >= opts.minSamples)) {
      var cpuEnd = cpuTimeNs();
      // The reference loops are pure CPU on this thread: their time is not the benchmark's.
      var cpuNs = cpuStart && cpuEnd ? cpuEnd.ns - cpuStart.ns - referenceTotalNs : null;
      var report = {
        samplesNsPerOp: samples,
        iterationsPerSample: iterations,
        calibrationBatches: calibrationBatches,
        warmup: {
          batches: warmupBatches,
          ms: (sampleStart - warmupStart) / 1e6,
          stable: warmupStable
        },
        sampleMs: sampledMs,
        // On the process clock, to line up with V8's --trace-gc timestamps in a metrics process.
        window: { startUptimeMs: sampleStartUptimeMs, endUptimeMs: process.uptime() * 1000 },
        operations: operations,
        // Per-call and managed forms do untimed work between the timed parts, which the process's
        // CPU time cannot tell apart: no CPU figure rather than a wrong one.
        cpuNsPerOp: cpuNs !== null && timed.timing === 'batch' ? Math.max(0, cpuNs) / operations : null,
        disturbance: watch ? watch.end() : null,
        cpuMethod: cpuEnd ? cpuEnd.method : null,
        sinkType: typeof sink[0],
        timing: timed.timing
      };
      if (timed.timing === 'per-call') report.clockCostNs = timed.clockCostNs;
      if (!(opts.emptyBatches > 0)) return cb(null, report);
      return measureEmpty(timed.empty, iterations, opts.emptyBatches, function (emptyErr, emptyNs) {
        if (emptyErr) return cb(emptyErr);
        report.emptyNsPerOp = emptyNs;
        cb(null, report);
      });
    }
    later(runBatch);
  }

  function runBatch() {
    var called = false;
    if (watch && phase === 'sample') watch.beforeSample();
    batch(iterations, function (err, elapsedNs, ops, wallNs) {
      if (called) return;
      called = true;
      onBatch(err, elapsedNs, ops, wallNs);
    });
  }

  runBatch();
}

// Process CPU time (user + system). process.cpuUsage needs Node 6.1; older runtimes on Linux read
// /proc/self/stat, whose clock ticks are coarse (10 ms), which is why the method is recorded.
function cpuTimeNs() {
  if (typeof process.cpuUsage === 'function') {
    var usage = process.cpuUsage();
    return { ns: (usage.user + usage.system) * 1000, method: 'process.cpuUsage' };
  }
  try {
    var stat = require('fs').readFileSync('/proc/self/stat', 'utf8');
    var fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after "pid (comm) ".
    var ticks = Number(fields[11]) + Number(fields[12]);
    return { ns: ticks * 1e7, method: '/proc/self/stat (10 ms ticks)' };
  } catch (err) {
    return null;
  }
}

module.exports = {
  measure: measure,
  timingOf: timingOf,
  withDefaults: withDefaults,
  sinkType: function () { return typeof sink[0]; },
  batchFor: batchFor,
  PER_CALL_CLOCK_SHARE: PER_CALL_CLOCK_SHARE,
  detectType: detectType,
  cpuTimeNs: cpuTimeNs,
  isSettled: isSettled,
  DEFAULTS: DEFAULTS
};
