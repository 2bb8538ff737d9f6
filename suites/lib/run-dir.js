'use strict';
// The run's shared directory (NODEBENCH_RUN_DIR): the host makes one per run, gives it to every
// process of the run and removes it when the run ends. What is expensive to build and the same for
// every process of a run (a generated file tree) is built there once, by a child of the first
// process that needs it (obtain), instead of in every process. Without NODEBENCH_RUN_DIR (a suite run by hand) nothing is
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
  var dir = artefactDir(runDir, name, key);
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

// The artefact `name` built from `key` by the module `builder` (module.exports = function (dir,
// params) returning what later processes need, JSON) with `params`, as every process of the run
// holds it: { dir, data }, or null without a run directory or when another process died building it
// (build a private copy then). Every process takes it the same way, whether it finds it built, builds
// it or waits for it: one child process (run-dir-prepare.js) does that part, writing nothing back,
// and this process reads the stored marker (under valgrind the child runs natively: valgrind does
// not follow children). A process that built it in its own heap, or spawned children to wait, held
// other garbage than the rest, which moved V8's next collection: on Node
// 16.20.2 the builder of the autoload tree calibrated its batches to 5 operations where the others
// took 10, and counted 3% more instructions per operation (A/A of two default matrices,
// 2026-11-28); on 4.9.1, 5% (a tree built in the process itself).
var PREPARE = path.join(__dirname, 'run-dir-prepare.js');
var GAVE_UP = 3;
function obtain(name, key, builder, params) {
  var runDir = process.env.NODEBENCH_RUN_DIR;
  if (!runDir) return null;
  var prepared = childProcess.spawnSync(process.execPath, [PREPARE, name, key, builder, JSON.stringify(params)], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (prepared.status === GAVE_UP) return null;
  if (prepared.status !== 0) {
    var why = prepared.error ? prepared.error.message : String(prepared.stderr || '').trim().split('\n').slice(-3).join(' ');
    throw new Error('building the shared ' + name + ' in the run directory failed: ' + (why || 'exit code ' + prepared.status + ', signal ' + prepared.signal));
  }
  var dir = artefactDir(runDir, name, key);
  var built = readMarker(path.join(dir, MARKER), key);
  if (!built) throw new Error('the shared ' + name + ' in ' + dir + ' has no complete marker after it was prepared; another run may be using this run directory');
  return { dir: dir, data: built.data };
}

function artefactDir(runDir, name, key) {
  return path.join(runDir, name + '-' + hash(key));
}

module.exports = { claim: claim, obtain: obtain, GAVE_UP: GAVE_UP };
