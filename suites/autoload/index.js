'use strict';
// Class and module resolution by probing the file system against a precomputed map.
// Models MediaWiki's finding: its PSR-4 autoloader spent a large share of request time checking
// which of several directories holds a class file (file_exists per candidate directory), and an
// optimised class map (one hash lookup per class) removed that cost. See README.md.
// Node-4-compatible: 'use strict', var/function only (see suites/README.md).
var fs = require('fs');
var path = require('path');
var tree = require('./tree');
var runDir = require('../lib/run-dir');

// Roots not yet removed by teardown; removed on exit as well, so that a failing cell (which ends
// the worker without teardown) does not leave its tree behind.
var liveRoots = [];
process.on('exit', function () {
  liveRoots.forEach(function (root) {
    try {
      tree.removeTree(root);
    } catch (err) {
      // Best effort on the way out.
    }
  });
});

function forget(root) {
  var at = liveRoots.indexOf(root);
  if (at !== -1) liveRoots.splice(at, 1);
}

// The maps as the builder makes them (no prototype), whether built here or read back as JSON.
function dictionary(object) {
  var out = Object.create(null);
  Object.keys(object).forEach(function (key) { out[key] = object[key]; });
  return out;
}

// The tree as the run's directory stores it (JSON), for the process that built it and every other.
function reused(ctx) {
  return {
    root: ctx.root, prefixDirs: dictionary(ctx.prefixDirs), classMap: dictionary(ctx.classMap), searchPaths: ctx.searchPaths,
    modulePathMap: dictionary(ctx.modulePathMap), classRequest: ctx.classRequest, moduleRequest: ctx.moduleRequest, shared: true
  };
}

// Building and removing the tree took over half of every process (measured 2026-11-23): within a
// nodebench run it is built once, in the run's shared directory, and read back by later processes.
// A tree under params.tmpRoot, or kept with params.keepTree, stays the process's own.
function setup(params) {
  var treeParams = ['classes', 'namespaces', 'dirsPerNamespace', 'classesPerRequest', 'modules', 'searchPaths', 'modulesPerRequest', 'seed']
    .map(function (key) { return key + '=' + params[key]; }).join(';');
  // Every process takes the tree the same way, the one that builds it included (run-dir.js obtain).
  var shared = params.tmpRoot || params.keepTree ? null : runDir.obtain('autoload', treeParams, require.resolve('./build-tree'), params);
  if (shared) return reused(shared.data);
  var root = tree.makeTempRoot(params.tmpRoot || null, 'nodebench-autoload-');
  liveRoots.push(root);
  try {
    return tree.buildAll(root, params);
  } catch (err) {
    tree.removeTree(root);
    forget(root);
    throw err;
  }
}

function teardown(ctx, params) {
  if (!ctx || !ctx.root || ctx.shared) return;
  if (!params.keepTree) tree.removeTree(ctx.root);
  forget(ctx.root);
}

function notFound(kind, name) {
  return new Error('autoload: ' + kind + ' "' + name + '" was not found; the generated tree is incomplete');
}

// Composer's ClassLoader::findFileWithExtension for PSR-4, which MediaWiki's AutoLoader follows:
// strip namespace segments from the right until a registered prefix matches, then try each of that
// prefix's directories with a file-existence check until the file is there.
function findPsr4(prefixDirs, className) {
  var logical = className.split('\\').join(path.sep) + '.php';
  var sub = className;
  var pos = sub.lastIndexOf('\\');
  while (pos !== -1) {
    sub = sub.slice(0, pos);
    var dirs = prefixDirs[sub + '\\'];
    if (dirs) {
      var rest = logical.slice(pos + 1);
      for (var i = 0; i < dirs.length; i++) {
        var file = dirs[i] + path.sep + rest;
        if (fs.existsSync(file)) return file;
      }
    }
    pos = sub.lastIndexOf('\\');
  }
  return null;
}

function psr4Search(ctx) {
  var request = ctx.classRequest;
  var out = new Array(request.length);
  for (var i = 0; i < request.length; i++) {
    var file = findPsr4(ctx.prefixDirs, request[i]);
    if (file === null) throw notFound('class', request[i]);
    out[i] = file;
  }
  return out;
}

function classmap(ctx) {
  var request = ctx.classRequest;
  var map = ctx.classMap;
  var out = new Array(request.length);
  for (var i = 0; i < request.length; i++) {
    var file = map[request[i]];
    if (file === undefined) throw notFound('class', request[i]);
    out[i] = file;
  }
  return out;
}

// Node's resolver for a bare id, in the part that costs: for each search path (node_modules up the
// tree, NODE_PATH), try <candidate>.js, then <candidate>/index.js, with a file-existence check each.
// (Node caches resolutions per process; this is the uncached lookup a cold start, a test runner's
// fresh module registry or a tool's own resolver pays.)
function findModule(searchPaths, id) {
  var native = path.sep === '/' ? id : id.split('/').join(path.sep);
  for (var i = 0; i < searchPaths.length; i++) {
    var candidate = searchPaths[i] + path.sep + native;
    var file = candidate + '.js';
    if (fs.existsSync(file)) return file;
    file = candidate + path.sep + 'index.js';
    if (fs.existsSync(file)) return file;
  }
  return null;
}

function moduleSearchPaths(ctx) {
  var request = ctx.moduleRequest;
  var out = new Array(request.length);
  for (var i = 0; i < request.length; i++) {
    var file = findModule(ctx.searchPaths, request[i]);
    if (file === null) throw notFound('module', request[i]);
    out[i] = file;
  }
  return out;
}

function modulePathMap(ctx) {
  var request = ctx.moduleRequest;
  var map = ctx.modulePathMap;
  var out = new Array(request.length);
  for (var i = 0; i < request.length; i++) {
    var file = map[request[i]];
    if (file === undefined) throw notFound('module', request[i]);
    out[i] = file;
  }
  return out;
}

module.exports = {
  name: 'autoload',
  description: 'Resolving class/module files by probing candidate directories (file_exists per ' +
    'candidate, as MediaWiki\'s PSR-4 autoloader did) against a precomputed class/path map',
  params: {
    classes: 400,
    namespaces: 8,
    dirsPerNamespace: 3,
    classesPerRequest: 50,
    modules: 200,
    searchPaths: 4,
    modulesPerRequest: 50,
    seed: 1,
    tmpRoot: null,
    keepTree: false
  },
  setup: setup,
  teardown: teardown,
  benchmarks: {
    'psr4-search': {
      type: 'sync',
      description: 'one request\'s classes, each found by an existsSync per candidate directory',
      fn: psr4Search
    },
    'classmap': {
      type: 'sync',
      description: 'the same classes, one lookup each in a class map built at setup',
      fn: classmap
    },
    'module-search-paths': {
      type: 'sync',
      description: 'module ids resolved by probing each search path for <id>.js and <id>/index.js',
      fn: moduleSearchPaths
    },
    'module-path-map': {
      type: 'sync',
      description: 'the same module ids, one lookup each in an id -> path map built at setup',
      fn: modulePathMap
    }
  }
};
