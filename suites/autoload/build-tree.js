'use strict';
// Builds the autoload suite's tree in `dir` and returns what the benchmarks read (JSON): called in
// the child process that prepares the run directory's shared tree (suites/lib/run-dir.js obtain),
// so that every benchmark process holds the tree as read back from JSON. Node-4-compatible.
var tree = require('./tree');

module.exports = function (dir, params) {
  return tree.buildAll(dir, params);
};
