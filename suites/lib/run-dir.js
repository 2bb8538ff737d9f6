'use strict';
// The run's shared directory (NODEBENCH_RUN_DIR): the host makes one per run, gives it to every
// process of the run and removes it when the run ends. What is expensive to build and the same for
// every process of a run (a generated file tree) is built there once, by the first process that
// needs it, instead of in every process. Without NODEBENCH_RUN_DIR (a suite run by hand) nothing is
// shared. Node-4-compatible.
var childProcess = require('child_process');
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
//   null                        no run directory, or another process did not finish building it
//                               within WAIT_POLLS (it died while building): build a private copy.
// While another process builds it, this one waits for it (two processes start at once in duet and
// concurrent runs): a private copy would not be what the other processes hold (another path, built
// here rather than read back), and counted instructions differed by which process got which.
function claim(name, key) {
  var runDir = process.env.NODEBENCH_RUN_DIR;
  if (!runDir) return null;
  var dir = path.join(runDir, name + '-' + hash(key));
  var marker = path.join(dir, MARKER);
  var built = readMarker(marker, key);
  if (built !== undefined) return built && { dir: dir, data: built.data };
  try {
    fs.mkdirSync(dir);
  } catch (err) {
    for (var poll = 0; poll < WAIT_POLLS; poll++) {
      pause();
      built = readMarker(marker, key);
      if (built !== undefined) return built && { dir: dir, data: built.data };
    }
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

// The stored marker when it is there and of this key, null when it is of another key, undefined when
// there is none yet.
function readMarker(marker, key) {
  var stored;
  try {
    stored = JSON.parse(fs.readFileSync(marker, 'utf8'));
  } catch (err) {
    return undefined;
  }
  return stored.key === key ? stored : null;
}

// 100 ms of real time, in a child process: the clock of a process counted under valgrind is
// synthetic (cli/process/synthetic-clock.c), and Node 4 has no synchronous sleep. 400 of them,
// about a minute with the child's start-up, stay well inside a process's time limit (120 s by
// default) where the builder died; a tree takes about a second to build.
var WAIT_POLLS = 400;
function pause() {
  childProcess.execFileSync(process.execPath, ['-e', 'setTimeout(function () {}, 100)']);
}

module.exports = { claim: claim };
