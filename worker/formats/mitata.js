'use strict';
// Stands in for mitata (1.x) when a benchmark file imports it: `bench(name, fn)`, `group`,
// `summary`, `barplot`, `boxplot`, `lineplot`, `compact`, `do_not_optimize`, `.args`/`.range`/
// `.dense_range`, `.gc('inner')` and `await run()`. Each bench (each combination of its args)
// becomes a nodebench benchmark, timed by nodebench's sampler. Honoured as mitata runs them:
//   a generator benchmark: the code before `yield` is setup, the yielded function is timed, the
//     code after is teardown;
//   computed parameters `yield { [0]() {...}, bench(x) {...} }`: a batch's parameters are computed
//     before the batch is timed (at most BATCH_PARAMETERS calls per timed stretch, as mitata);
//   the iterator form `(state) => { for (const _ of state) work }`: each batch is one call of the
//     function, timed from its first to its last step over the state;
//   gc('inner'): a collection before every batch, outside the timing.
// Refused with a sentence: manual timing (the function reports a time it measured itself).
var registry = require('./registry');
var clock = require('../clock');
var sampler = require('../sampler');

var LIBRARY = 'mitata';
var benches = [];
var groups = [];
var filter = null;

function refusal(name, what) {
  return 'mitata benchmark "' + name + '" ' + what;
}

// mitata's own naming: "$n" in the name is replaced by the value of arg n.
function combinations(args) {
  var keys = Object.keys(args);
  var out = [{}];
  keys.forEach(function (key) {
    var next = [];
    out.forEach(function (combo) {
      args[key].forEach(function (value) {
        var copy = {};
        Object.keys(combo).forEach(function (k) { copy[k] = combo[k]; });
        copy[key] = value;
        next.push(copy);
      });
    });
    out = next;
  });
  return out;
}

function nameFor(name, combo) {
  var keys = Object.keys(combo);
  var named = String(name);
  var placed = false;
  keys.forEach(function (key) {
    var marker = '$' + key;
    if (named.indexOf(marker) !== -1) placed = true;
    named = named.split(marker).join(String(combo[key]));
  });
  if (!keys.length || placed) return named;
  return named + ' (' + keys.map(function (k) { return k + ': ' + combo[k]; }).join(', ') + ')';
}

function stateFor(combo) {
  return { get: function (key) { return combo[key]; } };
}

function isThenable(value) {
  return value && typeof value.then === 'function';
}

// A generator benchmark: setup runs it to its yield and returns what the sampler times (the yielded
// function, or a managed target for computed parameters); teardown resumes it, as mitata does after
// measuring.
function generatorSpec(name, fn, combo, gc) {
  var generator = null;
  function pick(step) {
    var value = step.value;
    if (step.done || value === undefined) throw new Error(refusal(name, 'is a generator that yields nothing; yield the function to time'));
    if (typeof value === 'function') {
      if (registry.isGeneratorFunction(value)) throw new Error(refusal(name, 'yields a generator function; yield a plain function to time'));
      return withGc(value, gc);
    }
    if (value && typeof value === 'object') {
      if (value.manual) throw new Error(refusal(name, 'yields a manual-timing benchmark (manual), which reports a time it measured itself; nodebench measures with its own clock: yield a plain function, or bench() with computed parameters'));
      var timed = value.bench;
      if (typeof timed === 'function' && timed.length === 0) return withGc(timed, gc);
      if (typeof timed === 'function') return computedTarget(name, timed, value, gc);
    }
    throw new Error(refusal(name, 'yields ' + typeof value + '; yield the function to time'));
  }
  return {
    fnFromSetup: true,
    setup: function () {
      generator = fn(stateFor(combo));
      var first = generator.next();
      return isThenable(first) ? first.then(pick) : pick(first);
    },
    teardown: function () {
      var last = generator.next();
      function check(step) {
        if (!step.done) throw new Error(refusal(name, 'yields more than once; mitata expects one yield'));
      }
      return isThenable(last) ? last.then(check) : check(last);
    }
  };
}

