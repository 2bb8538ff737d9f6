// The explanation document as titled tables of plain strings, shared by the terminal, Markdown and
// HTML formats (each escapes the strings for where it shows them: text/escape.js, escapeHtml).
import { formatDuration, formatPct, formatFraction, displayName } from '../text/format.js';
import { benchmarkName } from '../cell-identity.js';
import { formatCount } from '../measure.js';
import { hasEstimate, NO_ESTIMATE } from '../render/marks.js';
import { countedTables } from './counted-tables.js';
import { formatInstructions } from './counted-document.js';

const dur = (ns) => (Number.isFinite(ns) ? formatDuration(ns) : '');
const signed = (ns) => (Number.isFinite(ns) ? `${ns >= 0 ? '+' : '-'}${formatDuration(Math.abs(ns))}` : '');
const share = (s) => (s && Number.isFinite(s.share) ? formatFraction(s.share) : '');
// Beyond ±100% the processes disagreed too much to have an estimate (render/marks.js): said so,
// never "±685%", which reads as a measurement.
const margin = (s) => {
  if (!(s && s.low !== null && s.high !== null && s.estimate > 0)) return '';
  const pct = ((s.high - s.low) / 2 / s.estimate) * 100;
  return hasEstimate(pct) ? `±${formatPct(pct)}` : NO_ESTIMATE;
};
const range = (c) => (c && Number.isFinite(c.low) ? `${signed(c.low)} .. ${signed(c.high)}` : '');

function verdictText(row) {
  if (row.only) return `only ${row.only.toUpperCase()}${row.change?.verdict !== 'undecided' && row.change ? `, ${row.change.verdict}` : ''}`;
  if (!row.change) return row.a && row.b ? 'no interval' : '';
  return row.change.verdict === 'undecided' ? 'no clear change' : row.change.verdict;
}

// The benchmark explained, as every view names it: suite/benchmark.
export const benchmarkOf = (doc) => displayName(benchmarkName({ suite: doc.benchmark.suite, benchmark: doc.benchmark.name }));

export function sideLine(doc, id) {
  const s = doc.sides[id];
  const flags = s.flags.length ? s.flags.join(' ') : 'no flags';
  const timing = s.recorded ? `; the result file's cell: ${s.recorded.unit === 'ns/op' ? `${formatDuration(s.recorded.value)}/op` : `${formatInstructions(s.recorded.value)} ${s.recorded.unit}`}`
    : s.timing ? `; timing processes: ${formatDuration(s.timing.nsPerOp)}/op` : '';
  return `${id.toUpperCase()} = ${displayName(s.column)} (Node ${s.runtime.version}, V8 ${s.runtime.v8}, ${flags})${timing}`;
}

function functionsTable(doc) {
  const n = (id) => doc.sides[id].profiling.processes.filter((p) => !p.error).length;
  const unavailable = ['a', 'b'].filter((id) => doc.sides[id].profiling.unavailable).map((id) => `${id.toUpperCase()} (${displayName(doc.sides[id].column)}) not profiled: ${doc.sides[id].profiling.unavailable}.`);
  const overPort = ['a', 'b'].filter((id) => doc.sides[id].profiling.via === 'inspect-port')
    .map((id) => `${id.toUpperCase()} (${displayName(doc.sides[id].column)}) profiled over its --inspect port (Node ${doc.sides[id].runtime.version} has no inspector module; nodebench drove the same Profiler from outside).`);
  const failed = ['a', 'b'].filter((id) => !doc.sides[id].profiling.unavailable)
    .flatMap((id) => doc.sides[id].profiling.processes.filter((p) => p.error).map((p) => `${id.toUpperCase()}: ${p.error} (left out).`));
  const t = doc.functions.totals;
  const rows = doc.functions.rows.map((r) => [displayName(r.name), r.location, dur(r.a?.estimate), margin(r.a), share(r.a), dur(r.b?.estimate), margin(r.b), share(r.b), signed(r.change?.estimate), range(r.change), verdictText(r)]);
  if (t.a || t.b) rows.push(['(whole operation, CPU)', '', dur(t.a?.estimate), margin(t.a), t.a ? '100%' : '', dur(t.b?.estimate), margin(t.b), t.b ? '100%' : '', signed(t.change?.estimate), range(t.change), t.change ? (t.change.low > 0 || t.change.high < 0 ? (t.change.estimate > 0 ? 'slower' : 'faster') : 'no clear change') : '']);
  return {
    id: 'functions',
    title: `CPU self time per operation, by function (${n('a')} profiled process(es) of A, ${n('b')} of B, a sample every ${doc.settings.intervalUs} µs)`,
    header: ['function', 'where', 'A /op', 'A ±', 'A share', 'B /op', 'B ±', 'B share', 'B - A', '95% interval', 'verdict'],
    rightFrom: 2,
    rows,
    notes: [...unavailable, ...overPort, ...failed, 'Sorted by the size of the change. "only A"/"only B": seen in no profiled process of the other side (builtins and Node\'s own functions differ between versions). A callee V8 inlined shows its time in its caller.']
  };
}

