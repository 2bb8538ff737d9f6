'use strict';
// The benchmark libraries nodebench stands in for: the name a file imports, the format name the
// suite description carries, and the shim that records the file's tasks (CommonJS, and the ES
// module face under esm/).
var path = require('path');

var LIBRARIES = {
  tinybench: { format: 'tinybench', file: 'tinybench' },
  mitata: { format: 'mitata', file: 'mitata' },
  'bench-node': { format: 'bench-node', file: 'bench-node' },
  benchmark: { format: 'benchmark.js', file: 'benchmark' }
};

var NAMES = Object.keys(LIBRARIES);

// Which libraries a file's source imports or requires (a string literal naming one of them).
var IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(['"])(tinybench|mitata|bench-node|benchmark)\1/g;

function importedBy(source) {
  var found = [];
  var match;
  IMPORT.lastIndex = 0;
  while ((match = IMPORT.exec(source)) !== null) {
    if (found.indexOf(match[2]) === -1) found.push(match[2]);
  }
  return found;
}

function commonjsShim(name) {
  return path.join(__dirname, LIBRARIES[name].file + '.js');
}

function esmShim(name) {
  return path.join(__dirname, 'esm', LIBRARIES[name].file + '.mjs');
}

module.exports = {
  NAMES: NAMES,
  importedBy: importedBy,
  formatOf: function (name) { return LIBRARIES[name].format; },
  commonjsShim: commonjsShim,
  esmShim: esmShim
};
