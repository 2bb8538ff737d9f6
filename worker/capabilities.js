'use strict';
// What this runtime can load, and, where it cannot, a sentence naming the runtime and what it lacks.
// The version limits were measured on real binaries (docs/own-code.md has the table):
//   import() from a CommonJS file   12.17+ on 12.x, 13.2+ on 13.x, every 14+ (12.16.3, 13.1.0: "Not supported";
//                                    12.17.0, 13.3.0 work; 13.2.0, the release that unflagged it, is not on npm)
//   module.register (loader hooks)   18.19+ on 18.x, 20.6+ (18.18.2, 20.5.1: absent); below that,
//                                    --experimental-loader with a resolve hook (12.17.0 to 20.5.1)
//   TypeScript without a flag        22.18+ on 22.x, 23.6+ (process.features.typescript === 'strip')
var Module = require('module');
var version = require('./version');

function runtimeName() {
  return 'Node ' + process.version.replace(/^v/, '');
}

// Where a release line gained a feature later than the next line did, the limit is per line.
function firstWith(limits) {
  var major = version.parse(process.version)[0];
  var line = limits[major];
  if (line) return line;
  var majors = Object.keys(limits).map(Number).sort(function (a, b) { return a - b; });
  var later = majors.filter(function (m) { return m > major; });
  return later.length ? limits[later[0]] : null;
}

var IMPORT_LIMITS = { 12: '12.17.0', 13: '13.2.0' };

// null when import() works in this CommonJS worker, else why not.
function esmImportProblem() {
  var major = version.parse(process.version)[0];
  var needed = major >= 14 ? null : firstWith(IMPORT_LIMITS);
  if (!needed || version.atLeast(process.version, needed)) return null;
  return runtimeName() + ' cannot import ES modules from a CommonJS worker (needs >= ' + needed.replace(/\.0$/, '') + ')';
}

function hasLoaderHooks() {
  return typeof Module.register === 'function';
}

// The runtime strips TypeScript types itself: by default from 22.18 and 23.6, or with
// --experimental-strip-types from 22.6 (process.features.typescript says so from 22.10 on).
function stripsTypesItself() {
  return !!(process.features && process.features.typescript) || process.execArgv.indexOf('--experimental-strip-types') !== -1;
}

function loaderHooksLack() {
  return 'module.register, needs >= 18.19 on 18.x or >= 20.6';
}

// null when a TypeScript file can be loaded: by the runtime itself, or stripped by nodebench in a
// loader hook.
function typescriptProblem() {
  var esm = esmImportProblem();
  if (esm) return esm;
  if (stripsTypesItself() || hasLoaderHooks()) return null;
  return runtimeName() + ' cannot run TypeScript: it does not strip types (Node 22.18+ does) and has no loader hooks for nodebench to strip them (' + loaderHooksLack() + ')';
}

module.exports = {
  esmImportProblem: esmImportProblem,
  typescriptProblem: typescriptProblem,
  hasLoaderHooks: hasLoaderHooks,
  stripsTypesItself: stripsTypesItself
};
