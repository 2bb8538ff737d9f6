'use strict';
// The macro number: a whole request path under load (see README.md). The runtime under test runs a
// small JSON service (worker/serve.js starts it from `service.createServer`, on 127.0.0.1, port 0);
// the host drives it with autocannon over loopback and reports req/s, latency percentiles, errors,
// and the service's CPU and peak RSS. Must load on Node 4: CommonJS, var/function only.
//
// Each benchmark is a load profile (`load(params)`: connections, durationSec, warmupSec, rate).
// Its `fn` is the same request path without the network (parse body, update the cached profile,
// stringify), so `worker/child.js once` can check what the service answers on every runtime.
var app = require('./app');
var profiles = require('./profiles');

function load(rate) {
  return function (params) {
    return {
      connections: params.connections,
      durationSec: params.durationSec,
      warmupSec: params.warmupSec,
      rate: rate ? params.rate : null
    };
  };
}

// What fn handles: one POST /profile/:id from the replayed list, against a fresh cache.
function sampleRequest(ctx, params) {
  app.validate(params);
  var request = app.requests(params)[1];
  return {
    store: profiles.createStore(params.profiles, params.seed),
    method: request.method,
    path: request.path,
    body: request.body
  };
}

function requestPath(ctx) {
  return app.handle(ctx.store, ctx.method, ctx.path, ctx.body).body;
}

module.exports = {
  name: 'service',
  description: 'A JSON profile API (parse body, update an in-memory cache, stringify) under HTTP load on loopback: req/s, latency p50-p99, errors, CPU %, peak RSS',
  params: {
    profiles: 1000,        // cached user profiles, generated deterministically at start
    seed: 1,
    distinctRequests: 64,  // distinct POST bodies the load generator cycles through
    requestTime: '2019-05-14T10:00:00.000Z',  // what each update writes as lastSeen
    connections: 10,       // concurrent keep-alive connections from the load generator
    durationSec: 2,        // measured load window (whole seconds; one sample per second): 2, not 3, since the
                           // server and the load generator are pinned to separate cores (cli/runner/service.js)
                           // the processes of a cell agree and a process more buys more than a longer window
    warmupSec: 1,          // load before the measured window, excluded from every figure
    rate: 1000             // requests per second, all connections together (fixed-rate-1k only)
  },
  service: {
    createServer: app.createServer,
    requests: app.requests
  },
  benchmarks: {
    'max-throughput': {
      setup: sampleRequest,
      fn: requestPath,
      load: load(false),
      description: 'closed loop: each connection sends its next request as soon as the last answer arrives'
    },
    'fixed-rate-1k': {
      setup: sampleRequest,
      fn: requestPath,
      load: load(true),
      description: 'params.rate requests per second (default 1000) over all connections; latency at a production-like load'
    }
  }
};
