'use strict';
// A file written for benchmark.js, unchanged, in Node 4's syntax:
//   nodebench run examples/benchmark.cjs --node 4,18,22
// `setup` is compiled with the benchmark as benchmark.js does, so `list` below is visible to it;
// `defer: true` benchmarks resolve their deferred when done. Events (cycle, complete) never fire
// under nodebench: it prints its own tables.
var Benchmark = require('benchmark');

new Benchmark.Suite('sorting')
  .add('Array#sort numbers', function () {
    // eslint-disable-next-line no-undef -- declared by setup, compiled into the same scope
    list.slice().sort(function (a, b) { return a - b; });
  }, {
    setup: function () {
      var list = [];
      for (var i = 0; i < 200; i++) list.push((i * 7919) % 200);
    }
  })
  .add('setImmediate round trip', function (deferred) {
    setImmediate(function () { deferred.resolve(); });
  }, { defer: true })
  .on('cycle', function (event) { console.log(String(event.target)); })
  .run({ async: true });
