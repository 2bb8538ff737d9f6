'use strict';
// Builds the autoload suite's tree in the directory argv[2] with the parameters argv[3] (JSON) and
// prints what the benchmarks read (JSON): the suite's setup runs it as a child process, so that every
// benchmark process holds the tree as read back from JSON (index.js). Node-4-compatible.
var tree = require('./tree');

process.stdout.write(JSON.stringify(tree.buildAll(process.argv[2], JSON.parse(process.argv[3]))));
