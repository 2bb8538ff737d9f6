'use strict';
// Where the library shims (tinybench.js, mitata.js, bench-node.js, benchmark.js beside this file)
// record what a benchmark file builds, and when the file hands over. A file may build several
// benches and run them one after another, with other work between, so a library's run() lets the
// file go on (resolving with an empty result) until the file has built what the worker needs:
//   measuring one benchmark (wanted: its name): the run() after which it exists never settles, so
//     the file stops there with everything its benchmark needs still alive (a server it started);
//   describing the file (wanted: null): every bench, once the file is done: its event loop empties,
//     it calls process.exit, its code after a run() throws (it reads the library's results, which
//     nodebench replaces), or no run() follows the last one for IDLE_MS (a file that keeps a server
//     open).
// suite-loader turns the records into benchmarks.
// Node-4-compatible: a CommonJS file written for benchmark.js or bench-node runs on any runtime.

var collections = [];
var listeners = [];
var ranBy = null;
var wanted = null;
var handedOver = false;
var waiting = [];
var checkScheduled = false;
var idleTimer = null;
var IDLE_MS = 5000;

// A collection is anything that yields tasks when the file hands over (a Bench, a Suite, mitata's
// list of bench() calls): tasks() -> [{ name, spec }] with spec in nodebench's benchmark shape.
function addCollection(library, collection) {
  collections.push({ library: library, collection: collection });
}

// name: the benchmark this process measures; undefined or null: every benchmark (describing).
function want(name) {
  wanted = name === undefined ? null : name;
}

function handOver() {
  if (handedOver) return;
  handedOver = true;
  if (idleTimer) clearTimeout(idleTimer);
  listeners.forEach(function (listener) { listener(); });
}

function hasTask(name) {
  var all = tasks();
  for (var i = 0; i < all.length; i++) if (all[i].name === name) return true;
  return false;
}

// A library's run() was called: returns a promise that settles with `result` when the file should go
// on, or never when it hands over here. Checked a macrotask later, so that every run() of one
// statement (Promise.all([a.run(), b.run()])) is in.
function runCalled(library, result) {
  if (!ranBy) ranBy = library;
  if (handedOver) return never();
  if (idleTimer) {
    clearTimeout(idleTimer);
    idleTimer = null;
  }
  var promise = new Promise(function (resolve) { waiting.push(function () { resolve(result); }); });
  if (!checkScheduled) {
    checkScheduled = true;
    setImmediate(checkRuns);
  }
  return promise;
}

function checkRuns() {
  checkScheduled = false;
  if (wanted !== null && hasTask(wanted)) return handOver();
  var resume = waiting;
  waiting = [];
  resume.forEach(function (go) { go(); });
  // A file that goes on holding its event loop open (a server it never closes) ends here.
  idleTimer = setTimeout(handOver, IDLE_MS);
  if (idleTimer.unref) idleTimer.unref();
}

// The file is done (its event loop emptied, it exited, or its code after a run() threw): what it
// built is what there is.
function fileDone() {
  if (ranBy) handOver();
}

function onHandOver(listener) {
  listeners.push(listener);
}

function libraries() {
  var seen = [];
  collections.forEach(function (c) { if (seen.indexOf(c.library) === -1) seen.push(c.library); });
  return seen;
}

// Every task of every collection, names kept unique: a second task of the same name (two Bench
// instances, two mitata groups) gets its collection's label, then a counter.
function tasks() {
  var out = [];
  var names = {};
  collections.forEach(function (c) {
    c.collection.tasks().forEach(function (task) {
      var name = task.name;
      if (names[name] && task.label) name = task.label + ' / ' + task.name;
      for (var n = 2; names[name]; n++) name = task.name + ' #' + n;
      names[name] = true;
      out.push({ name: name, spec: task.spec });
    });
  });
  return out;
}

function never() {
  return new Promise(function () {});
}

// Runs steps one after another; returns a promise if any step returned one, else undefined, so
// that synchronous hooks stay synchronous.
function series(steps) {
  var i = 0;
  function next() {
    while (i < steps.length) {
      var value = steps[i++]();
      if (value && typeof value.then === 'function') return value.then(next);
    }
    return undefined;
  }
  return next();
}

function constructorName(fn) {
  return fn && fn.constructor ? fn.constructor.name : '';
}

module.exports = {
  addCollection: addCollection,
  hasTask: hasTask,
  wanted: function () { return wanted; },
  want: want,
  runCalled: runCalled,
  fileDone: fileDone,
  handedOver: function () { return handedOver; },
  onHandOver: onHandOver,
  ranBy: function () { return ranBy; },
  libraries: libraries,
  tasks: tasks,
  never: never,
  series: series,
  isAsyncFunction: function (fn) { return constructorName(fn) === 'AsyncFunction'; },
  isGeneratorFunction: function (fn) { return /GeneratorFunction$/.test(constructorName(fn)); }
};
