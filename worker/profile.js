'use strict';
// Mode "profile" of the worker, for `nodebench explain` (cli/explain/): runs one benchmark like a
// timing process and samples the CPU while it runs, with the inspector's Profiler. Node 8+ drives it
// from inside (require('inspector')); the profile goes to request.profileFile (a .cpuprofile
// DevTools and speedscope open). Node 6.3-7 have the Profiler but no inspector module: the host
// starts them with --inspect on a loopback port and drives the Profiler over it
// (request.hostProfiler, cli/explain/inspect-port.js); this process only says when its window
// starts and ends and waits for the host's word. Without either it only runs the benchmark, for a
// process the host starts with --trace-deopt and --allow-natives-syntax, and reports the benchmark
// function's optimisation status (V8's %GetOptimizationStatus) after the run.
// Shape: a first pass calibrates and warms up unprofiled; the profiler then starts and a second pass
// (already warm) samples for the window. The report says how long the profiler ran, how long the
// window was and when it ended (on the monotonic clock V8's profile timestamps use), so the host can
// keep only the samples of the window and scale them to the operations measured in it.
// Loads on Node 4 (the mode then reports that the runtime cannot profile).
var fs = require('fs');
var channel = require('./channel');
var common = require('./common');
var sampler = require('./sampler');

function hrtimeMs() {
  var t = process.hrtime();
  return t[0] * 1e3 + t[1] / 1e6;
}

// The inspector module arrived with Node 8.0; a runtime built without it lacks it later too.
function openSession() {
  var inspector;
  try {
    inspector = require('inspector');
  } catch (err) {
    return null;
  }
  if (!inspector || typeof inspector.Session !== 'function') return null;
  var session = new inspector.Session();
  session.connect();
  return session;
}

// Calls the inspector methods one after the other; cb(err, lastResult).
function post(session, calls, cb) {
  var i = 0;
  function next(err, result) {
    if (err) return cb(err);
    if (i >= calls.length) return cb(null, result);
    var call = calls[i++];
    session.post(call[0], call[1] || {}, next);
  }
  next(null, null);
}

// Longer than the host needs to connect and answer on a loaded machine; a host that never answers
// must not leave the process waiting until the run's time limit.
var HOST_WAIT_MS = 30000;

// Asks the host to start or stop the Profiler (a message on the channel) and continues once it has
// called the global request.hostProfiler.hook over the inspector (Runtime.evaluate); the timer keeps
// the event loop alive meanwhile (the inspector's own handles do not).
function askHost(hook, action, cb) {
  var timer = setTimeout(function () {
    common.fail(new Error('nodebench did not ' + action + ' the inspector Profiler over --inspect within ' + HOST_WAIT_MS / 1000 + ' s'), 'run');
  }, HOST_WAIT_MS);
  global[hook] = function () {
    global[hook] = undefined;
    clearTimeout(timer);
    // Not inside the host's Runtime.evaluate: the benchmark runs on the event loop as always.
    setImmediate(function () { cb(null, null); });
    return true;
  };
  channel.send({ type: 'profiler-wanted', action: action });
}

function startProfiler(session, request, cb) {
  if (session) return post(session, [['Profiler.enable'], ['Profiler.setSamplingInterval', { interval: request.intervalUs }], ['Profiler.start']], cb);
  if (request.hostProfiler) return askHost(request.hostProfiler.hook, 'start', cb);
  cb(null, null);
}

// cb(err, profile or null): the host keeps the profile it stopped.
function stopProfiler(session, request, cb) {
  if (session) {
    return post(session, [['Profiler.stop']], function (err, stopped) {
      cb(err, stopped && stopped.profile);
    });
  }
  if (request.hostProfiler) return askHost(request.hostProfiler.hook, 'stop', cb);
  cb(null, null);
}

