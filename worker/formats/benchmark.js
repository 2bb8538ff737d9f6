'use strict';
// Stands in for benchmark.js (2.x) when a benchmark file requires or imports 'benchmark':
// `new Benchmark.Suite().add(name, fn, options).on(...).run(options)` and `new Benchmark(...)`.
// Each benchmark becomes a nodebench benchmark of the same name, timed by nodebench's sampler.
// Honoured: `defer: true` (fn(deferred) ... deferred.resolve()), `setup`/`teardown` (functions or
// strings) compiled as benchmark.js compiles them, so that the benchmark sees the variables setup
// declares; like benchmark.js, when that compiled form cannot run (the benchmark uses variables of
// the file around it) setup, fn and teardown are called as they are. Setup and teardown run around
// every cycle (a timed batch of calls), outside the timing, as benchmark.js runs them. Events never
// fire: nodebench reports. Budget options (minTime, maxTime, minSamples, initCount, delay, async)
// are nodebench's run options.
var registry = require('./registry');
var clock = require('../clock');
var sampler = require('../sampler');

var LIBRARY = 'benchmark.js';
var counter = 0;
var standalone = [];

function isPlainObject(value) {
  return !!value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;
}

function noop() {}

function assign(target, source) {
  Object.keys(source || {}).forEach(function (key) { target[key] = source[key]; });
  return target;
}

function Events() {}
Events.prototype.on = function () { return this; };
Events.prototype.off = function () { return this; };
Events.prototype.emit = function () { return this; };
Events.prototype.listeners = function () { return []; };

function Benchmark(name, fn, options) {
  if (!(this instanceof Benchmark)) return new Benchmark(name, fn, options);
  if (isPlainObject(name)) {
    options = name;
  } else if (typeof name === 'function') {
    options = fn;
    fn = name;
  } else if (isPlainObject(fn)) {
    options = fn;
    fn = null;
    this.name = name;
  } else {
    this.name = name;
  }
  this.options = assign({}, options);
  assign(this, options);
  this.id = ++counter;
  if (this.fn == null) this.fn = fn;
  this.stats = { mean: 0, deviation: 0, moe: 0, rme: 0, sem: 0, variance: 0, sample: [] };
  this.times = { cycle: 0, elapsed: 0, period: 0, timeStamp: 0 };
  this.hz = 0;
  this.count = 0;
  this.cycles = 0;
}
Benchmark.prototype = Object.create(Events.prototype);
Benchmark.prototype.constructor = Benchmark;
Benchmark.prototype.run = function () {
  if (standalone.indexOf(this) === -1 && !this.inSuite) standalone.push(this);
  registry.runCalled(LIBRARY, null);
  return this;
};
Benchmark.prototype.abort = function () { return this; };
Benchmark.prototype.reset = function () { return this; };
Benchmark.prototype.toString = function () { return String(this.name || this.id); };

// The text between a function's outer braces, or null where there is none to take (an arrow
// without braces, native code): benchmark.js's decompilation, which nodebench follows.
function bodyOf(f) {
  if (typeof f === 'string') return f;
  var source = Function.prototype.toString.call(f);
  var open = source.indexOf('{');
  var close = source.lastIndexOf('}');
  if (open === -1 || close <= open || /\[native code\]/.test(source)) return null;
  var head = source.slice(0, open).replace(/\s+$/, '');
  if (!/\)$|=>$/.test(head)) return null;
  return source.slice(open + 1, close);
}

function asFunction(f) {
  return typeof f === 'string' ? new Function(f) : f;
}

// fn(deferred) with deferred.resolve() as a callback benchmark fn(ctx, done).
function deferredCall(bench, fn) {
  var done = null;
  var deferred = { benchmark: bench, resolve: function () { done(); } };
  return function (ctx, cb) {
    done = cb;
    fn.call(bench, deferred);
  };
}

function callsWithThis(bench, fn) {
  if (!/\bthis\b/.test(Function.prototype.toString.call(fn))) return fn;
  return function () { return fn.call(bench); };
}

function displayName(bench) {
  return bench.name !== undefined && bench.name !== '' ? String(bench.name) : (bench.fn && bench.fn.name) || '<Test #' + bench.id + '>';
}

function specFor(bench) {
  var name = displayName(bench);
  if (typeof bench.fn !== 'function' && typeof bench.fn !== 'string') {
    return { refused: 'benchmark.js benchmark "' + name + '" has no function to run' };
  }
  var fn;
  try {
    fn = asFunction(bench.fn);
  } catch (err) {
    // A string that does not compile fails this benchmark's cells, not the file.
    return { refused: 'benchmark.js benchmark "' + name + '" has a string fn that does not compile (' + err.name + ': ' + err.message + '): fix the string, or pass a function' };
  }
  var defer = !!bench.defer;
  var hasSetup = (typeof bench.setup === 'function' && bench.setup !== noop) || typeof bench.setup === 'string';
  var hasTeardown = (typeof bench.teardown === 'function' && bench.teardown !== noop) || typeof bench.teardown === 'string';
  if (!hasSetup && !hasTeardown) {
    return defer ? { type: 'callback', fn: deferredCall(bench, fn) } : { fn: callsWithThis(bench, fn) };
  }
  return {
    type: defer ? 'callback' : null,
    fnFromSetup: true,
    timing: 'managed',
    setup: function () {
      return cycles(bench, fn, hasSetup, hasTeardown, defer);
    }
  };
}

