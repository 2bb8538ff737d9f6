// V8's perf map (--perf-basic-prof: /tmp/perf-<pid>.map, or --perf-basic-prof-path's folder where
// the runtime lists it): one line "START SIZE NAME" (hex, hex, the rest) per code object V8 made,
// in the order it made them. Callgrind names JIT code by an address (callgrind.js), sometimes one
// inside a code object (callgrind starts a "function" at each block it entered without a symbol),
// so an address is looked up by range; V8 reuses the memory of collected code, so where entries
// overlap the one written last wins. Names as V8 writes them, by runtime:
//   Node 24       JS:*hotLoop /dir/hot.js:1:17   Builtin:ArrayPrototypePush   BytecodeHandler:Ldar
//   Node 14-16    LazyCompile:*f /dir/x.js:3      Function:^f /dir/x.js:3      Builtin:..., Eval:...
//   Node 4-6      LazyCompile:*f /dir/x.js:3      Stub:..., Handler:..., StoreIC:..., Builtin:...
// A JavaScript function's name carries V8's tier marker: ~ interpreted (Ignition), ^ baseline
// (Sparkplug), + Maglev, * optimised (Turbofan; Node 24 writes some as *'), none where V8 wrote none.
import path from 'node:path';
import { workerEntry } from '../paths.js';

const workerDir = path.dirname(workerEntry);
// The row of JIT code no map names (a runtime without --perf-basic-prof, an address in no entry).
export const UNNAMED_JIT = 'JIT code (unnamed)';
const LINE = /^([0-9a-fA-F]+) ([0-9a-fA-F]+) (.*)$/;
const JS_TYPES = new Set(['JS', 'LazyCompile', 'Function', 'Eval', 'Script']);

// [{ start, end, name, order }] of a map's text; a line that is not an entry (a function name with
// a newline in it continues on the next line) is skipped.
export function parsePerfMap(text) {
  const entries = [];
  for (const line of text.split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const start = parseInt(m[1], 16);
    entries.push({ start, end: start + parseInt(m[2], 16), name: m[3], order: entries.length });
  }
  return entries;
}

// lookup(address) -> the entry that covers it (the one written last where several do), or null.
export function perfMapLookup(entries) {
  const sorted = [...entries].sort((x, y) => x.start - y.start || x.order - y.order);
  // The largest end among entries 0..i: scanning down from an address's last possible entry stops
  // where no earlier entry can reach it.
  const reach = [];
  for (const [i, e] of sorted.entries()) reach.push(Math.max(e.end, i ? reach[i - 1] : 0));
  return (address) => {
    let lo = 0;
    let hi = sorted.length - 1;
    let last = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid].start <= address) {
        last = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    let found = null;
    for (let i = last; i >= 0 && reach[i] > address; i--) {
      const e = sorted[i];
      if (e.end > address && (!found || e.order > found.order)) found = e;
    }
    return found;
  };
}

// "/dir/hot.js:1:17" -> { file, line, column }; null for a location V8 did not give.
function splitLocation(text) {
  const m = /^(.*?):(\d+)(?::(\d+))?$/.exec(text);
  return m ? { file: m[1], line: Number(m[2]), column: m[3] === undefined ? null : Number(m[3]) } : null;
}

// A map entry's name as explain shows it: { key, name, location, kind, tier }. JavaScript functions
// by name and where they are (relative to the suite's folder; nodebench's own worker as the
// harness), their tier apart, so that one function compiled at several tiers is one row; V8's own
// code (builtins, bytecode handlers, stubs and inline caches of old V8) by the name V8 gave it.
export function mappedIdentity(entryName, { suiteDir } = {}) {
  const typed = /^([A-Za-z]+):(.*)$/s.exec(entryName);
  if (!typed || !JS_TYPES.has(typed[1])) return { key: `v8\u0000${entryName}`, name: entryName, location: 'V8', kind: 'v8', tier: null };
  const rest = typed[2];
  const marker = /^(?:[~^+*]'?)/.exec(rest)?.[0] ?? '';
  const body = rest.slice(marker.length);
  // "then native promise.js:12" (Node 6's V8 library), else the last word when it reads file:line.
  const natives = /^(.*) (native \S+\.js):\d+$/s.exec(body);
  const split = natives ? null : /^(.*) (\S+:\d+(?::\d+)?)$/s.exec(body);
  const name = (natives?.[1] ?? split?.[1] ?? body) || '(anonymous)';
  const tier = marker || null;
  if (natives) return { key: `v8\u0000${name}\u0000${natives[2]}`, name, location: `V8's ${natives[2].slice('native '.length)}`, kind: 'v8', tier };
  const where = split && splitLocation(split[2]);
  if (!where) return { key: `js\u0000${name}`, name, location: '', kind: 'user', tier };
  const { file } = where;
  const position = `${where.line}${where.column === null ? '' : `:${where.column}`}`;
  if (file.startsWith(workerDir + path.sep)) {
    return { key: `harness\u0000${name}\u0000${path.basename(file)}`, name, location: `nodebench ${path.basename(file)} (harness: holds what V8 inlined into it)`, kind: 'harness', tier };
  }
  if (!path.isAbsolute(file)) {
    const module = file.replace(/^node:/, '').replace(/\.js$/, '');
    return { key: `node\u0000${name}\u0000${module}`, name, location: `node:${module}`, kind: 'node', tier };
  }
  const shown = suiteDir && !path.relative(suiteDir, file).startsWith('..') ? path.relative(suiteDir, file) : file;
  return { key: `user\u0000${name}\u0000${file}\u0000${position}`, name, location: `${shown}:${position}`, kind: 'user', tier };
}
