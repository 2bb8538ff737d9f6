// The explanation in instructions as ONE document (explain --measure instructions), as document.js
// is for time: every format shows it. From what runCountedProcesses read (counted.js):
//   functions  self instructions per operation per function, side by side: each side's mean over
//              its processes and their spread (max - min), the difference B - A and the floor it
//              must exceed to be called (the two spreads, at least the count's repeatability)
//   totals     the sum of the functions, the batch marks subtracted, equal to the cell's figure
//   summary    one paragraph, as far as the counts carry it; notes: what a count cannot see
import { MEASURES } from '../measure.js';
import { formatFraction, displayName } from '../text/format.js';
import { UNNAMED_JIT } from './perf-map.js';

export const COUNTED_DOCUMENT_VERSION = 1;
// Rows shown: the largest differences and the largest shares, this many of each (with overlap).
const TOP = 20;
// A count repeats to parts per million; what a function's difference must exceed even where a
// side's processes agreed exactly (cli/measure.js: the floor every instruction interval keeps).
const REPEATABILITY = MEASURES.instructions.repeatability;

const METHOD = {
  functions: 'self instructions (callgrind\'s per-function Ir, callees not included) summed over the measured batches of each counted process (calibration, warm-up and the empty marker batches left out), divided by those batches\' operations; JIT code named from V8\'s perf map (--perf-basic-prof) by the entry covering callgrind\'s address, the one written last where V8 reused memory; one row per JavaScript function whatever tiers ran it (the tiers column splits it), since tier-up timing moves instructions between tiers, not between functions',
  floor: 'a difference is called more or fewer only when it exceeds the spread of A\'s processes plus that of B\'s (max - min over processes), and at least 0.05% of the larger side (the count\'s repeatability, cli/measure.js)',
  marks: 'each batch is marked by two fdatasync calls and the batch loop\'s set-up; their instructions are in the functions\' counts (fdatasync, the harness), and one row subtracts the empty batches\' count per batch, as the cell\'s instructions/op does'
};

const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

// values per process -> { estimate, low, high, spread, n }.
function sideOf(values) {
  if (!values.length) return null;
  const low = Math.min(...values);
  const high = Math.max(...values);
  return { estimate: mean(values), low, high, spread: high - low, n: values.length };
}

// B - A against its floor: { estimate, relative, floor, verdict: 'more' | 'fewer' | 'same' }.
function changeOf(a, b) {
  if (!a || !b) return null;
  const estimate = b.estimate - a.estimate;
  const floor = Math.max(a.spread + b.spread, REPEATABILITY * Math.max(a.estimate, b.estimate));
  const verdict = Math.abs(estimate) > floor ? (estimate > 0 ? 'more' : 'fewer') : 'same';
  return { estimate, relative: a.estimate > 0 ? estimate / a.estimate : null, floor, verdict };
}

