'use strict';
/* global Map */
// A bench-node file with the managed timer, unchanged (and in Node 4's syntax): the function does
// its setup, then times its own loop of timer.count iterations between timer.start() and
// timer.end(). nodebench chooses timer.count by its calibration and reads the two marks with its
// own clock. Guarded to run only as the program, as scripts often are. Run it with bench-node
// (`node --allow-natives-syntax examples/bench-node-timer.cjs`) or with nodebench:
//   nodebench run examples/bench-node-timer.cjs --node 4,16,22
var Suite = require('bench-node').Suite;

function lookups(table, get) {
  return function (timer) {
    var found = 0;
    timer.start();
    for (var i = 0; i < timer.count; i++) found += get(table, 'key' + (i % 1000));
    timer.end(timer.count);
    return found;
  };
}

function main() {
  var map = new Map();
  var object = {};
  for (var i = 0; i < 1000; i++) {
    map.set('key' + i, i);
    object['key' + i] = i;
  }
  var suite = new Suite();
  suite.add('Map lookups (managed)', lookups(map, function (m, key) { return m.get(key); }));
  suite.add('Object lookups (managed)', lookups(object, function (o, key) { return o[key]; }));
  return suite.run();
}

if (require.main === module) main();
