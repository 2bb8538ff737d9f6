// The per-function costs of one callgrind part file (callgrind's "callgrind format"), for explain in
// instructions: each function's self instructions, which sum to the part's summary line. The header
// alone (process/valgrind.js parsePartHeader) gives the total; this reads the body.
// What the format holds (valgrind's docs, "Callgrind Format Specification"), as far as it matters:
//   ob=(id) name / fl= fi= fe= (id) name   object and source file; a bare "(id)" names one defined
//                                          earlier in the same file (each part compresses on its own)
//   fn=(id) name                           the function the following cost lines belong to
//   cob= cfi= cfl= cfn=                    the callee of the next calls= line
//   calls=N target                         the cost line after it is that call's inclusive cost,
//                                          which is the callee's, never the caller's self cost
//   POSITIONS COSTS                        a cost line: positions (here one, "line", 0 with
//                                          --dump-line=no; "+n", "-n" and "*" are relative), then
//                                          one count per event, missing ones 0
// A function without a symbol is named by callgrind as its first address ("0x0000000028003a80"),
// in object "???" where no mapped file holds it: V8's JIT code (perf-map.js names it).

const COMPRESSED = /^(ob|fl|fi|fe|fn|cob|cfi|cfl|cfn)=\((\d+)\)(?: (.*))?$/;
const COST = /^[+\-*\d]/;

// text: a part file's content. Returns { pid, part, events, summary (of the first event, Ir here),
// functions: Map "object\0name" -> { object, name, self }, selfTotal } (selfTotal: the sum of every
// function's self cost, which equals summary for a whole file).
export function parseCallgrindPart(text) {
  const names = { ob: new Map(), fl: new Map(), fn: new Map() };
  const table = { ob: 'ob', cob: 'ob', fl: 'fl', fi: 'fl', fe: 'fl', cfi: 'fl', cfl: 'fl', fn: 'fn', cfn: 'fn' };
  const header = {};
  const functions = new Map();
  let positions = 1;
  let object = '???';
  let current = null;
  let inclusiveNext = false;
  let selfTotal = 0;
  for (const line of text.split('\n')) {
    if (COST.test(line)) {
      if (inclusiveNext) {
        inclusiveNext = false;
        continue;
      }
      if (!current) continue;
      const fields = line.trim().split(/\s+/);
      const ir = Number(fields[positions] ?? 0);
      if (Number.isFinite(ir) && ir) {
        current.self += ir;
        selfTotal += ir;
      }
      continue;
    }
    const compressed = COMPRESSED.exec(line);
    if (compressed) {
      const [, key, id, given] = compressed;
      const names_ = names[table[key]];
      if (given !== undefined) names_.set(id, given);
      const name = names_.get(id) ?? `(${id})`;
      if (key === 'ob') object = name;
      if (key === 'fn') {
        const fnKey = `${object}\u0000${name}`;
        current = functions.get(fnKey) || { object, name, self: 0 };
        functions.set(fnKey, current);
      }
      continue;
    }
    if (line.startsWith('calls=')) {
      inclusiveNext = true;
      continue;
    }
    const field = /^(\w[\w ]*):\s*(.*)$/.exec(line);
    if (field) header[field[1]] = field[2].trim();
    if (field?.[1] === 'positions') positions = field[2].trim().split(/\s+/).length;
  }
  const events = (header.events || '').split(/\s+/).filter(Boolean);
  return {
    pid: Number(header.pid),
    part: Number(header.part),
    events,
    summary: Number((header.summary || '').split(/\s+/)[0]),
    functions,
    selfTotal
  };
}