// benchmark.js runs setup before every cycle (a timed batch of calls) and teardown after it, both
// outside the timing: a managed target whose batch is one cycle. The first cycle uses the scope the
// probe made.
function cycles(bench, fn, hasSetup, hasTeardown, defer) {
  var factory = compiledFactory(bench, hasSetup ? bench.setup : '', bench.fn, hasTeardown ? bench.teardown : '', defer);
  var pending = factory ? factory.probed : null;
  var type = defer ? 'callback' : 'sync';
  function cycle() {
    var made = pending;
    pending = null;
    if (!made && factory) made = factory.call(bench);
    if (!made) {
      if (hasSetup) asFunction(bench.setup).call(bench);
      made = { fn: fn, teardown: hasTeardown ? asFunction(bench.teardown) : noop };
    }
    return { fn: defer ? deferredCall(bench, made.fn) : callsWithThis(bench, made.fn), teardown: made.teardown };
  }
  return {
    timing: 'managed',
    type: type,
    run: function (n, cb) {
      var made;
      try {
        made = cycle();
      } catch (err) {
        return cb(err);
      }
      var wallStart = clock.now();
      sampler.batchFor(type, made.fn, undefined)(n, function (err, elapsedNs) {
        if (err) return cb(err);
        try {
          made.teardown.call(bench);
        } catch (teardownErr) {
          return cb(teardownErr);
        }
        cb(null, elapsedNs, n, clock.since(wallStart));
      });
    },
    // One call in one cycle, for what the benchmark computes.
    once: function (cb) {
      var made;
      var value;
      try {
        made = cycle();
        if (defer) return made.fn(undefined, function (err) { finish(err, null); });
        value = made.fn();
      } catch (err) {
        return cb(err);
      }
      finish(null, value);
      function finish(err, result) {
        if (err) return cb(err);
        try {
          made.teardown.call(bench);
        } catch (teardownErr) {
          return cb(teardownErr);
        }
        cb(null, result);
      }
    }
  };
}

// setup's body, then fn and teardown as closures in the same scope, so fn sees setup's variables:
// a function that makes that scope anew for each cycle. A probe call (outside the timing) shows
// whether it runs: a ReferenceError means fn uses the variables of its file, which only the
// original function can see (null then). The probe's scope is kept as `probed`, for the first cycle.
function compiledFactory(bench, setup, fn, teardown, defer) {
  var setupBody = setup ? bodyOf(setup) : '';
  var fnBody = bodyOf(fn);
  var teardownBody = teardown ? bodyOf(teardown) : '';
  if (setupBody === null || fnBody === null || teardownBody === null) return null;
  var factory;
  try {
    factory = new Function(setupBody + '\nreturn { fn: function (deferred) {\n' + fnBody + '\n}, teardown: function () {\n' + teardownBody + '\n} };');
    factory.probed = factory.call(bench);
    if (!defer) factory.probed.fn.call(bench);
  } catch (err) {
    if (err instanceof ReferenceError || err instanceof SyntaxError) return null;
    throw err;
  }
  return factory;
}

function Suite(name, options) {
  if (!(this instanceof Suite)) return new Suite(name, options);
  if (isPlainObject(name)) options = name;
  else this.name = name;
  this.options = assign({}, options);
  this.benchmarks = [];
  this.length = 0;
  var self = this;
  registry.addCollection(LIBRARY, {
    tasks: function () {
      return self.benchmarks.map(function (bench) {
        return { name: displayName(bench), label: self.name, spec: specFor(bench) };
      });
    }
  });
}
Suite.prototype = Object.create(Events.prototype);
Suite.prototype.constructor = Suite;
Suite.prototype.add = function (name, fn, options) {
  var bench = new Benchmark(name, fn, options);
  bench.inSuite = true;
  this.benchmarks.push(bench);
  this[this.length++] = bench;
  return this;
};
Suite.prototype.run = function () {
  registry.runCalled(LIBRARY, null);
  return this;
};
Suite.prototype.abort = function () { return this; };
Suite.prototype.reset = function () { return this; };
Suite.prototype.filter = function () { return []; };
Suite.prototype.forEach = function (f) { this.benchmarks.forEach(f); return this; };
Suite.prototype.map = function (f) { return this.benchmarks.map(f); };

registry.addCollection(LIBRARY, {
  tasks: function () {
    return standalone.map(function (bench) { return { name: displayName(bench), label: null, spec: specFor(bench) }; });
  }
});

Benchmark.Suite = Suite;
Benchmark.Deferred = function Deferred() {};
Benchmark.Event = function Event(type) { return { type: type }; };
Benchmark.options = { async: false, defer: false, delay: 0.005, initCount: 1, maxTime: 5, minSamples: 5, minTime: 0 };
Benchmark.platform = { description: 'Node.js ' + process.version, name: 'Node.js', version: process.version.replace(/^v/, ''), toString: function () { return this.description; } };
Benchmark.support = { browser: false, timeout: true, decompilation: true };
Benchmark.version = '2.1.4';
Benchmark.formatNumber = function (n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ','); };
Benchmark.runInContext = function () { return Benchmark; };

module.exports = Benchmark;
