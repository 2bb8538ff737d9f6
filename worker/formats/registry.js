'use strict';
// Where the library shims (tinybench.js, mitata.js, bench-node.js, benchmark.js beside this file)
// record what a benchmark file builds, and how the file hands over: its first call of the library's
// run(). The shims return a promise that never settles from run(), so the file stops there (nothing
// after `await bench.run()` runs, nothing prints) and suite-loader turns the records into benchmarks.
// Node-4-compatible: a CommonJS file written for benchmark.js or bench-node runs on any runtime.

var collections = [];
var listeners = [];
var ranBy = null;

// A collection is anything that yields tasks when the file hands over (a Bench, a Suite, mitata's
// list of bench() calls): tasks() -> [{ name, spec }] with spec in nodebench's benchmark shape.
function addCollection(library, collection) {
  collections.push({ library: library, collection: collection });
}

function handOver(library) {
  if (ranBy) return;
  ranBy = library;
  // A macrotask later, so that every run() of one statement (Promise.all([a.run(), b.run()])) is in.
  setImmediate(function () {
    listeners.forEach(function (listener) { listener(); });
  });
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
  handOver: handOver,
  onHandOver: onHandOver,
  ranBy: function () { return ranBy; },
  libraries: libraries,
  tasks: tasks,
  never: never,
  series: series,
  isAsyncFunction: function (fn) { return constructorName(fn) === 'AsyncFunction'; },
  isGeneratorFunction: function (fn) { return /GeneratorFunction$/.test(constructorName(fn)); }
};
