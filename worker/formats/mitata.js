'use strict';
// Stands in for mitata (1.x) when a benchmark file imports it: `bench(name, fn)`, `group`,
// `summary`, `barplot`, `boxplot`, `lineplot`, `compact`, `do_not_optimize`, `.args`/`.range`/
// `.dense_range`, and `await run()`. Each bench (each combination of its args) becomes a nodebench
// benchmark, timed by nodebench's sampler. A generator benchmark is honoured as mitata runs it: the
// code before `yield` is setup, the yielded function is what is timed, the code after is teardown.
// Refused with a sentence: the iterator form (the function times its own loop), computed per-call
// parameters (`yield { [0]() {...}, bench(x) {...} }`), manual timing, and gc('inner').
var registry = require('./registry');

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

// A generator benchmark: setup runs it to its yield and returns the yielded function (what the
// sampler times); teardown resumes it, as mitata does after measuring.
function generatorSpec(name, fn, combo) {
  var generator = null;
  function pick(step) {
    var value = step.value;
    if (step.done || value === undefined) throw new Error(refusal(name, 'is a generator that yields nothing; yield the function to time'));
    if (typeof value === 'function') {
      if (registry.isGeneratorFunction(value)) throw new Error(refusal(name, 'yields a generator function; yield a plain function to time'));
      return value;
    }
    if (value && typeof value === 'object') {
      if (value.manual) throw new Error(refusal(name, 'yields a manual-timing benchmark (manual), which times itself; nodebench times whole calls: yield a plain function'));
      var timed = value.bench;
      if (typeof timed === 'function' && timed.length === 0) return timed;
      if (typeof timed === 'function') {
        throw new Error(refusal(name, 'yields computed parameters ([0](), bench(x)), which mitata recomputes outside the timing before every call; nodebench times batches of calls and cannot leave them out: compute the values before yield'));
      }
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

function specFor(b, name, combo) {
  if (b.gcMode === 'inner') {
    return { refused: refusal(name, 'uses gc(\'inner\'), a collection before every sample outside the timing; nodebench\'s samples include garbage collection: remove it, or compare GC with a flag set') };
  }
  if (registry.isGeneratorFunction(b.fn)) return generatorSpec(name, b.fn, combo);
  if (b.fn.length > 0) {
    return { refused: refusal(name, 'takes the iterator state and times its own loop (for (const _ of state)); nodebench times calls itself: write it as () => work, or as a generator that yields it') };
  }
  return { fn: b.fn, type: registry.isAsyncFunction(b.fn) ? 'promise' : null };
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
  registry.handOver(LIBRARY);
  return registry.never();
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
    registry.handOver(LIBRARY);
    return registry.never();
  },
  measure: function () {
    return Promise.reject(new Error('mitata\'s measure() times a function by itself, outside any benchmark list; nodebench runs the benchmarks a file declares with bench(): use bench() and run()'));
  },
  B: B,
  flags: { compact: 1, baseline: 2 },
  $: sink
};
