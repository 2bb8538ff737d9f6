'use strict';
// Stands in for bench-node when a benchmark file imports it: `new Suite(options)`,
// `.add(name, [options,] fn)`, `await suite.run()`. Each added function becomes a nodebench
// benchmark of the same name, timed by nodebench's sampler (async functions are awaited per call).
// Refused with a sentence: the timer form `(timer) => { timer.start(); ...; timer.end(n) }`, which
// times only part of each call, and plugins, which change how bench-node compiles the timed loop.
// Budget options (minTime, maxTime, minSamples, repeatSuite) and reporters are nodebench's business.
var registry = require('./registry');

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
  if (entry.fn.length > 0) {
    return { refused: refusal(entry.name, 'takes a timer (timer.start()/timer.end()) and times only part of each call; nodebench times whole calls: move the setup before suite.add and pass () => work') };
  }
  return { fn: entry.fn, type: registry.isAsyncFunction(entry.fn) ? 'promise' : null };
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
  registry.handOver(LIBRARY);
  return registry.never();
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