// A garbage collection function for gc('inner'): the runtime's own where the process has one
// (--expose-gc in the flag set), else the same function exposed for this process alone.
var collect = null;
function gcFunction() {
  if (collect) return collect;
  if (typeof global.gc === 'function') {
    collect = global.gc;
  } else {
    require('v8').setFlagsFromString('--expose-gc');
    collect = require('vm').runInNewContext('gc');
  }
  return collect;
}

function probeType(fn, args) {
  var value = fn.apply(null, args || []);
  if (isThenable(value)) return value.then(function () { return 'promise'; });
  return 'sync';
}

// A plain timed function, or with gc('inner') a managed target: a collection, then nodebench's
// batch of calls.
function withGc(fn, gc) {
  if (!gc) return fn;
  var collectNow = gcFunction();
  function target(type) {
    var batch = sampler.batchFor(type, fn, undefined);
    return {
      timing: 'managed',
      type: type,
      run: function (n, cb) {
        collectNow();
        batch(n, cb);
      }
    };
  }
  var type = probeType(fn);
  return isThenable(type) ? type.then(target) : target(type);
}

// mitata's batch of computed parameters (k_batch_samples): the most calls whose parameters are held
// at once; a longer batch is timed in stretches of this many, parameters computed before each.
var BATCH_PARAMETERS = 4096;

// Loops over precomputed parameters, one per parameter count, so the timed loop calls the benchmark
// directly as mitata's generated loop does.
var loops = {};
var parameterSink = new Array(16);
function loopFor(count) {
  if (loops[count]) return loops[count];
  var names = [];
  for (var p = 0; p < count; p++) names.push('p' + p);
  var args = names.map(function (name) { return name + '[i]'; }).join(', ');
  loops[count] = new Function('fn', 'sink', 'n', names.join(', '), 'for (var i = 0; i < n; i++) sink[i & 15] = fn(' + args + ');');
  return loops[count];
}

// Computed parameters: value[0](), value[1](), ... give bench's arguments for one call. Each stretch
// of up to BATCH_PARAMETERS calls has its parameters computed (promises awaited) before it is timed.
function computedTarget(name, timed, value, gc) {
  var count = timed.length;
  var makers = [];
  for (var o = 0; o < count; o++) {
    if (typeof value[o] !== 'function') throw new Error(refusal(name, 'yields bench(' + count + ' parameters) without a function [' + o + '] to compute parameter ' + o + '; give { [' + o + ']() { return value } }'));
    makers.push(value[o]);
  }
  var collectNow = gc ? gcFunction() : null;
  var columns = makers.map(function () { return new Array(BATCH_PARAMETERS); });
  var loop = loopFor(count);

  // Fills columns[*][0..n) and calls back once every parameter is there.
  function compute(n, cb) {
    var i = 0;
    var o = 0;
    function fail(reason) { cb(reason instanceof Error ? reason : new Error(String(reason))); }
    function step() {
      while (i < n) {
        var made;
        try {
          made = makers[o]();
        } catch (err) {
          return cb(err);
        }
        if (isThenable(made)) {
          var row = i;
          var column = o;
          advance();
          return made.then(function (resolved) { columns[column][row] = resolved; step(); }, fail);
        }
        columns[o][i] = made;
        advance();
      }
      cb(null);
    }
    function advance() {
      o++;
      if (o === count) {
        o = 0;
        i++;
      }
    }
    step();
  }

  function timeSync(n) {
    var start = clock.now();
    loop.apply(null, [timed, parameterSink, n].concat(columns));
    return clock.since(start);
  }

  function timePromise(n, cb) {
    var i = 0;
    var start = clock.now();
    function next() {
      if (i >= n) return cb(null, clock.since(start));
      var args = [];
      for (var p = 0; p < count; p++) args.push(columns[p][i]);
      i++;
      var result;
      try {
        result = timed.apply(null, args);
      } catch (err) {
        return cb(err);
      }
      if (!isThenable(result)) return cb(new Error(refusal(name, 'returned a promise on its first call and ' + typeof result + ' later')));
      result.then(next, function (reason) { cb(reason instanceof Error ? reason : new Error(String(reason))); });
    }
    next();
  }

  function target(type) {
    return {
      timing: 'managed',
      type: type,
      run: function (n, cb) {
        var left = n;
        var elapsedNs = 0;
        var wallStart = clock.now();
        if (collectNow) collectNow();
        function stretch() {
          if (left <= 0) return cb(null, elapsedNs, n, clock.since(wallStart));
          var size = Math.min(left, BATCH_PARAMETERS);
          left -= size;
          compute(size, function (err) {
            if (err) return cb(err);
            if (type === 'sync') {
              try {
                elapsedNs += timeSync(size);
              } catch (err2) {
                return cb(err2);
              }
              return stretch();
            }
            timePromise(size, function (err3, ns) {
              if (err3) return cb(err3);
              elapsedNs += ns;
              stretch();
            });
          });
        }
        stretch();
      }
    };
  }
  // One untimed call tells a benchmark that returns promises (as mitata's first call does).
  return new Promise(function (resolve, reject) {
    compute(1, function (err) {
      if (err) return reject(err);
      var args = columns.map(function (column) { return column[0]; });
      Promise.resolve(probeType(timed, args)).then(function (type) { resolve(target(type)); }, reject);
    });
  });
}

