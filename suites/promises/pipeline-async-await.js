'use strict';
// nodebench-min-node: 7.6.0 (async functions). Referenced from index.js with `module:` and
// `minNode: '7.6.0'`, so older runtimes never parse this file.
//
// The same pipeline as shapes.js (source -> stages -> pump, same chunks, same transform), written
// the way current code would write it: async functions and await, on the native Promise.
// Resolves to exactly what pipeline-native resolves to.
const shapes = require('./shapes');

function source(id, chunks) {
  let i = 0;
  return {
    read: async function () {
      return i < chunks ? shapes.chunkValue(id, i++) : null;
    }
  };
}

async function transform(x, k) {
  return shapes.mix(x, k);
}

function stage(upstream, k) {
  return {
    read: async function () {
      const x = await upstream.read();
      return x === null ? null : transform(x, k);
    }
  };
}

async function pump(stream) {
  let count = 0;
  let sum = 0;
  for (;;) {
    const x = await stream.read();
    if (x === null) return { chunks: count, sum: sum };
    count++;
    sum += x;
  }
}

function pipeline(id, chunks, stages) {
  let stream = source(id, chunks);
  for (let k = 0; k < stages; k++) stream = stage(stream, k);
  return pump(stream);
}

module.exports = function pipelineAsyncAwait(ctx) {
  return pipeline(0, ctx.params.chunks, ctx.params.stages);
};
