'use strict';
// Entry point of the worker: runs INSIDE the runtime under test (Node 4 to current), started by the
// host as `node [cell flags] worker/child.js` with its request (and the nonce its reports carry) as
// the first line on stdin and a pipe on fd 3 for reports (worker/channel.js).
// Modes:
//   list  describe a suite (name, params, benchmarks, minimum runtimes) for the host's plan
//   run   measure one benchmark and report samples, calibration and memory
//   metrics  run one benchmark for a window and report CPU, memory and event-loop delay (the host
//            adds GC figures from --trace-gc)
//   profile  run one benchmark under the CPU profiler, or for its optimisation status (profile.js)
//   once  call one benchmark once and report its value (used by tests to check what suites compute)
// Must not require anything from cli/ (host side, modern syntax).
var channel = require('./channel');
var common = require('./common');
var suiteLoader = require('./suite-loader');
var sampler = require('./sampler');
var instructions = require('./instructions');
var metrics = require('./metrics');
var clock = require('./clock');
var eventLoopDelay = require('./event-loop-delay');

// Calls fn(arg) and passes its value, or what its promise resolves to, to cb(err, value).
function settle(fn, args, cb) {
  var value;
  try {
    value = fn.apply(null, args);
  } catch (err) {
    return cb(err);
  }
  if (value && typeof value.then === 'function') {
    value.then(function (v) { cb(null, v); }, function (reason) {
      cb(reason instanceof Error ? reason : new Error(String(reason)));
    });
  } else {
    cb(null, value);
  }
}

// Suite setup, then benchmark setup, each sync or promise-returning; cb(err, ctx, cleanup).
function prepare(suite, benchmark, params, cb) {
  var suiteSetup = suite.setup || function () { return {}; };
  settle(suiteSetup, [params], function (err, suiteCtx) {
    if (err) return cb(err, null, 'setup');
    if (suiteCtx === undefined) suiteCtx = {};
    var benchSetup = benchmark.setup || function (ctx) { return ctx; };
    settle(benchSetup, [suiteCtx, params], function (err2, benchCtx) {
      if (err2) return cb(err2, null, 'setup');
      if (benchCtx === undefined) benchCtx = suiteCtx;
      cb(null, benchCtx, function cleanup(done) {
        var benchTeardown = benchmark.teardown || function () {};
        settle(benchTeardown, [benchCtx, params], function (err3) {
          var suiteTeardown = suite.teardown || function () {};
          settle(suiteTeardown, [suiteCtx, params], function (err4) { done(err3 || err4); });
        });
      });
    });
  });
}

function withBenchmark(request, cb) {
  common.loadBenchmark(request, function (loaded) {
    var suite = loaded.suite;
    var benchmark = loaded.benchmark;
    var params = loaded.params;
    var fn;
    try {
      fn = suiteLoader.resolveFn(benchmark);
    } catch (err) {
      return common.fail(err, 'load');
    }
    // The phase is said before it starts, so that a process that exits without a word (process.exit
    // in a suite's setup, say) is reported with the phase it died in.
    channel.send({ type: 'phase', phase: 'setup' });
    prepare(suite, benchmark, params, function (err, ctx, cleanup) {
      if (err) return common.fail(err, 'setup');
      // A benchmark whose setup yields what to time (a mitata generator, say): a function, or a
      // managed or per-call target (worker/sampler.js).
      if (benchmark.fnFromSetup) {
        if (typeof ctx !== 'function' && !isTarget(ctx)) return common.fail(new Error('benchmark "' + benchmark.name + '" set up ' + typeof ctx + ' instead of a function to time'), 'setup');
        fn = ctx;
        ctx = undefined;
      }
      channel.send({ type: 'phase', phase: 'run' });
      cb(suite, benchmark, fn, ctx, params, cleanup);
    });
  });
}

function isTarget(value) {
  return !!value && typeof value === 'object' && (value.timing === 'managed' || value.timing === 'per-call');
}

// The benchmark's type as declared, or as its first call shows (a thenable means 'promise'). A
// managed or per-call target says its own (its form knows, or probed it with its hooks around).
function withType(benchmark, fn, ctx, cb) {
  if (isTarget(fn)) return cb(fn.type || 'sync');
  if (benchmark.type) return cb(benchmark.type);
  sampler.detectType(fn, ctx, function (err, type) {
    if (err) return common.fail(err, 'run');
    cb(type);
  });
}

function modeList(request) {
  common.loadSuite(request, function (suite) {
    channel.send({ type: 'suite', suite: suiteLoader.describe(suite) });
    process.exit(0);
  });
}