// The iterator form: each batch calls fn(state) once; the state lets its loop run n steps, timed
// from the first step to the end of the last (mitata's own state times the same stretch).
function iteratorTarget(name, fn, combo, gc) {
  var collectNow = gc ? gcFunction() : null;
  var type = registry.isAsyncFunction(fn) ? 'promise' : 'sync';
  return {
    timing: 'managed',
    type: type,
    run: function (n, cb) {
      var steps = 0;
      var startNs = null;
      var endNs = null;
      var result = { value: undefined, done: false };
      var finished = { value: undefined, done: true };
      var iterator = {
        next: function () {
          if (endNs !== null) return finished;
          if (startNs === null) startNs = clock.now();
          if (steps >= n) {
            endNs = clock.now();
            return finished;
          }
          steps++;
          return result;
        },
        // A loop left early (break, return, throw) ends the timed stretch where it left.
        return: function () {
          if (endNs === null && startNs !== null) endNs = clock.now();
          return finished;
        }
      };
      var state = stateFor(combo);
      state[global.Symbol.iterator] = function () { return iterator; };
      if (global.Symbol.asyncIterator) state[global.Symbol.asyncIterator] = function () { return iterator; };
      var wallStart;
      function finish() {
        if (startNs === null) return cb(new Error(refusal(name, 'takes the state but never iterates over it; loop with for (const _ of state) { work }')));
        if (endNs === null) endNs = clock.now();
        if (steps === 0) return cb(new Error(refusal(name, 'left its loop over the state before the first step')));
        cb(null, endNs - startNs, steps, clock.since(wallStart));
      }
      if (collectNow) collectNow();
      wallStart = clock.now();
      var value;
      try {
        value = fn(state);
      } catch (err) {
        return cb(err);
      }
      if (isThenable(value)) value.then(finish, function (reason) { cb(reason instanceof Error ? reason : new Error(String(reason))); });
      else finish();
    }
  };
}

function specFor(b, name, combo) {
  var gc = b.gcMode === 'inner';
  var extra = gc ? { gcBeforeSample: true } : {};
  if (registry.isGeneratorFunction(b.fn)) return assign(generatorSpec(name, b.fn, combo, gc), extra);
  if (b.fn.length > 0) {
    return assign({ fnFromSetup: true, timing: 'managed', setup: function () { return iteratorTarget(name, b.fn, combo, gc); } }, extra);
  }
  if (gc) return assign({ fnFromSetup: true, setup: function () { return withGc(b.fn, true); } }, extra);
  return { fn: b.fn, type: registry.isAsyncFunction(b.fn) ? 'promise' : null };
}

function assign(target, source) {
  Object.keys(source).forEach(function (key) { target[key] = source[key]; });
  return target;
}