function functionRows(sides, counted) {
  const identities = new Map();
  for (const s of sides) for (const p of counted[s.id]) for (const [key, f] of p.functions) identities.set(key, f.identity);
  const totals = Object.fromEntries(sides.map((s) => [s.id, sideOf(counted[s.id].map((p) => p.instructionsPerOp))]));
  const perOp = (p, key) => (p.functions.get(key)?.instructions ?? 0) / p.operations;
  const all = [...identities.entries()].map(([key, identity]) => {
    const [a, b] = sides.map((s) => {
      const procs = counted[s.id];
      if (!procs.length) return null;
      const side = sideOf(procs.map((p) => perOp(p, key)));
      const tiers = {};
      for (const p of procs) for (const [tier, n] of Object.entries(p.functions.get(key)?.tiers || {})) tiers[tier] = (tiers[tier] || 0) + n / p.operations / procs.length;
      return { ...side, share: totals[s.id] ? side.estimate / totals[s.id].estimate : null, tiers, seenIn: procs.filter((p) => p.functions.has(key)).length };
    });
    const only = a && b ? (a.seenIn === 0 ? 'b' : b.seenIn === 0 ? 'a' : null) : null;
    return { key, name: identity.name, location: identity.location, kind: identity.kind, a, b, only, change: changeOf(a, b) };
  });
  const bySize = (r) => Math.abs(r.change?.estimate ?? 0);
  const byShare = (r) => Math.max(r.a?.share ?? 0, r.b?.share ?? 0);
  const chosen = new Set([...[...all].sort((x, y) => bySize(y) - bySize(x)).slice(0, TOP), ...[...all].sort((x, y) => byShare(y) - byShare(x)).slice(0, TOP)]);
  const rows = [...chosen].sort((x, y) => bySize(y) - bySize(x) || byShare(y) - byShare(x));
  const rest = all.filter((r) => !chosen.has(r));
  const sumOf = (list, id) => list.reduce((sum, r) => sum + (r[id]?.estimate ?? 0), 0);
  const side = (id) => {
    const procs = counted[id];
    if (!procs.length) return null;
    // Per process: the functions' sum, the marks subtracted, against the cell's figure.
    const marks = procs.map((p) => (-p.markerInstructions * p.sampleBatches) / p.operations);
    const residuals = procs.map((p, i) => [...p.functions.values()].reduce((sum, f) => sum + f.instructions, 0) / p.operations + marks[i] - p.instructionsPerOp);
    return {
      other: { estimate: sumOf(rest, id), functions: rest.filter((r) => r[id]?.seenIn).length },
      marks: sideOf(marks),
      total: totals[id],
      residual: Math.max(...residuals.map(Math.abs)),
      // How far apart the side's processes were on the whole operation, in parts per million.
      agreementPpm: totals[id].estimate > 0 ? (totals[id].spread / totals[id].estimate) * 1e6 : null,
      unnamedJit: mean(procs.map((p) => p.unnamedJit / p.operations))
    };
  };
  const summed = Object.fromEntries(sides.map((s) => [s.id, side(s.id)]));
  return { rows, count: all.length, sides: summed, change: changeOf(totals.a, totals.b) };
}

const count = (n) => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: Math.abs(n) >= 1e5 ? 0 : 2 }) : 'n/a');
const signedCount = (n) => `${n >= 0 ? '+' : '-'}${count(Math.abs(n))}`;
// B - A as a percentage of A, two decimals: a 0.5% difference is the kind a count decides.
const relative = (c) => (c && Number.isFinite(c.relative) ? `${c.relative >= 0 ? '+' : '-'}${formatFraction(Math.abs(c.relative), 2)}` : '');
const nameOf = (row) => `${displayName(row.name)}${row.location ? ` (${row.location})` : ''}`;

function summarize(doc) {
  const [a, b] = [doc.sides.a, doc.sides.b];
  const f = doc.functions;
  const parts = [];
  const missing = [a, b].filter((s) => !s.counting.processes.some((p) => !p.error));
  if (missing.length) {
    parts.push(`${missing.map((s) => `${displayName(s.column)} was not counted (${s.counting.skipped || s.counting.processes.find((p) => p.error)?.error || 'no process'})`).join('; ')}, so nothing is compared.`);
    return parts.join(' ');
  }
  const [ta, tb] = [f.sides.a.total, f.sides.b.total];
  const change = f.change;
  const agreement = [a, b].map((s) => `${Math.round(f.sides[s.id].agreementPpm)} ppm over ${f.sides[s.id].total.n}`).join(' and ');
  parts.push(`An operation executed ${count(ta.estimate)} instructions on ${displayName(a.column)} and ${count(tb.estimate)} on ${displayName(b.column)} (B - A ${signedCount(change.estimate)}, ${relative(change)}; ${change.verdict === 'same' ? 'within the processes\' spread' : change.verdict}); the processes of each side agreed to ${agreement} processes.`);
  const called = f.rows.filter((r) => r.change && r.change.verdict !== 'same');
  if (called.length) {
    const inCalled = called.reduce((sum, r) => sum + r.change.estimate, 0);
    parts.push(`${signedCount(inCalled)} instructions/op of it are in the ${called.length === 1 ? 'one function' : `${called.length} functions`} whose difference exceeds its floor: ${called.slice(0, 4).map((r) => `${nameOf(r)} ${signedCount(r.change.estimate)} (${relative(r.change)})`).join(', ')}${called.length > 4 ? ', …' : ''}.`);
  } else parts.push('No function\'s difference exceeds the spread of its processes.');
  return parts.join(' ');
}

