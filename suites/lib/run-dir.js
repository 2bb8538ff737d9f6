'use strict';
// The run's shared directory (NODEBENCH_RUN_DIR): the host makes one per run, gives it to every
// process of the run and removes it when the run ends. What is expensive to build and the same for
// every process of a run (a generated file tree) is built there once, by the first process that
// needs it, instead of in every process. Without NODEBENCH_RUN_DIR (a suite run by hand) nothing is
// shared. Node-4-compatible.
var fs = require('fs');
var path = require('path');

var MARKER = '.nodebench-complete.json';

function hash(text) {
  var h = 5381;
  for (var i = 0; i < text.length; i++) h = ((h * 33) ^ text.charCodeAt(i)) >>> 0;
  return h.toString(16);
}

// What this process should do about the artefact `name` built from `key` (a string naming every
// input of the build):
//   { dir, data }               an earlier process of the run built it in dir: reuse dir and data;
//   { dir, data: null, complete(data) }   build it in dir (created, empty), then call complete
//                               with what later processes need to reuse it (JSON);
//   null                        no run directory, or another process is building it or died while
//                               building it: build a private copy.
function claim(name, key) {
  var runDir = process.env.NODEBENCH_RUN_DIR;
  if (!runDir) return null;
  var dir = path.join(runDir, name + '-' + hash(key));
  var marker = path.join(dir, MARKER);
  try {
    var stored = JSON.parse(fs.readFileSync(marker, 'utf8'));
    if (stored.key === key) return { dir: dir, data: stored.data };
    return null;
  } catch (err) {
    // Not built yet: claim it below.
  }
  try {
    fs.mkdirSync(dir);
  } catch (err) {
    return null;
  }
  return {
    dir: dir,
    data: null,
    complete: function (data) {
      // Written then renamed: a reader sees the whole marker or none.
      fs.writeFileSync(marker + '.' + process.pid, JSON.stringify({ key: key, data: data }));
      fs.renameSync(marker + '.' + process.pid, marker);
    }
  };
}

module.exports = { claim: claim };
