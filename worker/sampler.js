'use strict';
// The one sampler every runtime runs (Node 4 to current), so a comparison across versions compares
// runtimes, not measurement code. Shape of a run (after pyperf and mitata):
//   calibrate  grow the iterations per batch until one batch lasts minSampleMs, far above the
//              clock's resolution and the per-batch overhead;
//   warm up    run batches until the rate stops trending (the median of the last few batches is
//              within warmupTolerance of the median of the few before: JIT tiering done, whatever
//              the batch-to-batch noise) after warmupMinMs, or give up at warmupMaxMs and say so;
//   sample     `samples` batches (fewer if maxSampleMs runs out), each a sample of ns per operation.
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
function measureEmpty(type, ctx, n, batches, cb) {
  var batch = emptyBatchFor(type, ctx);
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
  maxIterations: 1e9,
  recordDisturbance: false,
  // Batches of an empty benchmark after the samples (0: none); the first may still be warming up.
  emptyBatches: 5
};

function withDefaults(options) {
  var merged = {};
  Object.keys(DEFAULTS).forEach(function (key) {
    merged[key] = options && options[key] != null ? options[key] : DEFAULTS[key];
  });
  return merged;
}

// Measures one benchmark; cb(err, report) with per-sample ns/op and how they were obtained.
function measure(fn, ctx, type, options, cb) {
  var opts = withDefaults(options);
  var minSampleNs = opts.minSampleMs * 1e6;
  var batch = batchFor(type, fn, ctx);
  var iterations = 1;
  var calibrationBatches = 0;
  var warmupBatches = 0;
  var warmupStart = 0;
  var warmupRates = [];
  var warmupStable = false;
  var samples = [];
  var sampleStart = 0;
  var cpuStart = null;
  var sampleStartUptimeMs = 0;
  var phase = 'calibrate';
  // Readings that tell the host whether the machine was disturbed (timing processes only: the
  // reference loop would dilute a metrics window).
  var watch = opts.recordDisturbance ? disturbance.recorder() : null;
  var referenceTotalNs = 0;

  function later(step) { setImmediate(step); }

  function onBatch(err, elapsedNs) {
    if (err) return cb(err);
    if (phase === 'calibrate') {
      calibrationBatches++;
      if (elapsedNs >= minSampleNs || iterations >= opts.maxIterations) {
        phase = 'warmup';
        warmupStart = clock.now();
      } else {
        var grown = elapsedNs < minSampleNs / 10 ? iterations * 10 : Math.ceil(iterations * minSampleNs * 1.1 / elapsedNs);
        iterations = Math.min(opts.maxIterations, Math.max(iterations + 1, grown));
      }
      return later(runBatch);
    }
    if (phase === 'warmup') {
      warmupBatches++;
      warmupRates.push(elapsedNs / iterations);
      // JIT tiers up during warm-up; keep each batch above the minimum sample time as it does.
      if (elapsedNs < minSampleNs / 2 && iterations < opts.maxIterations) {
        iterations = Math.min(opts.maxIterations, Math.ceil(iterations * minSampleNs * 1.1 / Math.max(elapsedNs, 1)));
        warmupRates = [];
      }
      var warmedMs = clock.since(warmupStart) / 1e6;
      warmupStable = isSettled(warmupRates, opts.warmupWindow, opts.warmupTolerance);
      if ((warmedMs >= opts.warmupMinMs && warmupStable) || warmedMs >= opts.warmupMaxMs) {
        phase = 'sample';
        if (watch) watch.start();
        sampleStartUptimeMs = process.uptime() * 1000;
        sampleStart = clock.now();
        cpuStart = cpuTimeNs();
      }
      return later(runBatch);
    }
    samples.push(elapsedNs / iterations);
    if (watch) {
      var referenceStart = clock.now();
      watch.afterSample();
      referenceTotalNs += clock.since(referenceStart);
    }
    var sampledMs = clock.since(sampleStart) / 1e6;
    if (samples.length >= opts.samples || (sampledMs >= opts.maxSampleMs && samples.length >= 3)) {
      var cpuEnd = cpuTimeNs();
      var ops = samples.length * iterations;
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
        operations: ops,
        cpuNsPerOp: cpuNs !== null ? Math.max(0, cpuNs) / ops : null,
        disturbance: watch ? watch.end() : null,
        cpuMethod: cpuEnd ? cpuEnd.method : null,
        sinkType: typeof sink[0]
      };
      if (!(opts.emptyBatches > 0)) return cb(null, report);
      return measureEmpty(type, ctx, iterations, opts.emptyBatches, function (emptyErr, emptyNs) {
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
    batch(iterations, function (err, elapsedNs) {
      if (called) return;
      called = true;
      onBatch(err, elapsedNs);
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
  detectType: detectType,
  cpuTimeNs: cpuTimeNs,
  isSettled: isSettled,
  DEFAULTS: DEFAULTS
};
