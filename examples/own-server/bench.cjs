'use strict';
// Your own HTTP server under load, on every runtime and flag set: nodebench starts it in the runtime
// under test from `service.createServer(params)` (listening on 127.0.0.1, an ephemeral port), drives
// it with autocannon over loopback and reports req/s, latency p50-p99, errors, CPU and peak RSS.
//   nodebench run examples/own-server/bench.cjs --node 18,22
// Each benchmark is a load profile. A `fn` beside it (optional) is the same request path without the
// network, which lets a test check what the app answers on each runtime.
var http = require('http');
var app = require('./app.cjs');

var ORDER = JSON.stringify({ items: [{ sku: 'a-1', qty: 2, price: 9.99 }, { sku: 'b-7', qty: 1, price: 24.5 }, { sku: 'c-3', qty: 5, price: 1.25 }] });

module.exports = {
  name: 'orders-api',
  description: 'A team\'s own orders API (examples/own-server/app.cjs) under HTTP load on loopback',
  params: { connections: 10, durationSec: 3, warmupSec: 1, rate: 500 },
  service: {
    createServer: function () {
      return http.createServer(app.createApp().handler);
    },
    // What the load generator sends, cycled over every connection.
    requests: function () {
      return [
        { method: 'POST', path: '/orders', headers: { 'content-type': 'application/json' }, body: ORDER },
        { method: 'GET', path: '/orders/1' }
      ];
    }
  },
  benchmarks: {
    'create-order': {
      // Closed loop: as many requests as the server answers.
      load: function (params) { return { connections: params.connections, durationSec: params.durationSec, warmupSec: params.warmupSec }; },
      setup: function () { return { app: app.createApp() }; },
      fn: function (ctx) { return ctx.app.handle('POST', '/orders', ORDER).body.total; }
    },
    'fixed-rate': {
      // params.rate requests per second over all connections: latency at a production-like load.
      load: function (params) { return { connections: params.connections, durationSec: params.durationSec, warmupSec: params.warmupSec, rate: params.rate }; }
    }
  }
};
