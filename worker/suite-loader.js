'use strict';
// Loads a suite file and turns it into one normal shape, so the sampler and the host see the same
// thing whatever form the author chose: nodebench's format as CommonJS, an ES module or TypeScript
// (suites/README.md), or a file written for tinybench, mitata, bench-node or benchmark.js, whose
// library import gets a shim that records its tasks (worker/formats/, docs/own-code.md).
// Loading is asynchronous: an ES module is imported, and a library file hands over at its run().
var fs = require('fs');
var path = require('path');
var Module = require('module');
var version = require('./version');
var capabilities = require('./capabilities');
var formats = require('./formats');
var registry = require('./formats/registry');
var typescriptPaths = require('./typescript-paths');

var BENCHMARK_TYPES = ['sync', 'promise', 'callback'];

function SuiteError(message) {
  var err = new Error(message);
  err.name = 'SuiteError';
  return err;
}

// service: the benchmark belongs to a service suite, where a benchmark may be a load profile alone
// (`load`, no fn: the server is what is measured).
function normalizeBenchmark(suiteDir, name, spec, service) {
  if (typeof spec === 'function') spec = { fn: spec };
  if (!spec || typeof spec !== 'object') {
    throw SuiteError('benchmark "' + name + '" must be a function or an object with fn or module');
  }
  if (spec.type && BENCHMARK_TYPES.indexOf(spec.type) === -1) {
    throw SuiteError('benchmark "' + name + '" has type "' + spec.type + '"; use one of ' + BENCHMARK_TYPES.join(', '));
  }
  if (spec.refused) return refusedBenchmark(name, spec.refused);
  var loadOnly = !!service && typeof spec.fn !== 'function' && typeof spec.module !== 'string';
  if (typeof spec.fn !== 'function' && typeof spec.module !== 'string' && !spec.fnFromSetup && !loadOnly) {
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
    // The function to time is what setup returns (a mitata generator's yield, a benchmark.js
    // benchmark compiled with its setup).
    fnFromSetup: !!spec.fnFromSetup,
    // How a library form is timed where it is not nodebench's batch of calls ('per-call',
    // 'managed'), and what else its processes do (a collection before each sample): said in the
    // suite's description, so that the result file keeps it.
    timing: spec.timing || null,
    gcBeforeSample: !!spec.gcBeforeSample,
    loadOnly: loadOnly,
    refused: null,
    description: spec.description || ''
  };
}

// A benchmark of a library file that uses an option nodebench cannot honour: listed, so the user
// sees it, and failed with the sentence that names the option.
function refusedBenchmark(name, sentence) {
  return {
    name: name, fn: null, module: null, type: null, minNode: null, reason: null, setup: null, teardown: null,
    fnFromSetup: false, refused: sentence, description: ''
  };
}

// suites/json/index.js is "json"; ./my-bench.mjs is "my-bench".
var SUITE_EXTENSION = /\.(?:c|m)?(?:js|ts)$/;

function defaultName(file) {
  var base = path.basename(file).replace(SUITE_EXTENSION, '');
  return base === 'index' ? path.basename(path.dirname(file)) : base;
}

// The "type" of the package.json nearest to the file: how Node decides to load a .js file.
function packageType(file) {
  var dir = path.dirname(file);
  for (;;) {
    var manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      try {
        return JSON.parse(fs.readFileSync(manifest, 'utf8')).type === 'module' ? 'module' : 'commonjs';
      } catch (err) {
        return 'commonjs';
      }
    }
    var parent = path.dirname(dir);
    if (parent === dir) return 'commonjs';
    dir = parent;
  }
}

// 'commonjs', 'esm', 'typescript' (an ES module once its types are stripped), or
// 'typescript-commonjs' (.cts, which only a runtime that strips types itself can require).
function moduleKind(file) {
  var ext = path.extname(file);
  if (ext === '.cjs') return 'commonjs';
  if (ext === '.mjs') return 'esm';
  if (ext === '.ts' || ext === '.mts') return 'typescript';
  if (ext === '.cts') return 'typescript-commonjs';
  return packageType(file) === 'module' ? 'esm' : 'commonjs';
}

function UnsupportedError(reason) {
  var err = new Error(reason);
  err.name = 'UnsupportedError';
  err.unsupported = true;
  return err;
}

// Why this runtime cannot load the file at all (its module system, its types), or null.
function loadProblem(kind) {
  if (kind === 'typescript-commonjs') {
    return capabilities.stripsTypesItself() ? null
      : 'Node ' + process.version.replace(/^v/, '') + ' cannot require a CommonJS TypeScript file (.cts): it does not strip types itself (Node 22.18+ does); write it as an ES module (.ts or .mts) and nodebench strips the types on Node 18.19+';
  }
  return kind === 'typescript' ? capabilities.typescriptProblem() : kind === 'esm' ? capabilities.esmImportProblem() : null;
}

