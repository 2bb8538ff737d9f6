'use strict';
// Entry point of a service worker: runs INSIDE the runtime under test (Node 4 to current), started
// by the host (cli/runner/service.js) as
//   node [cell flags] worker/serve.js '<json {suite, benchmark, params}>'
// with stdin a pipe (its first line the request and nonce, then commands) and fd 3 a pipe for
// reports (worker/channel.js).
// It loads a service suite (one that exports `service.createServer(params)`), listens on 127.0.0.1
// port 0 and reports, in order:
//   {type:'hello', runtime}   {type:'listening', port, host, pid, load, requests}
// then obeys one command per stdin line:
//   start  the host begins the measured load: note CPU time, wall clock and requests handled;
//          answers {type:'started'}
//   stop   answers {type:'service-metrics', cpuMs, wallMs, cpuPercent, cpuMethod, peakRssBytes,
//          peakRssMethod, memory, requestsHandled, requestsTotal}, closes the server and exits
// Anything wrong is {type:'error', phase, message} and exit 1; a runtime too old for the suite is
// {type:'unsupported', reason} and exit 0. If the host goes away (stdin ends) the worker exits.
// Must not require anything from cli/ (host side, modern syntax).
var channel = require('./channel');
var common = require('./common');
var sampler = require('./sampler');
var metrics = require('./metrics');

var HOST = '127.0.0.1';

var fail = common.fail;

function positive(value, fallback) {
  var n = Number(value);
  return value !== null && value !== undefined && isFinite(n) && n > 0 ? n : fallback;
}

// The benchmark's load profile: its `load` (a function of params, or an object), else params.
// suite-loader keeps only the fields it knows, so this reads the suite's own export.
function loadProfile(suite, benchmarkName, params) {
  var spec = suite.exported && suite.exported.benchmarks ? suite.exported.benchmarks[benchmarkName] : null;
  var load = spec && spec.load;
  if (typeof load === 'function') load = load(params);
  if (!load || typeof load !== 'object') {
    load = { connections: params.connections, durationSec: params.durationSec, warmupSec: params.warmupSec, rate: params.rate };
  }
  return {
    connections: Math.floor(positive(load.connections, 10)),
    durationSec: Math.max(1, Math.round(positive(load.durationSec, 3))),
    warmupSec: load.warmupSec === 0 ? 0 : Math.max(1, Math.round(positive(load.warmupSec, 1))),
    rate: load.rate ? Math.floor(positive(load.rate, 0)) || null : null
  };
}

function hrMs(start) {
  var d = process.hrtime(start);
  return d[0] * 1e3 + d[1] / 1e6;
}

function main() {
  var request = common.start('serve.js');
  common.loadBenchmark(request, serve);
}

function serve(loaded) {
  var suite = loaded.suite;
  var benchmark = loaded.benchmark;
  var params = loaded.params;
  if (!suite.service || typeof suite.service.createServer !== 'function') {
    return fail(new Error('suite ' + suite.name + ' is not a service suite: it must export service.createServer(params)'), 'load');
  }

  var server;
  var load;
  var requests;
  try {
    load = loadProfile(suite, benchmark.name, params);
    requests = typeof suite.service.requests === 'function' ? suite.service.requests(params) : [{ method: 'GET', path: '/' }];
    server = suite.service.createServer(params);
    if (!server || typeof server.listen !== 'function') {
      throw new Error('service.createServer(params) must return an http.Server (got ' + typeof server + ')');
    }
  } catch (err) {
    return fail(err, 'setup');
  }

  var handled = 0;
  var measured = null;
  server.on('request', function () { handled++; });
  server.on('error', function (err) { fail(err, 'listen'); });

  function start() {
    measured = { cpu: sampler.cpuTimeNs(), wall: process.hrtime(), handled: handled };
    channel.send({ type: 'started' });
  }

  function stop() {
    var cpu = sampler.cpuTimeNs();
    var memory = metrics.memory();
    var wallMs = measured ? hrMs(measured.wall) : null;
    var cpuMs = measured && measured.cpu && cpu ? (cpu.ns - measured.cpu.ns) / 1e6 : null;
    channel.send({
      type: 'service-metrics',
      cpuMs: cpuMs,
      wallMs: wallMs,
      cpuPercent: cpuMs !== null && wallMs ? 100 * cpuMs / wallMs : null,
      cpuMethod: cpu ? cpu.method : null,
      peakRssBytes: memory.peakRssBytes,
      peakRssMethod: memory.peakRssMethod,
      memory: memory,
      requestsHandled: measured ? handled - measured.handled : null,
      requestsTotal: handled
    });
    server.close();
    process.exit(0);
  }

  var pending = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', function (chunk) {
    pending += chunk;
    var lines = pending.split('\n');
    pending = lines.pop();
    lines.forEach(function (line) {
      var command = line.trim();
      if (command === 'start') start();
      else if (command === 'stop') stop();
      else if (command) fail(new Error('unknown command "' + command + '" on stdin'), 'protocol');
    });
  });
  // The host is gone: nothing will stop this server, so stop now.
  process.stdin.on('end', function () { process.exit(0); });

  server.listen(0, HOST, function () {
    channel.send({
      type: 'listening',
      host: HOST,
      port: server.address().port,
      pid: process.pid,
      load: load,
      params: params,
      requests: requests
    });
  });
}

main();
