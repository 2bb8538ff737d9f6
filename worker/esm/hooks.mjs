// Loader hooks (module.register, Node 18.19+ and 20.6+), registered by worker/suite-loader.js only
// for a file that needs them. They run on the loader thread, not the thread being measured.
//   resolve: an import of a benchmark library (tinybench, mitata, bench-node, benchmark) becomes
//            nodebench's shim, so the file's tasks are recorded instead of run by the library; a
//            TypeScript file's import of './x.js' where only ./x.ts exists is ./x.ts, as under tsx
//            (worker/typescript-paths.js);
//   load:    a TypeScript ES module (.ts, .mts) is stripped by sucrase on every runtime, also where
//            Node strips types itself, so that every runtime runs the same JavaScript: Node's
//            stripping keeps an import whose names are only types (`import { T }` without `type`),
//            which then fails to link, and refuses enums; sucrase drops the one and compiles the
//            other, as tsc and tsx do. The suite file's own `import.meta.main` is true, as when
//            Node runs it as the program.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const { typescriptSibling } = require('../typescript-paths.js');

let shims = {};
let typescript = false;
let runtimeStripsTypes = false;
let mainUrl = null;
let transform = null;

export function initialize(data) {
  shims = data.shims;
  typescript = data.typescript;
  runtimeStripsTypes = data.runtimeStripsTypes;
  mainUrl = data.mainUrl;
}

const PATH_SPECIFIER = /^(?:\.{1,2}\/|\/|file:)/;

// The URL of the TypeScript file a missing './x.js' stands for, or null.
function typescriptSiblingUrl(specifier, parentURL) {
  if (!PATH_SPECIFIER.test(specifier) || typeof parentURL !== 'string' || !parentURL.startsWith('file:')) return null;
  let file;
  try {
    file = fileURLToPath(new URL(specifier, parentURL));
  } catch {
    return null;
  }
  const sibling = typescriptSibling(file, fileURLToPath(parentURL));
  return sibling && pathToFileURL(sibling).href;
}

export async function resolve(specifier, context, nextResolve) {
  if (Object.prototype.hasOwnProperty.call(shims, specifier)) return { url: shims[specifier], shortCircuit: true };
  if (!typescript) return nextResolve(specifier, context);
  try {
    return await nextResolve(specifier, context);
  } catch (err) {
    const sibling = err?.code === 'ERR_MODULE_NOT_FOUND' ? typescriptSiblingUrl(specifier, context.parentURL) : null;
    if (!sibling) throw err;
    return nextResolve(sibling, context);
  }
}

const TYPESCRIPT_MODULE = /\.m?ts$/;

const IMPORT_META_MAIN = /\bimport\.meta\.main\b/g;

// A namespace that holds values (`namespace N { export const a = 1 }`): sucrase drops it whole, so
// the code that uses it would throw a ReferenceError, and Node's own stripping refuses it. A
// namespace of types only is dropped by both, rightly. (The body is found by counting braces, so a
// brace inside a string or comment of the namespace can mislead it.)
const NAMESPACE = /(^|[\n;{}])[ \t]*(?:export[ \t]+)?(?:namespace|module)[ \t]+([\w$.]+)[ \t]*\{/g;
const VALUE_DECLARATION = /\b(?:const|let|var|function|class|enum)\b/;

function namespaceWithValues(source) {
  for (const match of source.matchAll(NAMESPACE)) {
    const open = match.index + match[0].length;
    let depth = 1;
    let end = open;
    while (end < source.length && depth > 0) {
      if (source[end] === '{') depth++;
      else if (source[end] === '}') depth--;
      end++;
    }
    if (VALUE_DECLARATION.test(source.slice(open, end - 1))) {
      return { name: match[2], line: source.slice(0, match.index + match[1].length).split('\n').length };
    }
  }
  return null;
}

function stripTypes(source, file) {
  const namespace = namespaceWithValues(source);
  if (namespace) {
    throw new Error(`${file}:${namespace.line}: TypeScript namespace ${namespace.name} holds values, which nodebench's type stripping (sucrase, the same on every runtime) would drop and Node's own refuses; write it as an object or a module of its own (a namespace of types only is fine)`);
  }
  transform ||= require('sucrase').transform;
  return transform(source, { transforms: ['typescript'], disableESTransforms: true, filePath: file }).code;
}

// A TypeScript ES module as JavaScript. Where the runtime strips types itself, its own loader says
// first whether the file is an ES module by Node's rules ("type", the file's syntax): a CommonJS one
// ('commonjs-typescript') is left to the runtime, as before nodebench. Elsewhere a .ts file is an
// ES module (docs/own-code.md).
async function loadTypeScript(url, context, nextLoad) {
  const file = fileURLToPath(url);
  if (!runtimeStripsTypes) return { format: 'module', source: stripTypes(fs.readFileSync(file, 'utf8'), file), shortCircuit: true };
  const loaded = await nextLoad(url, context);
  if (loaded.format !== 'module-typescript' || loaded.source == null) return loaded;
  return { format: 'module', source: stripTypes(String(loaded.source), file), shortCircuit: true };
}

export async function load(url, context, nextLoad) {
  const isTypescript = typescript && url.startsWith('file:') && TYPESCRIPT_MODULE.test(new URL(url).pathname);
  if (!isTypescript && url !== mainUrl) return nextLoad(url, context);
  const loaded = isTypescript ? await loadTypeScript(url, context, nextLoad) : await nextLoad(url, context);
  if (url !== mainUrl || loaded.format !== 'module' || loaded.source == null) return loaded;
  return { ...loaded, source: String(loaded.source).replace(IMPORT_META_MAIN, 'true') };
}
