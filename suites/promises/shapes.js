'use strict';
// The promise code shapes of the promises suite, each written ONCE as a function of a Promise
// constructor, so that native Promise and Bluebird run exactly the same code:
//   makeShapes(Promise) or makeShapes(require('bluebird'))
// Runs on Node 4 and newer: no newer syntax here (pipeline-async-await.js holds the async variant).
//
// The work per chunk is deliberately tiny (one integer mix) so that what is measured is the cost of
// the promises themselves: creating, resolving, chaining and assimilating them.

var MODULUS = 1000003;

// The "transformation" a stage applies to a chunk; k is the stage (or step) number.
function mix(x, k) {
  return (x * 31 + k * 7 + 13) % MODULUS;
}

// Chunk i of pipeline number id.
function chunkValue(id, i) {
  return (id * 7919 + i * 104729 + 1) % MODULUS;
}

function makeShapes(P) {
  // An async transform: returns a promise of the transformed chunk.
  function transform(x, k) {
    return new P(function (resolve) { resolve(mix(x, k)); });
  }

  // Source of `chunks` chunks; read() returns a promise of the next chunk, or of null at the end.
  function source(id, chunks) {
    var i = 0;
    return {
      read: function () {
        return new P(function (resolve) {
          resolve(i < chunks ? chunkValue(id, i++) : null);
        });
      }
    };
  }

  // A transform stage pulling from upstream.
  function stage(upstream, k) {
    return {
      read: function () {
        return upstream.read().then(function (x) {
          return x === null ? null : transform(x, k);
        });
      }
    };
  }

  // Drains a stream, one read at a time, in constant memory; resolves with a checksum.
  function pump(stream) {
    return new P(function (resolve, reject) {
      var count = 0;
      var sum = 0;
      function onChunk(x) {
        if (x === null) return resolve({ chunks: count, sum: sum });
        count++;
        sum += x;
        stream.read().then(onChunk, reject);
      }
      stream.read().then(onChunk, reject);
    });
  }

  // One pipeline: source -> `stages` transform stages -> pump.
  function pipeline(id, chunks, stages) {
    var stream = source(id, chunks);
    for (var k = 0; k < stages; k++) stream = stage(stream, k);
    return pump(stream);
  }

  // `concurrency` pipelines in flight at once, each over its own `chunks` chunks.
  function concurrentPipelines(chunks, stages, concurrency) {
    var running = [];
    for (var id = 0; id < concurrency; id++) running.push(pipeline(id, chunks, stages));
    return P.all(running).then(function (results) {
      var total = { pipelines: results.length, chunks: 0, sum: 0, sums: [] };
      for (var i = 0; i < results.length; i++) {
        total.chunks += results[i].chunks;
        total.sum += results[i].sum;
        total.sums.push(results[i].sum);
      }
      return total;
    });
  }

  // A sequential chain of `steps` dependent async steps, each using the previous step's value.
  function chain(steps, seed) {
    var p = P.resolve(seed);
    for (var i = 0; i < steps; i++) p = p.then(chainStep(i));
    return p.then(function (value) { return { steps: steps, value: value }; });
  }

  function chainStep(i) {
    return function (value) { return transform(value, i); };
  }

  // Fan-out / fan-in: `rounds` rounds; each starts `width` async steps in parallel and waits for all.
  function fanout(width, rounds, seed) {
    var first = [];
    for (var j = 0; j < width; j++) first.push(mix(seed, j));
    var p = P.resolve(first);
    for (var r = 0; r < rounds; r++) p = p.then(fanoutRound(r, width));
    return p.then(function (values) {
      var sum = 0;
      for (var i = 0; i < values.length; i++) sum += values[i];
      return { width: width, rounds: rounds, sum: sum, first: values[0], last: values[values.length - 1] };
    });
  }

  function fanoutRound(r, width) {
    return function (values) {
      var parallel = [];
      // Each step depends on its own input and its neighbour's, so a round depends on the last.
      for (var j = 0; j < width; j++) {
        parallel.push(transform((values[j] + values[(j + 1) % width]) % MODULUS, r * width + j));
      }
      return P.all(parallel);
    };
  }

  return {
    pipeline: pipeline,
    concurrentPipelines: concurrentPipelines,
    chain: chain,
    fanout: fanout
  };
}

module.exports = { makeShapes: makeShapes, mix: mix, chunkValue: chunkValue, MODULUS: MODULUS };
