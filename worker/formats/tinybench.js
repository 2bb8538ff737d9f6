'use strict';
// Stands in for tinybench (v2 to v6 API) when a benchmark file imports it: `new Bench(options)`,
// `.add(name, fn, options)`, `await bench.run()`. Tasks become nodebench benchmarks of the same
// name, timed by nodebench's sampler. What tinybench would do around the timed calls is honoured:
// the bench's setup/teardown and the task's beforeAll/afterAll run once before/after measuring,
// async tasks are awaited per call, beforeEach/afterEach run around every call outside the timing
// (the task is then timed call by call). What nodebench cannot reproduce is refused with a
// sentence: concurrency, and a task that returns overriddenDuration. docs/own-code.md has the mapping.
var registry = require('./registry');

var LIBRARY = 'tinybench';

function TaskView(bench, name) {
  this.name = name;
  this.bench = bench;
  this.runs = 0;
  this.result = undefined;
}
TaskView.prototype.addEventListener = function () {};
TaskView.prototype.removeEventListener = function () {};

function refusal(name, what) {
  return 'tinybench task "' + name + '" ' + what;
}

// One tinybench task as a nodebench benchmark spec. A task with beforeEach/afterEach is timed call
// by call (worker/sampler.js's per-call path), the hooks run between calls outside the timing, as
// tinybench runs them.
function taskSpec(bench, task, fn, opts) {
  var name = task.name;
  if (bench.refusal) return { refused: refusal(name, bench.refusal) };
  var options = bench.options;
  var beforeEach = typeof opts.beforeEach === 'function' ? function () { return opts.beforeEach.call(task, 'run'); } : null;
  var afterEach = typeof opts.afterEach === 'function' ? function () { return opts.afterEach.call(task, 'run'); } : null;
  var perCall = !!(beforeEach || afterEach);
  var declaredType = opts.async === true || registry.isAsyncFunction(fn) ? 'promise' : opts.async === false ? 'sync' : null;
  var probedType = declaredType;
  var steps = [
    function () { return typeof options.setup === 'function' ? options.setup(task, 'run') : undefined; },
    function () { return typeof opts.beforeAll === 'function' ? opts.beforeAll.call(task, 'run') : undefined; },
    beforeEach || function () {},
    // One call outside the timing, as tinybench's own async detection makes: a task that reports
    // its own duration cannot be measured by nodebench's clock.
    function () {
      var value = fn();
      if (!probedType) probedType = value && typeof value.then === 'function' ? 'promise' : 'sync';
      return checkDuration(name, value);
    },
    afterEach || function () {}
  ];
  return {
    fn: perCall ? null : fn,
    type: perCall ? null : declaredType,
    fnFromSetup: perCall,
    timing: perCall ? 'per-call' : null,
    setup: function () {
      var done = registry.series(steps);
      if (!perCall) return done;
      var target = function () {
        return {
          timing: 'per-call', fn: fn, beforeEach: beforeEach, afterEach: afterEach, type: probedType,
          why: 'tinybench task "' + name + '" uses ' + (beforeEach && afterEach ? 'beforeEach and afterEach' : beforeEach ? 'beforeEach' : 'afterEach') + ', which run between calls outside the timing'
        };
      };
      return done && typeof done.then === 'function' ? done.then(target) : target();
    },
    teardown: function () {
      return registry.series([
        function () { return typeof opts.afterAll === 'function' ? opts.afterAll.call(task, 'run') : undefined; },
        function () { return typeof options.teardown === 'function' ? options.teardown(task, 'run') : undefined; }
      ]);
    }
  };
}

function checkDuration(name, value) {
  function check(v) {
    if (v && typeof v === 'object' && v.overriddenDuration !== undefined) {
      throw new Error(refusal(name, 'returns overriddenDuration, a time it measured itself; nodebench measures with its own clock: return nothing from the task'));
    }
  }
  if (value && typeof value.then === 'function') return value.then(check);
  check(value);
  return undefined;
}

// Why concurrency stays refused: nothing honest measures it as a time per operation.
var CONCURRENT = 'which starts calls before the earlier ones finish: each call\'s time then includes waiting for the others and depends on how many are in flight, so there is no time per operation of one call after another, which is what nodebench measures and compares across runtimes: remove the option';