// Measure 'instructions' counts each batch under valgrind (worker/instructions.js); the marks' file
// is opened before the benchmark is set up, so that a failure to open it is nodebench's, said first.
function measurer(request) {
  var options = request.sampler || {};
  if (options.measure !== 'instructions') {
    return function (fn, ctx, type, cb) { sampler.measure(fn, ctx, type, options, cb); };
  }
  var count;
  try {
    count = instructions.counter(request.counting || {});
  } catch (err) {
    return common.fail(new Error('nodebench could not open the file it marks instruction counts with (' + err.message + ')'), 'request');
  }
  return function (fn, ctx, type, cb) {
    instructions.measure(fn, ctx, type, options, count, function (err, report) {
      count.close();
      cb(err, report);
    });
  };
}

function modeRun(request) {
  var measure = measurer(request);
  withBenchmark(request, function (suite, benchmark, fn, ctx, params, cleanup) {
    function measureAs(type) {
      measure(fn, ctx, type, function (err, report) {
        if (err) return common.fail(err, 'run');
        var memory = metrics.memory();
        cleanup(function (teardownErr) {
          if (teardownErr) return common.fail(teardownErr, 'teardown');
          channel.send({
            type: 'result',
            benchmarkType: type,
            params: params,
            measurement: report,
            memory: memory,
            clockResolutionNs: clock.resolutionNs()
          });
          process.exit(0);
        });
      });
    }
    withType(benchmark, fn, ctx, measureAs);
  });
}

// A separate metrics process (started with --trace-gc by the host): runs the benchmark for a
// window like a timing process would, and reports CPU, memory and event-loop delay for that window.
// Its timings are not used as samples: tracing GC and the delay probe cost time themselves.
function modeMetrics(request) {
  withBenchmark(request, function (suite, benchmark, fn, ctx, params, cleanup) {
    function measureAs(type) {
      var asynchronous = type !== 'sync';
      var stopDelay = asynchronous ? eventLoopDelay.start() : null;
      sampler.measure(fn, ctx, type, request.sampler, function (err, report) {
        var delay = stopDelay ? stopDelay() : {
          method: 'n/a: a synchronous benchmark blocks the event loop for each whole batch by design'
        };
        if (err) return common.fail(err, 'run');
        var memory = metrics.memory();
        cleanup(function (teardownErr) {
          if (teardownErr) return common.fail(teardownErr, 'teardown');
          channel.send({
            type: 'metrics',
            benchmarkType: type,
            window: report.window,
            operations: report.operations,
            wallNsPerOp: report.sampleMs * 1e6 / report.operations,
            cpuNsPerOp: report.cpuNsPerOp,
            cpuMethod: report.cpuMethod,
            memory: memory,
            eventLoopDelay: delay
          });
          process.exit(0);
        });
      });
    }
    withType(benchmark, fn, ctx, measureAs);
  });
}

function modeOnce(request) {
  withBenchmark(request, function (suite, benchmark, fn, ctx, params, cleanup) {
    function report(err, value) {
      if (err) return common.fail(err, 'run');
      cleanup(function (teardownErr) {
        if (teardownErr) return common.fail(teardownErr, 'teardown');
        channel.send({ type: 'value', value: value === undefined ? null : value });
        process.exit(0);
      });
    }
    // A managed target makes its one call as its form does (or runs one batch of one call, which
    // gives no value back); a per-call target's call has its hooks around it.
    if (fn && fn.timing === 'managed') return fn.once ? fn.once(report) : fn.run(1, function (err) { report(err, null); });
    if (fn && fn.timing === 'per-call') {
      var target = fn;
      var hook = function (f) { return f || function () {}; };
      return settle(hook(target.beforeEach), [], function (err) {
        if (err) return report(err);
        settle(target.fn, [ctx], function (err2, value) {
          if (err2) return report(err2);
          settle(hook(target.afterEach), [], function (err3) { report(err3, value); });
        });
      });
    }
    if (benchmark.type === 'callback') {
      try {
        fn(ctx, report);
      } catch (err) {
        report(err);
      }
      return;
    }
    settle(fn, [ctx], report);
  });
}

function main() {
  var request = common.start('child.js');
  if (request.mode === 'list') return modeList(request);
  if (request.mode === 'run') return modeRun(request);
  if (request.mode === 'once') return modeOnce(request);
  if (request.mode === 'metrics') return modeMetrics(request);
  // nodebench explain: a profiled run, or one for its optimisation status (worker/profile.js).
  if (request.mode === 'profile') return require('./profile').run(request, withBenchmark, withType);
  common.fail(new Error('unknown worker mode "' + request.mode + '"'), 'request');
}

main();
