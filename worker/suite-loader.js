'use strict';
// Loads a suite file and turns its export into one normal shape, so the sampler and the host see
// the same thing whatever form the author chose. The suite format is documented in suites/README.md.
var path = require('path');
var version = require('./version');

var BENCHMARK_TYPES = ['sync', 'promise', 'callback'];

function SuiteError(message) {
  var err = new Error(message);
  err.name = 'SuiteError';
  return err;
}

function normalizeBenchmark(suiteDir, name, spec) {
  if (typeof spec === 'function') spec = { fn: spec };
  if (!spec || typeof spec !== 'object') {
    throw SuiteError('benchmark "' + name + '" must be a function or an object with fn or module');
  }
  if (spec.type && BENCHMARK_TYPES.indexOf(spec.type) === -1) {
    throw SuiteError('benchmark "' + name + '" has type "' + spec.type + '"; use one of ' + BENCHMARK_TYPES.join(', '));
  }
  if (typeof spec.fn !== 'function' && typeof spec.module !== 'string') {
    throw SuiteError('benchmark "' + name + '" needs fn (a function) or module (a file exporting one)');
  }
  return {
    name: name,
    fn: spec.fn,
    module: spec.module ? path.resolve(suiteDir, spec.module) : null,
    // Without an explicit type, the sampler looks at what the first call returns.
    type: spec.type || null,
    minNode: spec.minNode || null,
    reason: spec.reason || null,
    setup: spec.setup || null,
    teardown: spec.teardown || null,
    description: spec.description || ''
  };
}

// suites/json/index.js is "json"; ./my-bench.js is "my-bench".
function defaultName(file) {
  var base = path.basename(file).replace(/\.js$/, '');
  return base === 'index' ? path.basename(path.dirname(file)) : base;
}

function load(suitePath) {
  var file = require.resolve(path.resolve(suitePath));
  var exported = require(file);
  if (!exported || typeof exported !== 'object') {
    throw SuiteError(file + ' must export an object with a benchmarks field');
  }
  var benchmarks = exported.benchmarks;
  if (!benchmarks || typeof benchmarks !== 'object') {
    throw SuiteError(file + ' exports no benchmarks object');
  }
  var suiteDir = path.dirname(file);
  var list = Object.keys(benchmarks).map(function (name) {
    return normalizeBenchmark(suiteDir, name, benchmarks[name]);
  });
  if (list.length === 0) throw SuiteError(file + ' has an empty benchmarks object');
  return {
    file: file,
    name: exported.name || defaultName(file),
    description: exported.description || '',
    minNode: exported.minNode || null,
    reason: exported.reason || null,
    params: exported.params || {},
    setup: typeof exported.setup === 'function' ? exported.setup : null,
    teardown: typeof exported.teardown === 'function' ? exported.teardown : null,
    service: exported.service || null,
    libraries: exported.libraries || null,
    metricsTable: !!exported.metricsTable,
    // Sampler options the workload needs whatever the run's budget (e.g. samples long enough to
    // span several GC cycles); the host merges them over the run's and records them.
    sampler: exported.sampler || null,
    // 'throughput': a process's value is its total time over total operations rather than the
    // median sample, for workloads whose cost comes in GC cycles longer than a sample.
    perProcess: exported.perProcess === 'throughput' ? 'throughput' : null,
    benchmarks: list
  };
}

// Why this runtime cannot run the benchmark, or null when it can.
function unsupportedReason(suite, benchmark, runtimeVersion) {
  var needs = [suite.minNode, benchmark.minNode];
  for (var i = 0; i < needs.length; i++) {
    if (needs[i] && !version.atLeast(runtimeVersion, needs[i])) {
      var why = (i === 0 ? suite.reason : benchmark.reason) || '';
      return 'unsupported on Node ' + String(runtimeVersion).replace(/^v/, '') + ' (needs >= ' + needs[i] + ')' + (why ? ': ' + why : '');
    }
  }
  return null;
}

// The benchmark function itself; a `module` benchmark is only required here, after the version
// check, so that its newer syntax never reaches an old parser.
function resolveFn(benchmark) {
  if (benchmark.fn) return benchmark.fn;
  var loaded = require(benchmark.module);
  var fn = typeof loaded === 'function' ? loaded : loaded && loaded.fn;
  if (typeof fn !== 'function') throw SuiteError(benchmark.module + ' must export a function (or { fn })');
  return fn;
}

function describe(suite) {
  return {
    name: suite.name,
    file: suite.file,
    description: suite.description,
    minNode: suite.minNode,
    reason: suite.reason,
    params: suite.params,
    service: !!suite.service,
    libraries: suite.libraries,
    metricsTable: suite.metricsTable,
    sampler: suite.sampler,
    perProcess: suite.perProcess,
    benchmarks: suite.benchmarks.map(function (b) {
      return { name: b.name, type: b.type, minNode: b.minNode, reason: b.reason, description: b.description };
    })
  };
}

module.exports = { load: load, unsupportedReason: unsupportedReason, resolveFn: resolveFn, describe: describe };