function B(name, fn) {
  if (typeof fn !== 'function') throw new TypeError('expected iterator, generator or one-shot function');
  this.fn = fn;
  this.benchName = name;
  this.argMap = {};
  this.gcMode = 'once';
  this.group = groups.length ? groups[groups.length - 1] : null;
}
B.prototype.name = function (name) { this.benchName = name; return this; };
B.prototype.gc = function (mode) { this.gcMode = mode === undefined ? 'once' : mode; return this; };
B.prototype.highlight = function () { return this; };
B.prototype.compact = function () { return this; };
B.prototype.baseline = function () { return this; };
B.prototype.args = function (name, values) {
  if (name === null) { delete this.argMap.x; return this; }
  if (Array.isArray(name)) { this.argMap.x = name; return this; }
  if (typeof name === 'string') {
    if (values === null) delete this.argMap[name];
    else if (Array.isArray(values)) this.argMap[name] = values;
    else throw new TypeError('invalid arguments');
    return this;
  }
  if (name && typeof name === 'object') {
    var self = this;
    Object.keys(name).forEach(function (key) {
      if (name[key] == null) delete self.argMap[key];
      else if (Array.isArray(name[key])) self.argMap[key] = name[key];
      else throw new TypeError('invalid arguments map value');
    });
    return this;
  }
  throw new TypeError('invalid arguments');
};
B.prototype.range = function (name, start, end, multiplier) {
  var m = multiplier === undefined ? 8 : multiplier;
  var values = [];
  for (var v = start; v <= end; v *= m) values.push(Math.min(v, end));
  if (values.indexOf(end) === -1) values.push(end);
  return this.args(name, values);
};
B.prototype.dense_range = function (name, start, end, step) {
  var a = step === undefined ? 1 : step;
  var values = [];
  for (var v = start; v <= end; v += a) values.push(v);
  if (values.indexOf(end) === -1) values.push(end);
  return this.args(name, values);
};
B.prototype.run = function () {
  return registry.runCalled(LIBRARY, {});
};

registry.addCollection(LIBRARY, {
  tasks: function () {
    var out = [];
    benches.forEach(function (b) {
      combinations(b.argMap).forEach(function (combo) {
        var name = nameFor(b.benchName, combo);
        if (filter && !filter.test(name)) return;
        out.push({ name: name, label: b.group, spec: specFor(b, name, combo) });
      });
    });
    return out;
  }
});

function bench(name, fn) {
  if (typeof name === 'function') {
    fn = name;
    name = fn.name || 'anonymous';
  }
  var b = new B(name, fn);
  benches.push(b);
  return b;
}

// group, summary, barplot, ...: layout for mitata's printout; only a group's name matters here
// (it tells two benchmarks of the same name apart).
function collection(name, f) {
  groups.push(name || (groups.length ? groups[groups.length - 1] : null));
  var value;
  try {
    value = f();
  } catch (err) {
    groups.pop();
    throw err;
  }
  if (isThenable(value)) return value.then(function () { groups.pop(); });
  groups.pop();
  return undefined;
}

function group(name, f) {
  if (typeof name === 'function') return collection(null, name);
  return collection(name, f);
}

var sink = { value: null };

module.exports = {
  bench: bench,
  group: group,
  summary: function (f) { return collection(null, f); },
  barplot: function (f) { return collection(null, f); },
  boxplot: function (f) { return collection(null, f); },
  lineplot: function (f) { return collection(null, f); },
  compact: function (f) { return collection(null, f); },
  do_not_optimize: function (value) { sink.value = value; },
  run: function (options) {
    if (options && options.filter instanceof RegExp) filter = options.filter;
    return registry.runCalled(LIBRARY, { benchmarks: [], context: {} });
  },
  measure: function () {
    return Promise.reject(new Error('mitata\'s measure() times a function by itself, outside any benchmark list; nodebench runs the benchmarks a file declares with bench(): use bench() and run()'));
  },
  B: B,
  flags: { compact: 1, baseline: 2 },
  $: sink
};