function gcTable(doc) {
  const errors = ['a', 'b'].flatMap((id) => (doc.gc.errors[id] || []).map((e) => `${id.toUpperCase()}: ${e}`));
  // 1.42k, not 1.42e+3.
  const count = (v) => (Number.isFinite(v) ? `${v >= 0 ? '' : '-'}${formatCount(Math.abs(v))}` : '');
  const signedCount = (v) => (Number.isFinite(v) ? `${v >= 0 ? '+' : ''}${count(v)}` : '');
  const row = (r) => {
    const [show, showChange, unit] = r.unit === 'ns' ? [dur, signed, 'per operation'] : [count, signedCount, 'per 1000 operations'];
    if (r.a?.estimate === 0 && r.b?.estimate === 0) return [r.label, unit, '0', '', '0', '', '', '', 'none on either side'];
    const verdict = r.change ? (r.change.verdict === 'undecided' ? 'no clear change' : r.unit === 'ns' ? r.change.verdict : r.change.estimate > 0 ? 'more' : 'fewer') : '';
    return [r.label, unit, show(r.a?.estimate), margin(r.a), show(r.b?.estimate), margin(r.b), showChange(r.change?.estimate), r.change && Number.isFinite(r.change.low) ? `${showChange(r.change.low)} .. ${showChange(r.change.high)}` : '', verdict];
  };
  return {
    id: 'gc',
    title: `Main-thread GC per operation (${doc.gc.processes.a} metrics process(es) of A, ${doc.gc.processes.b} of B, --trace-gc; pauses are wall clock)`,
    header: ['kind', 'unit', 'A', 'A ±', 'B', 'B ±', 'B - A', '95% interval', 'verdict'],
    rightFrom: 2,
    rows: doc.gc.rows.map(row),
    notes: errors
  };
}

function optimizationTable(doc) {
  const rows = ['a', 'b'].map((id) => {
    const o = doc.optimization[id];
    if (o.error) return [`${id.toUpperCase()} ${displayName(doc.sides[id].column)}`, o.error, '', '', ''];
    const reasons = o.byReason.slice(0, 3).map((r) => `${r.count}x ${displayName(r.function)}: ${r.reason} (${r.kind})`).join('; ');
    return [`${id.toUpperCase()} ${displayName(doc.sides[id].column)}`, o.text, String(o.deopts), Number.isFinite(o.deoptsPer1000Ops) ? o.deoptsPer1000Ops.toPrecision(2) : '', reasons];
  });
  return {
    id: 'optimization',
    title: 'Optimisation (one process per side with --trace-deopt and --allow-natives-syntax)',
    header: ['side', 'benchmark function at the end', 'deopts', 'per 1000 ops', 'most frequent deopts'],
    rightFrom: Infinity,
    rows,
    notes: ['Deopts are counted over the whole process, warm-up included: a few while V8 learns the types are normal; a count that grows with the operations is not.']
  };
}

function flagsTable(doc) {
  const f = doc.flags;
  // What a side sets, beside the default it replaces on each runtime ("B sets
  // --max-semi-space-size=64 | 0 | 0" read as two measurements of nothing: V8 lists 0 for "sized
  // by the heap").
  const defaultText = (value) => (value === null || value === undefined || value === '' ? 'unknown' : value === '0' ? '0 (V8 decides)' : value);
  const setRows = ['a', 'b'].flatMap((id) => f.set[id].map((s) => [`${id.toUpperCase()} sets ${s.written}`, defaultText(s.default), defaultText(s.otherDefault), 'set by the flag set; the columns: the default it replaces']));
  const changedRows = (f.changed || []).map((c) => [c.name, c.a, c.b, c.group]);
  const notes = [];
  if (f.sameRuntime) notes.push('Both sides run the same runtime: every V8 default is the same; only the flags the sides set differ.');
  if (f.note) notes.push(f.note);
  if (f.more) notes.push(`${f.more} more GC, compiler or memory flags changed their defaults (nodebench flags diff shows them all).`);
  return {
    id: 'flags',
    title: 'V8 flags: set by a side, or whose defaults differ between the runtimes (GC, compiler, memory; main GC flags one runtime lacks)',
    header: ['flag', 'default on A', 'default on B', 'group'],
    rightFrom: Infinity,
    rows: [...setRows, ...changedRows],
    notes
  };
}

export function explainTables(doc) {
  if (doc.measure === 'instructions') return countedTables(doc);
  return [functionsTable(doc), gcTable(doc), optimizationTable(doc), flagsTable(doc)];
}

export function profileFiles(doc) {
  return ['a', 'b'].flatMap((id) => (doc.sides[id].profiling?.processes ?? []).filter((p) => p.file).map((p) => p.file));
}
