'use strict';
// NodeNext-style imports in TypeScript: a .ts file imports its sibling x.ts as './x.js', the name
// the compiled file will have (TypeScript's moduleResolution node16/nodenext asks for it). tsc, tsx
// and ts-node resolve such an import to ./x.ts when ./x.js does not exist; Node never does (its own
// type stripping wants './x.ts'). nodebench resolves it as tsx does, from a TypeScript file only:
// the ES module loader hook (worker/esm/hooks.mjs) and the CommonJS resolution
// (worker/suite-loader.js) both ask typescriptSibling.
var fs = require('fs');

var TYPESCRIPT_FILE = /\.(?:c|m)?ts$/;
var JAVASCRIPT_EXTENSION = /\.(?:c|m)?js$/;
var SIBLING_EXTENSION = { '.js': '.ts', '.mjs': '.mts', '.cjs': '.cts' };

function isFile(file) {
  try {
    return fs.statSync(file).isFile();
  } catch (err) {
    return false;
  }
}

// The TypeScript file that `file` (an absolute path ending in .js, .mjs or .cjs, imported from
// `parentFile`) stands for, or null: only from a TypeScript file, and only where `file` is missing.
function typescriptSibling(file, parentFile) {
  if (typeof parentFile !== 'string' || !TYPESCRIPT_FILE.test(parentFile)) return null;
  var match = JAVASCRIPT_EXTENSION.exec(file);
  if (!match || isFile(file)) return null;
  var sibling = file.slice(0, -match[0].length) + SIBLING_EXTENSION[match[0]];
  return isFile(sibling) ? sibling : null;
}

module.exports = { typescriptSibling: typescriptSibling, TYPESCRIPT_FILE: TYPESCRIPT_FILE };
