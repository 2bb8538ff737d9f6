'use strict';
// What every worker entry (child.js for timing/metrics, serve.js for services) does the same way:
// read the host's request, say hello, report failures on the channel, find and version-check the
// benchmark. Node-4-compatible; must not require anything from cli/.
var channel = require('./channel');
var suiteLoader = require('./suite-loader');

function hasModule(name) {
  try {
    require(name);
    return true;
  } catch (err) {
    return false;
  }
}

function runtimeInfo() {
  return {
    node: process.version.replace(/^v/, ''),
    v8: process.versions.v8,
    arch: process.arch,
    platform: process.platform,
    execArgv: process.execArgv,
    features: {
      perfHooks: hasModule('perf_hooks'),
      cpuUsage: typeof process.cpuUsage === 'function',
      resourceUsage: typeof process.resourceUsage === 'function'
    }
  };
}

function fail(err, phase) {
  channel.send({
    type: 'error',
    phase: phase,
    name: err && err.name,
    message: err && err.message ? String(err.message) : String(err),
    stack: err && err.stack ? String(err.stack).split('\n').slice(0, 8).join('\n') : null
  });
  process.exit(1);
}

function mergeParams(defaults, overrides) {
  var params = {};
  Object.keys(defaults || {}).forEach(function (k) { params[k] = defaults[k]; });
  Object.keys(overrides || {}).forEach(function (k) { params[k] = overrides[k]; });
  return params;
}

function findBenchmark(suite, name) {
  for (var i = 0; i < suite.benchmarks.length; i++) {
    if (suite.benchmarks[i].name === name) return suite.benchmarks[i];
  }
  throw new Error('suite ' + suite.name + ' has no benchmark "' + name + '"; it has ' +
    suite.benchmarks.map(function (b) { return b.name; }).join(', '));
}

// The first line on stdin, read synchronously before any suite code runs (so a benchmark can never
// read it): what the host sends there is not on the command line (/proc/<pid>/cmdline) or in the
// environment (/proc/<pid>/environ), which any code in the process can read, and has no size limit.
function readFirstLine() {
  var fs = require('fs');
  var chunk = typeof Buffer.alloc === 'function' ? Buffer.alloc(65536) : new Buffer(65536);
  var text = '';
  var spins = 0;
  for (;;) {
    var n;
    try {
      n = fs.readSync(0, chunk, 0, chunk.length, null);
    } catch (err) {
      if (err.code === 'EAGAIN' && ++spins < 1e7) continue;
      if (err.code === 'EOF') n = 0;
      else throw err;
    }
    if (n === 0) return text;
    text += chunk.toString('utf8', 0, n);
    var end = text.indexOf('\n');
    if (end !== -1) return text.slice(0, end);
  }
}

// Reads the request (the host's first line on stdin: {request, nonce}; or argv[2], for a worker
// started by hand), arms the channel, says hello, and turns any later uncaught error into the
// cell's failure. Returns the request.
// What the host sent first, for a restart of this worker (restartWithLoader).
var restartLine = '';

function start(entryName) {
  var request;
  var nonce = null;
  try {
    if (process.argv[2]) {
      request = JSON.parse(process.argv[2]);
    } else {
      var line = readFirstLine();
      var first = JSON.parse(line);
      request = first.request;
      nonce = first.nonce;
      restartLine = line + '\n';
    }
  } catch (err) {
    return fail(new Error('worker/' + entryName + ' expects its request as JSON on its first line of stdin (the host writes it)'), 'request');
  }
  channel.arm(nonce);
  channel.send({ type: 'hello', runtime: runtimeInfo() });
  // An exception thrown later from a timer or stream callback still ends the cell with its reason.
  // An error a library file's own code throws after its run() (reading results nodebench
  // replaces) ends the file instead (suite-loader.js absorbs).
  process.on('uncaughtException', function (err) {
    if (!suiteLoader.absorbs(err)) fail(err, 'run');
  });
  process.on('unhandledRejection', function (reason) {
    var err = reason instanceof Error ? reason : new Error('unhandled rejection: ' + String(reason));
    if (!suiteLoader.absorbs(err)) fail(err, 'run');
  });
  return request;
}

function unsupported(reason) {
  channel.send({ type: 'unsupported', reason: reason });
  process.exit(0);
}

// The same worker, the same request, in a fresh process of this runtime with the same flags plus a
// loader (an ES module's import of a benchmark library on a runtime without module.register). The
// new process reports on the same channel and is measured; this one waits and exits as it does.
function restartWithLoader(loaderUrl) {
  var spawn = require('child_process').spawn;
  var args = process.execArgv.concat(['--experimental-loader', loaderUrl], process.argv.slice(1));
  var child = spawn(process.execPath, args, { stdio: ['pipe', 1, 2, channel.fd] });
  // The new process gets the host's first line (request and nonce) as this one did, then whatever
  // else the host sends (a service's commands); it speaks for both from now on.
  if (restartLine) child.stdin.write(restartLine);
  process.stdin.pipe(child.stdin);
  channel.handOver();
  child.on('error', function (err) { fail(err, 'load'); });
  child.on('exit', function (code, signal) {
    if (signal) process.kill(process.pid, signal);
    process.exit(code === null ? 1 : code);
  });
}

// The suite a request names, loaded in whatever form it is written; a runtime that cannot load it
// reports `unsupported` with the reason and exits.
function loadSuite(request, cb) {
  suiteLoader.load(request.suite, function (err, suite) {
    if (err && err.restartWithLoader) return restartWithLoader(err.restartWithLoader);
    if (err && err.unsupported) return unsupported(err.message);
    if (err) return fail(err, 'load');
    cb(suite);
  }, request.mode === 'list' ? null : request.benchmark);
}

// The suite and benchmark a request names; reports `unsupported` and exits when this runtime is too
// old for them (the host checks first; this guards direct use), and fails with the sentence when
// nodebench refuses an option the benchmark's library file uses. cb({ suite, benchmark, params }).
function loadBenchmark(request, cb) {
  loadSuite(request, function (suite) {
    var benchmark;
    try {
      benchmark = findBenchmark(suite, request.benchmark);
    } catch (err) {
      return fail(err, 'load');
    }
    var reason = suiteLoader.unsupportedReason(suite, benchmark, process.version);
    if (reason) return unsupported(reason);
    if (benchmark.refused) return fail(new Error(benchmark.refused), 'load');
    cb({ suite: suite, benchmark: benchmark, params: mergeParams(suite.params, request.params) });
  });
}

module.exports = { start: start, fail: fail, loadSuite: loadSuite, loadBenchmark: loadBenchmark, runtimeInfo: runtimeInfo };
