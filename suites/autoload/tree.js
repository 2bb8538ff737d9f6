'use strict';
// Builds the autoload suite's file tree in a fresh temporary directory, and removes it again.
// Everything here is deterministic for a given seed (no Math.random), so every runtime resolves
// the same request list against the same files. Node-4-compatible (see suites/README.md).
var fs = require('fs');
var os = require('os');
var path = require('path');

var prng = require('../lib/random').prng;

function pick(random, list) {
  return list[Math.floor(random() * list.length)];
}

// A fresh, empty directory under `parent` (os.tmpdir() by default). fs.mkdtempSync is used when
// the runtime has it; otherwise a name that includes the pid is created with mkdirSync, which fails
// rather than reuse an existing directory.
var fallbackCounter = 0;
function makeTempRoot(parent, prefix) {
  var base = path.join(parent || os.tmpdir(), prefix);
  if (typeof fs.mkdtempSync === 'function') return fs.mkdtempSync(base);
  for (var attempt = 0; attempt < 100; attempt++) {
    var dir = base + process.pid + '-' + Date.now().toString(36) + '-' + (fallbackCounter++);
    try {
      fs.mkdirSync(dir, 448); // 0700
      return dir;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
  }
  throw new Error('could not create a temporary directory under ' + (parent || os.tmpdir()));
}

// mkdir -p (recursive mkdirSync needs Node 10.12).
function mkdirp(dir) {
  if (fs.existsSync(dir)) return;
  mkdirp(path.dirname(dir));
  fs.mkdirSync(dir);
}

function writeFile(file, text) {
  mkdirp(path.dirname(file));
  fs.writeFileSync(file, text);
}

// rm -rf (fs.rmSync needs Node 14.14); a missing path is not an error.
function removeTree(target) {
  var stat;
  try {
    stat = fs.lstatSync(target);
  } catch (err) {
    if (err.code === 'ENOENT') return;
    throw err;
  }
  if (stat.isDirectory()) {
    fs.readdirSync(target).forEach(function (entry) { removeTree(path.join(target, entry)); });
    fs.rmdirSync(target);
  } else {
    fs.unlinkSync(target);
  }
}

// Every file under dir (relative paths with the platform separator), in sorted order.
function listFiles(dir) {
  var out = [];
  function walk(abs, rel) {
    fs.readdirSync(abs).sort().forEach(function (entry) {
      var childAbs = path.join(abs, entry);
      var childRel = rel ? rel + path.sep + entry : entry;
      if (fs.statSync(childAbs).isDirectory()) walk(childAbs, childRel);
      else out.push(childRel);
    });
  }
  walk(dir, '');
  return out;
}

// Fisher-Yates on a copy, then the first n.
function sample(random, list, n) {
  var copy = list.slice();
  for (var i = copy.length - 1; i > 0; i--) {
    var j = Math.floor(random() * (i + 1));
    var tmp = copy[i];
    copy[i] = copy[j];
    copy[j] = tmp;
  }
  return copy.slice(0, Math.min(n, copy.length));
}

var NAMESPACES = ['MediaWiki\\Storage', 'MediaWiki\\Revision', 'MediaWiki\\Page', 'MediaWiki\\User',
  'MediaWiki\\Html', 'MediaWiki\\Parser', 'MediaWiki\\Rest', 'Wikimedia\\Rdbms', 'MediaWiki\\Linker',
  'MediaWiki\\Title', 'MediaWiki\\Language', 'Wikimedia\\ObjectCache'];
var BASE_DIRS = ['includes', 'src', 'compat', 'legacy', 'lib', 'extensions'];
var SUBSPACES = ['Handler', 'Hook', 'Service', 'Exception', 'Util'];
var WORDS = ['Page', 'Revision', 'Blob', 'Slot', 'Content', 'Title', 'User', 'Link', 'Cache',
  'Session', 'Parser', 'Message', 'Language', 'Store', 'Query', 'Record', 'Archive', 'Category',
  'Watchlist', 'Edit', 'Diff', 'Search', 'Job', 'Hook', 'Config', 'Permission', 'Block', 'Log'];
var SUFFIXES = ['Store', 'Lookup', 'Factory', 'Manager', 'Handler', 'Renderer', 'Formatter',
  'Builder', 'Validator', 'Service', 'Record', 'Provider', 'Resolver', 'Updater', 'Info'];

function namespaceName(i) {
  return i < NAMESPACES.length ? NAMESPACES[i] : 'Vendor\\Package' + i;
}

function baseDirName(j) {
  return j < BASE_DIRS.length ? BASE_DIRS[j] : 'dir' + j;
}

function slug(namespace) {
  return namespace.toLowerCase().split('\\').join('-');
}

// PSR-4 part: params.classes classes spread over params.namespaces namespaces; each namespace is
// mapped to params.dirsPerNamespace base directories and each class file is written into exactly
// one of them. Returns { prefixDirs: { 'Ns\\': [dir, ...] }, classes: [fqcn, ...] }.
function buildPsr4(root, params, random) {
  var namespaces = Math.max(1, params.namespaces | 0);
  var dirsPer = Math.max(1, params.dirsPerNamespace | 0);
  var count = Math.max(1, params.classes | 0);
  var prefixDirs = Object.create(null);
  var prefixes = [];
  for (var i = 0; i < namespaces; i++) {
    var ns = namespaceName(i);
    var dirs = [];
    for (var j = 0; j < dirsPer; j++) {
      var dir = path.join(root, 'php', slug(ns), baseDirName(j));
      mkdirp(dir);
      dirs.push(dir);
    }
    prefixDirs[ns + '\\'] = dirs;
    prefixes.push(ns);
  }
  var seen = Object.create(null);
  var classes = [];
  var serial = 0;
  while (classes.length < count) {
    var prefix = prefixes[classes.length % prefixes.length];
    var sub = random() < 0.35 ? pick(random, SUBSPACES) : null;
    var short = pick(random, WORDS) + pick(random, SUFFIXES);
    var fqcn = prefix + '\\' + (sub ? sub + '\\' : '') + short;
    if (seen[fqcn]) {
      short = short + (++serial);
      fqcn = prefix + '\\' + (sub ? sub + '\\' : '') + short;
    }
    seen[fqcn] = true;
    var candidates = prefixDirs[prefix + '\\'];
    var home = candidates[Math.floor(random() * candidates.length)];
    var rel = (sub ? sub + path.sep : '') + short + '.php';
    writeFile(path.join(home, rel),
      '<?php\nnamespace ' + prefix + (sub ? '\\' + sub : '') + ';\n\nclass ' + short + ' {\n}\n');
    classes.push(fqcn);
  }
  return { prefixDirs: prefixDirs, classes: classes };
}

// What a class-map generator (MediaWiki's generateLocalAutoload.php, composer dump-autoload -o)
// does: scan the tree once, read each file's namespace and class, map class name -> file.
function scanClassMap(root) {
  var map = Object.create(null);
  var phpRoot = path.join(root, 'php');
  listFiles(phpRoot).forEach(function (rel) {
    if (!/\.php$/.test(rel)) return;
    var file = path.join(phpRoot, rel);
    var text = fs.readFileSync(file, 'utf8');
    var ns = /^namespace\s+([^;]+);/m.exec(text);
    var cls = /^class\s+(\w+)/m.exec(text);
    if (!cls) return;
    var fqcn = (ns ? ns[1] + '\\' : '') + cls[1];
    if (!(fqcn in map)) map[fqcn] = file;
  });
  return map;
}

var PACKAGES = ['lodash', 'debug', 'ms', 'semver', 'chalk', 'yargs', 'express', 'qs', 'mime',
  'uuid', 'async', 'bluebird', 'moment', 'glob', 'minimatch', 'rimraf', 'commander', 'request',
  'through2', 'readable-stream', 'inherits', 'safe-buffer', 'once', 'wrappy'];
var SUBPATHS = ['lib', 'dist', 'src', 'fp', 'internal', 'util'];
var LEAVES = ['map', 'parse', 'format', 'utils', 'index', 'core', 'helpers', 'stream', 'compat', 'types'];

function searchPathName(k) {
  var names = ['app' + path.sep + 'node_modules', 'node_modules', 'lib' + path.sep + 'node_modules',
    'global' + path.sep + 'node_modules'];
  return k < names.length ? names[k] : 'extra' + k + path.sep + 'node_modules';
}

// Node part: params.modules module ids, each present in one of params.searchPaths search paths,
// either as <id>.js or as <id>/index.js. Returns { searchPaths: [dir, ...], modules: [id, ...] }.
function buildModules(root, params, random) {
  var pathsCount = Math.max(1, params.searchPaths | 0);
  var count = Math.max(1, params.modules | 0);
  var searchPaths = [];
  for (var k = 0; k < pathsCount; k++) {
    var dir = path.join(root, 'node', searchPathName(k));
    mkdirp(dir);
    searchPaths.push(dir);
  }
  var seen = Object.create(null);
  var modules = [];
  var serial = 0;
  while (modules.length < count) {
    var pkg = pick(random, PACKAGES);
    if (random() < 0.5) pkg = pkg + '-' + (++serial);
    var id = random() < 0.4 ? pkg : pkg + '/' + pick(random, SUBPATHS) + '/' + pick(random, LEAVES);
    if (seen[id]) continue;
    seen[id] = true;
    var home = searchPaths[Math.floor(random() * searchPaths.length)];
    var native = id.split('/').join(path.sep);
    var file = random() < 0.5 ? path.join(home, native + '.js') : path.join(home, native, 'index.js');
    writeFile(file, 'module.exports = ' + JSON.stringify(id) + ';\n');
    modules.push(id);
  }
  return { searchPaths: searchPaths, modules: modules };
}

// What a bundler's or a snapshot's precomputed resolution does: walk every search path once and
// map module id -> file, with the resolver's precedence (earlier search path first; <id>.js before
// <id>/index.js within one search path).
function scanModuleMap(searchPaths) {
  var map = Object.create(null);
  searchPaths.forEach(function (dir) {
    var local = Object.create(null);
    listFiles(dir).forEach(function (rel) {
      var id = rel.split(path.sep).join('/');
      var file = path.join(dir, rel);
      if (/\/index\.js$/.test(id)) {
        var dirId = id.slice(0, -'/index.js'.length);
        if (!(dirId in local)) local[dirId] = file;
      }
      if (/\.js$/.test(id)) local[id.slice(0, -3)] = file; // <id>.js wins over <id>/index.js
    });
    Object.keys(local).forEach(function (id) {
      if (!(id in map)) map[id] = local[id];
    });
  });
  return map;
}

// Everything the benchmarks read: the tree built under root, its maps and the request lists.
function buildAll(root, params) {
  var random = prng(params.seed);
  var psr4 = buildPsr4(root, params, random);
  var modules = buildModules(root, params, random);
  return {
    root: root,
    prefixDirs: psr4.prefixDirs,
    classMap: scanClassMap(root),
    searchPaths: modules.searchPaths,
    modulePathMap: scanModuleMap(modules.searchPaths),
    classRequest: sample(random, psr4.classes, params.classesPerRequest | 0),
    moduleRequest: sample(random, modules.modules, params.modulesPerRequest | 0)
  };
}

module.exports = {
  buildAll: buildAll,
  prng: prng,
  sample: sample,
  makeTempRoot: makeTempRoot,
  removeTree: removeTree,
  buildPsr4: buildPsr4,
  scanClassMap: scanClassMap,
  buildModules: buildModules,
  scanModuleMap: scanModuleMap
};