// %GetOptimizationStatus(fn): a number whose meaning depends on the V8 version (the host decodes
// it); null when the process was started without --allow-natives-syntax.
function optimizationStatus(fn) {
  if (process.execArgv.indexOf('--allow-natives-syntax') < 0) return null;
  try {
    // Natives syntax only parses in code compiled at run time, in a process with the flag.
    return new Function('f', 'return %GetOptimizationStatus(f);')(fn);
  } catch (err) {
    return null;
  }
}

// explain's profile names are predictable, in a folder the user names and others may write to: the
// profile goes to a fresh name made with O_EXCL ('wx' fails on whatever is there, a link included,
// and follows none), then is renamed over the name, which replaces a link or a FIFO planted there
// instead of writing through it (cli/fs-atomic.js does the same on the host).
function writeProfile(file, text) {
  var tmp = file + '.' + process.pid + '.' + Date.now() + '.tmp';
  fs.writeFileSync(tmp, text, { flag: 'wx' });
  try {
    fs.renameSync(tmp, file);
  } catch (err) {
    try {
      fs.unlinkSync(tmp);
    } catch (ignored) {
      // Never made, or gone already.
    }
    throw err;
  }
}

function copy(object, over) {
  var out = {};
  Object.keys(object || {}).forEach(function (key) { out[key] = object[key]; });
  Object.keys(over).forEach(function (key) { out[key] = over[key]; });
  return out;
}

// withBenchmark and withType are child.js's (suite loading, setup, the type probe).
function run(request, withBenchmark, withType) {
  var session = null;
  if (request.profileFile && !request.hostProfiler) {
    session = openSession();
    if (!session) {
      channel.send({ type: 'unsupported', reason: 'Node ' + process.versions.node + ' has no inspector Profiler (require("inspector") needs Node 8 or newer)' });
      return process.exit(0);
    }
  }
  withBenchmark(request, function (suite, benchmark, fn, ctx, params, cleanup) {
    withType(benchmark, fn, ctx, function (type) {
      var warm = copy(request.sampler, { samples: 3, maxSampleMs: request.warmupPassMs || 300, emptyBatches: 0, recordDisturbance: false });
      sampler.measure(fn, ctx, type, warm, function (warmErr) {
        if (warmErr) return common.fail(warmErr, 'run');
        var measured = copy(request.sampler, { samples: 1e9, maxSampleMs: request.windowMs, warmupMinMs: 0, warmupMaxMs: 1, emptyBatches: 0, recordDisturbance: false });
        startProfiler(session, request, function (startErr) {
          if (startErr) return common.fail(new Error('the inspector Profiler did not start: ' + (startErr.message || startErr)), 'run');
          var startedMs = hrtimeMs();
          sampler.measure(fn, ctx, type, measured, function (err, report) {
            if (err) return common.fail(err, 'run');
            var endedMs = hrtimeMs();
            var status = optimizationStatus(fn);
            stopProfiler(session, request, function (stopErr, profile) {
              if (stopErr) return common.fail(new Error('the inspector Profiler did not stop: ' + (stopErr.message || stopErr)), 'run');
              if (session) {
                session.disconnect();
                try {
                  writeProfile(request.profileFile, JSON.stringify(profile));
                } catch (writeErr) {
                  return common.fail(new Error('the profile could not be written to ' + request.profileFile + ': ' + writeErr.message), 'run');
                }
              }
              cleanup(function (teardownErr) {
                if (teardownErr) return common.fail(teardownErr, 'teardown');
                channel.send({
                  type: 'profile',
                  benchmarkType: type,
                  operations: report.operations,
                  sampleMs: report.sampleMs,
                  profiledMs: endedMs - startedMs,
                  // process.hrtime and V8's profile timestamps are both the monotonic clock.
                  windowEndUs: endedMs * 1e3,
                  wallNsPerOp: report.sampleMs * 1e6 / report.operations,
                  cpuNsPerOp: report.cpuNsPerOp,
                  optimizationStatus: status,
                  v8: process.versions.v8
                });
                process.exit(0);
              });
            });
          });
        });
      });
    });
  });
}

module.exports = { run: run };