// What a count cannot see, and what this one did, in sentences every format shows.
function notesOf(doc) {
  const notes = [
    'Units are instructions counted by valgrind\'s callgrind, never time: system calls and waiting (the kernel\'s work, I/O, timers) are left out, and valgrind runs a process\'s threads one at a time (V8 started with --predictable), so concurrent work is counted as if serial.',
    'Both sides run with --perf-basic-prof where the runtime lists it (V8 then writes each code object\'s name to a file as it makes it), which can move the counts slightly from a cell counted without it; both sides alike.',
    'Interpreted JavaScript (V8\'s ~ tier) runs in V8\'s bytecode handlers and interpreter builtins, so its instructions are theirs, not its function\'s; a function V8 inlined counts in its caller. Tiers: ~ interpreted, ^ baseline (Sparkplug), + Maglev, * optimised (Turbofan); a trailing \' is V8\'s own mark.'
  ];
  const noMap = ['a', 'b'].filter((id) => doc.sides[id].counting.perfMap === false);
  if (noMap.length) notes.push(`${noMap.map((id) => `Node ${doc.sides[id].runtime.version}`).join(' and ')} lists no --perf-basic-prof, so its JIT code has no names: it is one row, "${UNNAMED_JIT}".`);
  return notes;
}

// inputs: resolveInputs' result; runs: runCountedProcesses' result; settings: { processes }.
export function countedDocument(inputs, runs, settings, { command, createdAt = new Date().toISOString() } = {}) {
  const sides = inputs.sides;
  const counted = Object.fromEntries(sides.map((s) => [s.id, runs[s.id].processes.filter((p) => p.counted).map((p) => p.counted)]));
  const recordedUnit = inputs.run?.measure === 'instructions' ? 'instructions/op' : 'ns/op';
  const doc = {
    kind: 'nodebench-explain',
    version: COUNTED_DOCUMENT_VERSION,
    measure: 'instructions',
    unit: MEASURES.instructions.unit,
    createdAt,
    command,
    source: inputs.source,
    benchmark: { suite: inputs.target.suite.name, name: inputs.target.benchmark, file: inputs.target.suite.file },
    settings: { measure: 'instructions', processes: settings.processes },
    sides: Object.fromEntries(sides.map((s) => [s.id, {
      id: s.id,
      column: s.column,
      runtime: { version: s.runtime.version, v8: s.runtime.v8, label: s.runtime.label },
      flags: s.flags,
      // The result file's figure for the column, in its own unit.
      recorded: s.timing ? { value: s.timing.nsPerOp, unit: recordedUnit } : null,
      counting: {
        skipped: runs[s.id].skipped,
        perfMap: runs[s.id].perfMap ? runs[s.id].perfMap.perfMap : null,
        processes: runs[s.id].processes.map((p) => (p.error ? { error: p.error } : {
          instructionsPerOp: p.counted.instructionsPerOp,
          operations: p.counted.operations,
          sampleBatches: p.counted.sampleBatches,
          markerInstructions: p.counted.markerInstructions,
          functions: p.counted.functions.size,
          perfMapEntries: p.counted.mapEntries,
          unnamedJitPerOp: p.counted.unnamedJit / p.counted.operations,
          selfResidual: p.counted.selfResidual
        }))
      }
    }])),
    method: METHOD
  };
  doc.functions = sides.every((s) => counted[s.id].length) ? functionRows(sides, counted) : { rows: [], count: 0, sides: { a: null, b: null }, change: null };
  doc.summary = summarize(doc);
  doc.notes = notesOf(doc);
  return doc;
}

export { count as formatInstructions, signedCount as formatSignedInstructions, relative as formatRelative };
export const shareText = (side) => (side && Number.isFinite(side.share) ? formatFraction(side.share, 2) : '');