function Bench(options) {
  if (!(this instanceof Bench)) throw new TypeError('Class constructor Bench cannot be invoked without \'new\'');
  this.options = options || {};
  this.name = this.options.name;
  this.refusal = this.options.concurrency ? 'belongs to a Bench with concurrency: "' + this.options.concurrency + '", ' + CONCURRENT : null;
  this.entries = [];
  var self = this;
  registry.addCollection(LIBRARY, {
    tasks: function () {
      return self.entries.map(function (entry) {
        return { name: entry.task.name, label: self.name, spec: taskSpec(self, entry.task, entry.fn, entry.opts) };
      });
    }
  });
}

Bench.prototype.add = function (name, fn, opts) {
  if (typeof fn !== 'function') throw new TypeError('tinybench task "' + name + '" needs a function');
  for (var i = 0; i < this.entries.length; i++) {
    if (this.entries[i].task.name === name) throw new Error('Task "' + name + '" already exists');
  }
  this.entries.push({ task: new TaskView(this, name), fn: fn, opts: opts || {} });
  return this;
};

Bench.prototype.remove = function (name) {
  this.entries = this.entries.filter(function (entry) { return entry.task.name !== name; });
  return this;
};

Bench.prototype.getTask = function (name) {
  for (var i = 0; i < this.entries.length; i++) if (this.entries[i].task.name === name) return this.entries[i].task;
  return undefined;
};

Object.defineProperty(Bench.prototype, 'tasks', {
  get: function () { return this.entries.map(function (entry) { return entry.task; }); }
});
Object.defineProperty(Bench.prototype, 'results', {
  get: function () { return this.entries.map(function (entry) { return entry.task.result; }); }
});

// tinybench 2's todo tasks are listed but never run.
Bench.prototype.todo = function () { return this; };
Bench.prototype.warmup = function () { return Promise.resolve(); };
Bench.prototype.reset = function () {};
Bench.prototype.table = function () { return []; };
Bench.prototype.addEventListener = function () {};
Bench.prototype.removeEventListener = function () {};
Bench.prototype.dispatchEvent = function () { return true; };

// The file goes on with the tasks (no results: nodebench reports) until it hands over
// (registry.js); runSync's file goes on at once.
Bench.prototype.run = function () {
  markRun(this);
  return registry.runCalled(LIBRARY, this.tasks);
};
Bench.prototype.runSync = function () {
  markRun(this);
  registry.runCalled(LIBRARY, null);
  return this.tasks;
};

// What a file reads after run() (task.result.latency.mean, result.hz, ...) is there, with no
// figures (NaN): nodebench measures and reports; the file's own printout goes nowhere.
function unmeasured() {
  var statistics = { mean: NaN, min: NaN, max: NaN, p50: NaN, p75: NaN, p99: NaN, p995: NaN, p999: NaN, rme: NaN, sd: NaN, sem: NaN, moe: NaN, variance: NaN, mad: NaN, aad: NaN, df: 0, critical: NaN, samples: [], samplesCount: 0 };
  var result = { state: 'completed', runtime: 'node', runtimeVersion: process.version, totalTime: NaN, period: NaN, hz: NaN, latency: statistics, throughput: statistics, samples: [] };
  Object.keys(statistics).forEach(function (key) { if (!(key in result)) result[key] = statistics[key]; });
  return result;
}

function markRun(bench) {
  bench.entries.forEach(function (entry) {
    entry.task.runs = 0;
    entry.task.result = unmeasured();
  });
}
// tinybench 2's concurrent mode measures something else than one call after another.
Bench.prototype.runConcurrently = function () {
  this.refusal = 'is run with runConcurrently(), ' + CONCURRENT.replace(/remove the option$/, 'use run()');
  return this.run();
};

function now() {
  var t = process.hrtime();
  return t[0] * 1e3 + t[1] / 1e6;
}

module.exports = {
  Bench: Bench,
  Task: TaskView,
  now: now,
  hrtimeNow: now,
  nToMs: function (ns) { return ns / 1e6; },
  mToNs: function (ms) { return ms * 1e6; }
};
