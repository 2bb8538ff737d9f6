'use strict';
// Native Promise against Bluebird in an asynchronous stream transformation pipeline, after
// Wikimedia's move from Node 4 to Node 6 (see README.md). Every shape is written once in shapes.js
// as a function of a Promise constructor and run with the global Promise or with Bluebird.
// Must load on Node 4: CommonJS, var/function only. The async/await variant is a separate file.
var makeShapes = require('./shapes').makeShapes;

var libraryVersion = require('../lib/library-version');

// Per-benchmark setup: the shapes bound to one Promise implementation, built once, outside samples.
function withNative(ctx, params) {
  return { params: params, implementation: 'native', shapes: makeShapes(Promise) };
}

function withBluebird(ctx, params) {
  var Bluebird = require('bluebird');
  return { params: params, implementation: 'bluebird', shapes: makeShapes(Bluebird) };
}

function pipeline(ctx) {
  return ctx.shapes.pipeline(0, ctx.params.chunks, ctx.params.stages);
}

function concurrent(ctx) {
  return ctx.shapes.concurrentPipelines(ctx.params.chunks, ctx.params.stages, ctx.params.concurrency);
}

function chain(ctx) {
  return ctx.shapes.chain(ctx.params.steps, ctx.params.seed);
}

function fanout(ctx) {
  return ctx.shapes.fanout(ctx.params.width, ctx.params.rounds, ctx.params.seed);
}

function bench(setup, fn, description) {
  return { type: 'promise', setup: setup, fn: fn, description: description };
}

module.exports = {
  name: 'promises',
  description: 'Native Promise against Bluebird in an asynchronous stream transformation pipeline (Wikimedia, Node 4 -> 6)',
  libraries: { bluebird: libraryVersion('bluebird') },
  params: {
    chunks: 200,      // chunks per pipeline
    stages: 5,        // transform stages per pipeline
    concurrency: 10,  // pipelines in flight at once (pipeline-concurrent-*)
    steps: 2000,      // dependent steps (chain-*)
    width: 50,        // parallel steps per round (fanout-*)
    rounds: 20,       // fan-out/fan-in rounds (fanout-*)
    seed: 42
  },
  benchmarks: {
    'pipeline-native': bench(withNative, pipeline, 'one pipeline: source -> stages -> pump, native Promise'),
    'pipeline-bluebird': bench(withBluebird, pipeline, 'one pipeline: source -> stages -> pump, Bluebird'),
    'pipeline-concurrent-native': bench(withNative, concurrent, 'params.concurrency pipelines in flight, native Promise'),
    'pipeline-concurrent-bluebird': bench(withBluebird, concurrent, 'params.concurrency pipelines in flight, Bluebird'),
    'chain-native': bench(withNative, chain, 'params.steps dependent async steps, native Promise'),
    'chain-bluebird': bench(withBluebird, chain, 'params.steps dependent async steps, Bluebird'),
    'fanout-native': bench(withNative, fanout, 'fan-out/fan-in rounds with Promise.all, native Promise'),
    'fanout-bluebird': bench(withBluebird, fanout, 'fan-out/fan-in rounds with Promise.all, Bluebird'),
    'pipeline-async-await': {
      type: 'promise',
      minNode: '7.6.0',
      reason: 'async functions',
      module: './pipeline-async-await.js',
      setup: function (ctx, params) { return { params: params, implementation: 'native' }; },
      description: 'the same pipeline written with async functions and await, native Promise'
    }
  }
};
