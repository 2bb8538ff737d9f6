'use strict';
// A file written for bench-node, unchanged (and in Node 4's syntax, so nodebench runs it on every
// runtime from Node 4 on, while bench-node itself needs a current Node):
//   nodebench run examples/bench-node.cjs --node 4,18,22
var Suite = require('bench-node').Suite;

var suite = new Suite();
var inputs = [];
for (var n = 0; n < 1024; n++) inputs.push(String((n * 7919) % 100000));
var next = 0;

suite.add('parseInt', function () {
  return parseInt(inputs[next++ & 1023], 10);
});
suite.add('Number', function () {
  return Number(inputs[next++ & 1023]);
});

suite.run();
