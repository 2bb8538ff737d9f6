'use strict';
// A tiny "is this runtime at least X.Y.Z" check. The host decides support with semver before it
// spawns anything; this is the worker's own guard for `nodebench run` and direct use.

function parse(version) {
  var parts = String(version).replace(/^v/, '').split('-')[0].split('.');
  return [Number(parts[0]) || 0, Number(parts[1]) || 0, Number(parts[2]) || 0];
}

function atLeast(version, minimum) {
  var a = parse(version);
  var b = parse(minimum);
  for (var i = 0; i < 3; i++) {
    if (a[i] !== b[i]) return a[i] > b[i];
  }
  return true;
}

module.exports = { parse: parse, atLeast: atLeast };
