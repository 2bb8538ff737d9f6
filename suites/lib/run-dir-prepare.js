'use strict';
// The child process in which every process of a run takes a shared artefact (run-dir.js obtain):
// argv: name, key, the builder module's path, the builder's params (JSON). Finds it built, builds it
// (the builder called in this process, which nobody measures), or waits for another process that
// is building it; writes nothing to its parent but the stored marker. Exit 0 when the artefact is
// complete, run-dir.js GAVE_UP when the process building it died. Node-4-compatible.
var runDir = require('./run-dir');

var name = process.argv[2];
var key = process.argv[3];
var builder = process.argv[4];
var params = JSON.parse(process.argv[5]);

var claimed = runDir.claim(name, key);
if (!claimed) process.exit(runDir.GAVE_UP);
if (!claimed.data) claimed.complete(require(builder)(claimed.dir, params));
