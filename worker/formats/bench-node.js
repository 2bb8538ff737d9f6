'use strict';
// Stands in for bench-node when a benchmark file imports it: `new Suite(options)`,
// `.add(name, [options,] fn)`, `await suite.run()`. Each added function becomes a nodebench
// benchmark of the same name, timed by nodebench's sampler (async functions are awaited per call).
// The managed timer `(timer) => { setup; timer.start(); for (...) work; timer.end(timer.count) }`
// is honoured as bench-node runs it: one call per batch with timer.count set by nodebench's
// calibration, timed between its start() and end() with nodebench's clock (the sampler's managed
// path). Refused with a sentence: plugins, which change how bench-node compiles the timed loop.
// Budget options (minTime, maxTime, minSamples, repeatSuite) and reporters are nodebench's business.
var registry = require('./registry');
var clock = require('../clock');

var LIBRARY = 'bench-node';

function refusal(name, what) {
  return 'bench-node benchmark "' + name + '" ' + what;
}

function pluginNames(plugins) {
  return plugins.map(function (p) {
    return p && p.constructor && p.constructor.name !== 'Object' ? p.constructor.name : String(p && p.toString ? p.toString() : p);
  }).join(', ');
}

function Suite(options) {
  if (!(this instanceof Suite)) throw new TypeError('Class constructor Suite cannot be invoked without \'new\'');
  this.options = options || {};
  this.entries = [];
  var plugins = this.options.plugins;
  this.refusal = plugins && plugins.length
    ? 'belongs to a Suite with plugins (' + pluginNames(plugins) + '), which change how bench-node compiles the timed loop; nodebench cannot apply them: remove them, or express the change as a V8 flag set (e.g. --flags "--max-opt=0")'
    : null;
  var self = this;
  registry.addCollection(LIBRARY, {
    tasks: function () {
      return self.entries.map(function (entry) {
        return { name: entry.name, label: null, spec: specFor(self, entry) };
      });
    }
  });
}

function specFor(suite, entry) {
  if (suite.refusal) return { refused: refusal(entry.name, suite.refusal) };
  var type = registry.isAsyncFunction(entry.fn) ? 'promise' : null;
  if (entry.fn.length > 0) return { fnFromSetup: true, timing: 'managed', setup: function () { return managedTarget(entry, type); } };
  return { fn: entry.fn, type: type };
}

// bench-node's ManagedTimer, on nodebench's clock: count is the batch size nodebench's calibration
// chose, start() and end(iterations) mark the timed part.
function ManagedTimer(count) {
  this.recommendedCount = count;
  this.startTime = undefined;
  this.endTime = undefined;
  this.iterations = undefined;
}
Object.defineProperty(ManagedTimer.prototype, 'count', { get: function () { return this.recommendedCount; } });
ManagedTimer.prototype.start = function () {
  this.startTime = clock.now();
};
ManagedTimer.prototype.end = function (iterations) {
  this.endTime = clock.now();
  if (iterations === undefined) iterations = 1;
  if (typeof iterations !== 'number' || !(iterations >= 1) || iterations !== Math.floor(iterations)) {
    throw new RangeError('The value of "iterations" is out of range. It must be a whole number >= 1. Received ' + String(iterations) + ' (timer.end(n) takes the number of iterations the timed part ran, usually timer.count)');
  }
  this.iterations = iterations;
};

function managedTarget(entry, type) {
  function measured(timer) {
    if (timer.startTime === undefined) throw new Error(refusal(entry.name, 'returned without calling timer.start(): call timer.start() before the timed loop and timer.end(timer.count) after it'));
    if (timer.endTime === undefined || timer.iterations === undefined) throw new Error(refusal(entry.name, 'returned without calling timer.end(count): call timer.end(timer.count) after the timed loop'));
    return timer.endTime - timer.startTime;
  }
  return {
    timing: 'managed',
    type: type || 'sync',
    // One call of the benchmark is one batch: cb(err, timed ns, iterations it says it ran, wall ns).
    run: function (n, cb) {
      var timer = new ManagedTimer(n);
      var wallStart = clock.now();
      function finish() {
        var elapsed;
        try {
          elapsed = measured(timer);
        } catch (err) {
          return cb(err);
        }
        cb(null, elapsed, timer.iterations, clock.since(wallStart));
      }
      var value;
      try {
        value = entry.fn(timer);
      } catch (err) {
        return cb(err);
      }
      if (value && typeof value.then === 'function') {
        value.then(finish, function (reason) { cb(reason instanceof Error ? reason : new Error(String(reason))); });
      } else {
        finish();
      }
    }
  };
}

Suite.prototype.add = function (name, options, fn) {
  if (typeof options === 'function') {
    fn = options;
    options = {};
  }
  if (typeof name !== 'string') throw new TypeError('The "name" argument must be of type string');
  if (typeof fn !== 'function') throw new TypeError('The "fn" argument must be of type function');
  this.entries.push({ name: name, fn: fn, options: options || {} });
  return this;
};

Suite.prototype.run = function () {
  return registry.runCalled(LIBRARY, []);
};

// Plugins are recognised by their class name (the suite refuses them); they do nothing here.
function asPlugin(P) {
  P.prototype.isSupported = function () { return true; };
  P.prototype.toString = function () { return P.name; };
  return P;
}
function V8NeverOptimizePlugin() {}
function V8GetOptimizationStatus() {}
function V8OptimizeOnNextCallPlugin() {}
function MemoryPlugin() {}

function reporter() {}

module.exports = {
  Suite: Suite,
  V8NeverOptimizePlugin: asPlugin(V8NeverOptimizePlugin),
  V8GetOptimizationStatus: asPlugin(V8GetOptimizationStatus),
  V8OptimizeOnNextCallPlugin: asPlugin(V8OptimizeOnNextCallPlugin),
  MemoryPlugin: asPlugin(MemoryPlugin),
  chartReport: reporter,
  textReport: reporter,
  htmlReport: reporter,
  jsonReport: reporter,
  csvReport: reporter,
  prettyReport: reporter
};
