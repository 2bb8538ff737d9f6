// Loader hooks (module.register, Node 18.19+ and 20.6+), registered by worker/suite-loader.js only
// for a file that needs them. They run on the loader thread, not the thread being measured.
//   resolve: an import of a benchmark library (tinybench, mitata, bench-node, benchmark) becomes
//            nodebench's shim, so the file's tasks are recorded instead of run by the library;
//   load:    a .ts/.mts file, on a runtime that does not strip types itself, is stripped by sucrase.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

let shims = {};
let stripTypes = false;
let transform = null;

export function initialize(data) {
  shims = data.shims;
  stripTypes = data.stripTypes;
}

export async function resolve(specifier, context, nextResolve) {
  if (Object.prototype.hasOwnProperty.call(shims, specifier)) return { url: shims[specifier], shortCircuit: true };
  return nextResolve(specifier, context);
}

const TYPESCRIPT = /\.m?ts$/;

export async function load(url, context, nextLoad) {
  if (!stripTypes || !url.startsWith('file:') || !TYPESCRIPT.test(new URL(url).pathname)) return nextLoad(url, context);
  transform ||= createRequire(import.meta.url)('sucrase').transform;
  const file = fileURLToPath(url);
  const code = transform(fs.readFileSync(file, 'utf8'), { transforms: ['typescript'], disableESTransforms: true, filePath: file }).code;
  return { format: 'module', source: code, shortCircuit: true };
}
