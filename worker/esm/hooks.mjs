// Loader hooks (module.register, Node 18.19+ and 20.6+), registered by worker/suite-loader.js only
// for a file that needs them. They run on the loader thread, not the thread being measured.
//   resolve: an import of a benchmark library (tinybench, mitata, bench-node, benchmark) becomes
//            nodebench's shim, so the file's tasks are recorded instead of run by the library;
//   load:    a .ts/.mts file, on a runtime that does not strip types itself, is stripped by sucrase;
//            the suite file's own `import.meta.main` is true, as when Node runs it as the program.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

let shims = {};
let stripTypes = false;
let mainUrl = null;
let transform = null;

export function initialize(data) {
  shims = data.shims;
  stripTypes = data.stripTypes;
  mainUrl = data.mainUrl;
}

export async function resolve(specifier, context, nextResolve) {
  if (Object.prototype.hasOwnProperty.call(shims, specifier)) return { url: shims[specifier], shortCircuit: true };
  return nextResolve(specifier, context);
}

const TYPESCRIPT = /\.m?ts$/;

const IMPORT_META_MAIN = /\bimport\.meta\.main\b/g;

export async function load(url, context, nextLoad) {
  const typescript = stripTypes && url.startsWith('file:') && TYPESCRIPT.test(new URL(url).pathname);
  if (!typescript && url !== mainUrl) return nextLoad(url, context);
  let loaded;
  if (typescript) {
    transform ||= createRequire(import.meta.url)('sucrase').transform;
    const file = fileURLToPath(url);
    const code = transform(fs.readFileSync(file, 'utf8'), { transforms: ['typescript'], disableESTransforms: true, filePath: file }).code;
    loaded = { format: 'module', source: code, shortCircuit: true };
  } else {
    loaded = await nextLoad(url, context);
  }
  if (url !== mainUrl || loaded.format !== 'module' || loaded.source == null) return loaded;
  return { ...loaded, source: String(loaded.source).replace(IMPORT_META_MAIN, 'true') };
}