var REDIRECT_LOADER = path.join(__dirname, 'esm', 'redirect-loader.mjs');

// An ES module that imports a benchmark library, on a runtime without module.register (12.17 to
// 18.18, 20.0 to 20.5): the import can only be redirected by a loader given on the command line,
// so the worker restarts itself with it (worker/common.js). The URL to restart with, or null.
function loaderRestart(kind, libraries) {
  if (kind !== 'esm' || !libraries.length || capabilities.hasLoaderHooks()) return null;
  var url = require('url').pathToFileURL(REDIRECT_LOADER).href;
  return process.execArgv.indexOf(url) === -1 ? url : null;
}

var requiresPatched = false;
var redirectLibraries = false;
var hooksRegistered = false;

// The request a failed require stands for: a TypeScript file's './x.js' where only ./x.ts (or
// ./x.cts) exists, as in its ES module imports (worker/typescript-paths.js), or null.
function typescriptRequest(request, parent) {
  if (typeof request !== 'string' || !/^\.{0,2}\//.test(request) || !parent || !parent.filename) return null;
  return typescriptPaths.typescriptSibling(path.resolve(path.dirname(parent.filename), request), parent.filename);
}

// require('tinybench') and the others give nodebench's shim from now on (libraries), and a
// TypeScript file's require of './x.js' is ./x.ts where only that exists.
function patchRequires(libraries) {
  if (libraries) redirectLibraries = true;
  if (requiresPatched) return;
  requiresPatched = true;
  var resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function (request, parent) {
    if (redirectLibraries && formats.NAMES.indexOf(request) !== -1) return formats.commonjsShim(request);
    try {
      return resolveFilename.apply(this, arguments);
    } catch (err) {
      var sibling = err && err.code === 'MODULE_NOT_FOUND' ? typescriptRequest(request, parent) : null;
      if (!sibling) throw err;
      var args = Array.prototype.slice.call(arguments);
      args[0] = sibling;
      return resolveFilename.apply(this, args);
    }
  };
}

// Loader hooks for ES modules: the same redirection for import, and TypeScript (types stripped by
// nodebench, './x.js' as ./x.ts) for a TypeScript file.
function registerHooks(typescript, mainUrl) {
  if (hooksRegistered) return;
  hooksRegistered = true;
  var url = require('url');
  var shims = {};
  formats.NAMES.forEach(function (name) { shims[name] = url.pathToFileURL(formats.esmShim(name)).href; });
  Module.register(url.pathToFileURL(path.join(__dirname, 'esm', 'hooks.mjs')).href, {
    data: { shims: shims, typescript: typescript, runtimeStripsTypes: capabilities.stripsTypesItself(), mainUrl: mainUrl || null }
  });
}

// nodebench's own format: named exports, or a default export of the object.
function suiteExport(exported) {
  if (exported && typeof exported === 'object' && !exported.benchmarks && exported.default && typeof exported.default === 'object') {
    return exported.default;
  }
  return exported;
}

// What a suite says about itself, with the defaults of a file that says nothing (a library file).
function suiteFields(file, kind, exported) {
  return {
    file: file,
    format: 'nodebench',
    moduleKind: kind,
    // What the file exported, for what only its entry point reads (serve.js: a benchmark's load).
    exported: exported,
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
    benchmarks: []
  };
}

function fromExport(file, exported, kind) {
  exported = suiteExport(exported);
  if (!exported || typeof exported !== 'object' || !exported.benchmarks || typeof exported.benchmarks !== 'object') {
    throw SuiteError(file + ' is none of the forms nodebench runs: export a benchmarks object (nodebench\'s suite format, as CommonJS, an ES module or TypeScript), or build benchmarks with tinybench, mitata, bench-node or benchmark.js and call their run()');
  }
  var benchmarks = exported.benchmarks;
  var suiteDir = path.dirname(file);
  var suite = suiteFields(file, kind, exported);
  suite.benchmarks = Object.keys(benchmarks).map(function (name) {
    return normalizeBenchmark(suiteDir, name, benchmarks[name], exported.service);
  });
  if (suite.benchmarks.length === 0) throw SuiteError(file + ' has an empty benchmarks object');
  return suite;
}

// A file written for a benchmark library, once it handed over: the tasks it recorded.
function fromLibrary(file, kind) {
  var used = registry.libraries();
  if (used.length > 1) {
    throw SuiteError(file + ' uses ' + used.join(' and ') + '; nodebench runs one library\'s benchmarks per file: split it into one file per library');
  }
  var suiteDir = path.dirname(file);
  var suite = suiteFields(file, kind, {});
  suite.format = used[0];
  suite.exported = null;
  suite.benchmarks = registry.tasks().map(function (task) { return normalizeBenchmark(suiteDir, task.name, task.spec); });
  if (!suite.benchmarks.length) throw SuiteError(file + ' calls ' + used[0] + '\'s run() with no benchmarks added; add some before run()');
  return suite;
}

// The user's file sees itself as the program, as under `node FILE`: process.argv[1] is the file (a
// main-module guard `import.meta.url === pathToFileURL(process.argv[1]).href` or
// `file://${process.argv[1]}` holds), a CommonJS file is loaded as the main module
// (require.main === module), and an ES module's import.meta.main is true (loader hooks, where the
// runtime has them). The worker's own arguments are read before this.
function actAsMain(file) {
  process.argv[1] = file;
  process.argv.length = 2;
}

// A file often takes its library through a helper of its own (nodejs-bench-operations'
// bench/*.mjs import createBenchmarkSuite from ../common.mjs, which imports bench-node): the
// libraries are looked for in the entry and in the modules it imports by a relative path, and in
// theirs, this many levels deep and at most MAX_HELPERS files. Looking in the entry alone let the
// real library load, and bench-node refused the file with its own error (issue 39).
var HELPER_DEPTH = 3;
var MAX_HELPERS = 64;
var RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(['"])(\.{1,2}\/[^'"\n]+)\1/g;

// The file a relative specifier of `fromFile` names, as Node would find it (an ES module's exact
// path, CommonJS's extensions and index files, a TypeScript file's './x.js' for ./x.ts), or null.
function relativeModule(specifier, fromFile) {
  var target = path.resolve(path.dirname(fromFile), specifier.split(/[?#]/)[0]);
  try {
    if (fs.statSync(target).isFile()) return target;
  } catch (err) {
    // Not a file by that exact name: CommonJS's resolution, or a TypeScript sibling.
  }
  var sibling = typescriptPaths.typescriptSibling(target, fromFile);
  if (sibling) return sibling;
  try {
    return require.resolve(target);
  } catch (err) {
    return null;
  }
}

// The benchmark libraries the entry (file, source) imports, itself or through its relative imports.
function librariesImported(file, source) {
  var found = formats.importedBy(source);
  var seen = {};
  seen[file] = true;
  var level = [{ file: file, source: source }];
  var read = 0;
  for (var depth = 0; depth < HELPER_DEPTH && level.length; depth++) {
    var next = [];
    level.forEach(function (importer) {
      var match;
      RELATIVE_IMPORT.lastIndex = 0;
      while ((match = RELATIVE_IMPORT.exec(importer.source)) !== null) {
        var helper = relativeModule(match[2], importer.file);
        if (!helper || seen[helper] || /[\\/]node_modules[\\/]/.test(helper) || read >= MAX_HELPERS) continue;
        seen[helper] = true;
        read++;
        var text;
        try {
          text = fs.readFileSync(helper, 'utf8');
        } catch (err) {
          continue;
        }
        formats.importedBy(text).forEach(function (name) {
          if (found.indexOf(name) === -1) found.push(name);
        });
        next.push({ file: helper, source: text });
      }
    });
    level = next;
  }
  return found;
}

// A load that failed inside a real benchmark library (its own files in the error's stack): nodebench
// stands in for a library only where it finds the import (librariesImported), so one that came
// through a module it does not look into ran for real. The sentence says so and what to do.
function realLibraryNote(err, libraries) {
  var stack = err && typeof err.stack === 'string' ? err.stack : '';
  var real = formats.NAMES.filter(function (name) {
    return libraries.indexOf(name) === -1 && stack.indexOf(path.sep + 'node_modules' + path.sep + name + path.sep) !== -1;
  })[0];
  if (!real) return null;
  return 'the real ' + real + ' ran, not nodebench\'s stand-in: the file imports it through a module nodebench does not look into (it follows relative imports ' + HELPER_DEPTH +
    ' levels deep, not packages); add import \'' + real + '\' (or require(\'' + real + '\')) to the file itself';
}

var loading = null;

// While a library file is loading: an error its code throws after one of its run() calls is the
// end of the file (it reads the library's results, which nodebench replaces), not a failure. True
// when the error was taken so (the worker's handlers then ignore it).
function absorbs(err) {
  if (!loading || !registry.ranBy() || registry.handedOver()) return false;
  loading.afterRunError = err;
  registry.fileDone();
  return true;
}

// Loads a suite file in any form nodebench runs; cb(err, suite). err.unsupported means this runtime
// cannot load the file (the message says why); any other error is the file's own. wanted: the name
// of the benchmark to measure (a library file stops at the run() after which it exists); without
// it, the whole file is described.
function load(suitePath, cb, wanted) {
  var file;
  var kind;
  var source;
  var libraries;
  try {
    file = require.resolve(path.resolve(suitePath));
    kind = moduleKind(file);
    source = fs.readFileSync(file, 'utf8');
    libraries = librariesImported(file, source);
  } catch (err) {
    return cb(err);
  }
  var problem = loadProblem(kind);
  if (problem) return cb(UnsupportedError(problem));
  var restart = loaderRestart(kind, libraries);
  if (restart) {
    var err = new Error('restart with --experimental-loader ' + restart);
    err.restartWithLoader = restart;
    return cb(err);
  }
  registry.want(wanted);

  var finished = false;
  var realExit = process.exit;
  loading = { afterRunError: null };
  function finish(err, exported) {
    if (finished) return;
    finished = true;
    // The benchmark to measure was never built because the file's code threw after a run(): that
    // error is the reason, not the missing name.
    var wantedMissing = registry.wanted() !== null && !registry.hasTask(registry.wanted());
    if (!err && loading.afterRunError && wantedMissing) err = loading.afterRunError;
    loading = null;
    process.exit = realExit;
    var suite = null;
    if (!err) {
      try {
        suite = registry.libraries().length ? fromLibrary(file, kind) : fromExport(file, exported, kind);
      } catch (buildErr) {
        err = buildErr;
      }
    }
    cb(err || null, suite);
  }
  // A library file hands over when it has built what is wanted, or is done (formats/registry.js).
  registry.onHandOver(function () { finish(null, null); });
  // A file that ends itself after its runs (main().then(() => process.exit(0))) is done then.
  process.exit = function (code) {
    if (registry.ranBy() && !registry.handedOver()) return registry.fileDone();
    return realExit.apply(process, arguments);
  };
  function loaded(exported) {
    if (!registry.libraries().length) return finish(null, exported);
    // Its event loop emptied: it built everything it will (or never called run()).
    process.once('beforeExit', function () {
      if (registry.ranBy()) return registry.fileDone();
      finish(SuiteError(file + ' builds ' + registry.libraries()[0] + ' benchmarks but never calls run(); call it (await bench.run()) so that nodebench knows the list is complete'));
    });
  }
  function failed(err) {
    if (registry.ranBy() && absorbs(err)) return;
    var note = realLibraryNote(err, libraries);
    try {
      if (note) err.message = err.message + ' (' + note + ')';
    } catch (frozen) {
      // A frozen error keeps its own message.
    }
    finish(err);
  }

  var typescript = kind === 'typescript' || kind === 'typescript-commonjs';
  if (libraries.length || typescript) patchRequires(libraries.length > 0);
  actAsMain(file);
  if (kind === 'commonjs' || kind === 'typescript-commonjs') {
    var exported;
    try {
      exported = Module._load(file, null, true);
    } catch (err) {
      return failed(err);
    }
    return loaded(exported);
  }
  var main = /\bimport\.meta\.main\b/.test(source) ? require('url').pathToFileURL(file).href : null;
  // Where there is no module.register the worker was restarted with the redirecting loader (a
  // TypeScript file needs module.register: loadProblem refused it before).
  if ((libraries.length || kind === 'typescript' || main) && capabilities.hasLoaderHooks()) registerHooks(kind === 'typescript', main);
  require('./esm/import')(require('url').pathToFileURL(file).href).then(loaded, function (err) {
    failed(err instanceof Error ? err : new Error(String(err)));
  });
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
  if (benchmark.fnFromSetup) return null;
  if (benchmark.loadOnly) throw SuiteError('benchmark "' + benchmark.name + '" is a load profile of a service suite (no fn): it runs under load only, not in-process');
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
    format: suite.format,
    moduleKind: suite.moduleKind,
    service: !!suite.service,
    libraries: suite.libraries,
    metricsTable: suite.metricsTable,
    sampler: suite.sampler,
    perProcess: suite.perProcess,
    benchmarks: suite.benchmarks.map(function (b) {
      var described = { name: b.name, type: b.type, minNode: b.minNode, reason: b.reason, description: b.description };
      if (b.refused) described.refused = b.refused;
      if (b.timing) described.timing = b.timing;
      if (b.gcBeforeSample) described.gcBeforeSample = true;
      return described;
    })
  };
}

module.exports = { load: load, absorbs: absorbs, unsupportedReason: unsupportedReason, resolveFn: resolveFn, describe: describe };
