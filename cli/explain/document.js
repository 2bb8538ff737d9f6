// The explanation of one comparison as ONE document, computed once; every format (terminal.js,
// markdown.js, html.js, json.js) only shows it. From what runExplainProcesses measured:
//   functions  self time per operation per function, side by side, with intervals over processes
//              and the change, called only at a 5% false discovery rate (stats.js)
//   gc         main-thread GC time per operation by kind, from the --trace-gc metrics processes
//   optimization  the benchmark function's status and the deoptimisations by reason
//   flags      V8 flags whose defaults differ between the runtimes (GC, compiler, memory) and the
//              flags each side sets
//   summary    one paragraph, only as far as those numbers carry it
import path from 'node:path';
import { selfSamples, perOperation } from './profile.js';
import { sideInterval, difference, judgeChanges } from './stats.js';
import { diffFlags, flagGroup, formatDefault } from '../flags/diff.js';
import { findFlag } from '../flags/parse.js';
import { okRuns } from '../stats/metrics.js';
import { MAIN_GC_FLAGS } from '../matrix/plan.js';
import { formatDuration, formatPct, displayName } from '../text/format.js';

export const DOCUMENT_VERSION = 1;
// Functions shown: those with at least this share of either side's samples, the largest first.
const MIN_SHARE = 0.005;
const MAX_FUNCTIONS = 40;
const MAX_FLAGS = 30;

// An interval as the document keeps it (without the variance the comparisons used).
const strip = (s) => s && { estimate: s.estimate, low: s.low, high: s.high, n: s.n };

const METHOD = {
  functions: 'self time = samples whose top frame is the function, in the sampling window of each profiled process, over all samples of that window, times the CPU ns/op that process measured in it (process CPU time, so the profiler\'s own sampling thread is in it, alike on both sides); intervals are 95% t-intervals over processes (a function\'s per-process variance is at least its Poisson sampling variance); a change is called only at a 5% false discovery rate over the functions shown (Benjamini-Hochberg), so never when its interval holds 0',
  gc: '--trace-gc in separate metrics processes: main-thread pauses as V8 times them (wall clock) (scavenge; mark-compact with its incremental marking steps), divided by the operations of the window',
  optimization: 'one process per side with --trace-deopt and --allow-natives-syntax: deoptimisations over the whole process (warm-up included) and %GetOptimizationStatus of the benchmark function at the end'
};

const PROFILED_VIA = {
  'inspector-module': 'the inspector\'s Profiler, started inside the worker process (require("inspector"))',
  'inspect-port': 'the inspector\'s Profiler, driven by nodebench over the worker\'s --inspect port on 127.0.0.1 (this runtime has no inspector module); only the samples up to the window\'s end are kept'
};

// What one operation cost the process: its CPU time where the runtime reports it (every runtime
// that can profile does), which a machine busy with other work inflates far less than wall time.
const scaleOf = (report) => (report.cpuNsPerOp > 0 ? report.cpuNsPerOp : report.wallNsPerOp);

function functionRows(sides, runs, suiteDir) {
  // Per side: each profiled process as { nsPerSample, functions }.
  const perProcess = {};
  const totals = {};
  for (const side of sides) {
    const ok = runs[side.id].profiles.filter((p) => !p.error);
    perProcess[side.id] = ok.map((p) => perOperation(selfSamples(p.profile, { windowUs: p.report.sampleMs * 1000, windowEndUs: p.windowEndUs, suiteDir }), scaleOf(p.report)));
    totals[side.id] = sideInterval(ok.map((p) => scaleOf(p.report)));
  }
  const identities = new Map();
  for (const side of sides) for (const proc of perProcess[side.id]) for (const [key, f] of proc.functions) identities.set(key, f.identity);
  const sideOf = (id, key) => {
    const procs = perProcess[id];
    if (!procs.length) return null;
    const values = procs.map((p) => p.functions.get(key)?.nsPerOp ?? 0);
    const poisson = procs.map((p) => ((p.functions.get(key)?.samples ?? 0) + 1) * p.nsPerSample ** 2);
    const interval = sideInterval(values, poisson.reduce((a, b) => a + b, 0) / procs.length);
    return { ...interval, share: totals[id] ? interval.estimate / totals[id].estimate : null, seenIn: procs.filter((p) => p.functions.has(key)).length };
  };
  const candidates = [...identities.keys()].map((key) => {
    const a = sideOf('a', key);
    const b = sideOf('b', key);
    return { key, a, b, weight: Math.max(a?.share ?? 0, b?.share ?? 0) };
  }).filter((r) => r.weight >= MIN_SHARE).sort((x, y) => y.weight - x.weight).slice(0, MAX_FUNCTIONS);
  const judged = judgeChanges(candidates.map((r) => difference(r.a, r.b)));
  const rows = candidates.map((r, i) => {
    const identity = identities.get(r.key);
    const only = r.a && r.b ? (r.a.seenIn === 0 ? 'b' : r.b.seenIn === 0 ? 'a' : null) : null;
    const shown = (s) => s && { ...strip(s), share: s.share, seenIn: s.seenIn };
    return { name: identity.name, location: identity.location, kind: identity.kind, a: shown(r.a), b: shown(r.b), only, change: judged[i] && { estimate: judged[i].estimate, low: judged[i].low, high: judged[i].high, p: judged[i].p, q: judged[i].q, verdict: judged[i].verdict } };
  });
  // Sorted by the size of the change where there is one, else by the larger side.
  const size = (r) => (r.change ? Math.abs(r.change.estimate) : Math.max(r.a?.estimate ?? 0, r.b?.estimate ?? 0));
  rows.sort((x, y) => size(y) - size(x));
  return { rows, totals: { a: totals.a ? { ...totals.a, varianceOfMean: undefined } : null, b: totals.b ? { ...totals.b, varianceOfMean: undefined } : null, change: difference(totals.a, totals.b) } };
}

// unit 'ns': main-thread pause time per operation; 'per1000': events per 1000 operations (a count,
// which a busy machine does not lengthen the way it lengthens pauses).
const GC_KINDS = [
  { id: 'scavenge', label: 'scavenge pauses', unit: 'ns', of: (g) => g.scavengeMs * 1e6 },
  { id: 'mark-compact', label: 'mark-compact pauses', unit: 'ns', of: (g) => (g.markCompactMs - g.incrementalMarkingMs) * 1e6 },
  { id: 'incremental-marking', label: 'incremental marking steps', unit: 'ns', of: (g) => g.incrementalMarkingMs * 1e6 },
  { id: 'total', label: 'all main-thread GC', unit: 'ns', of: (g) => g.gcMs * 1e6 },
  { id: 'scavenges', label: 'scavenges', unit: 'per1000', of: (g) => g.scavenges * 1000 },
  { id: 'mark-compacts', label: 'mark-compacts', unit: 'per1000', of: (g) => g.markCompacts * 1000 }
];

function gcRows(sides, runs) {
  const usable = (id) => okRuns(runs[id].metrics).filter((m) => m.gc && m.operations > 0);
  const errors = Object.fromEntries(sides.map((s) => [s.id, runs[s.id].metrics.filter((m) => m?.error).map((m) => m.error)]));
  const measured = GC_KINDS.map((kind) => {
    const [a, b] = ['a', 'b'].map((id) => sideInterval(usable(id).map((m) => kind.of(m.gc) / m.operations)));
    return { kind: kind.id, label: kind.label, unit: kind.unit, a, b, change: difference(a, b) };
  });
  const judged = judgeChanges(measured.map((r) => r.change));
  const rows = measured.map((r, i) => ({ ...r, a: strip(r.a), b: strip(r.b), change: judged[i] }));
  return { rows, processes: Object.fromEntries(sides.map((s) => [s.id, usable(s.id).length])), errors };
}

function optimization(sides, runs) {
  return Object.fromEntries(sides.map((s) => {
    const o = runs[s.id].optimization;
    if (!o || o.error) return [s.id, { error: o?.error || runs[s.id].skipped || 'not run' }];
    return [s.id, { status: o.status, optimized: o.described?.optimized ?? null, text: o.described?.text ?? 'unknown (no %GetOptimizationStatus)', deopts: o.deopts.total, byReason: o.deopts.byReason.slice(0, 10), deoptsPer1000Ops: o.operations > 0 ? (o.deopts.total / o.operations) * 1000 : null }];
  }));
}

// listings: { a, b } V8 flag listings (flags/index.js runtimeFlags), or null where not available.
function flagsSection(sides, listings) {
  const set = Object.fromEntries(sides.map((s) => [s.id, s.flags.map((written) => {
    const flag = listings[s.id] && findFlag(listings[s.id].flags, written);
    const other = sides.find((o) => o.id !== s.id);
    const otherFlag = listings[other.id] && findFlag(listings[other.id].flags, written);
    return { written, default: flag ? formatDefault(flag.default) : null, otherDefault: otherFlag ? formatDefault(otherFlag.default) : null };
  })]));
  if (sides[0].runtime.version === sides[1].runtime.version) return { sameRuntime: true, set, changed: [], more: 0 };
  if (!listings.a || !listings.b) return { sameRuntime: false, set, changed: null, more: 0, note: 'a runtime did not list its V8 flags' };
  const diff = diffFlags(listings.a.flags, listings.b.flags);
  // A main GC flag one runtime lacks (concurrent marking before Node 10) is a difference in what
  // its GC does: shown as absent on that side. Other added or removed flags are left to flags diff.
  const main = (f) => MAIN_GC_FLAGS.includes(f.name);
  const relevant = [
    ...diff.changed.filter((f) => flagGroup(f.name) !== 'other').map((f) => ({ name: f.name, a: formatDefault(f.before), b: formatDefault(f.after), description: f.description })),
    ...diff.added.filter(main).map((f) => ({ name: f.name, a: 'absent', b: formatDefault(f.default), description: f.description })),
    ...diff.removed.filter(main).map((f) => ({ name: f.name, a: formatDefault(f.default), b: 'absent', description: f.description }))
  ];
  return {
    sameRuntime: false,
    set,
    changed: relevant.slice(0, MAX_FLAGS).map((f) => ({ ...f, group: flagGroup(f.name) })),
    more: Math.max(0, relevant.length - MAX_FLAGS)
  };
}

const signed = (ns) => `${ns >= 0 ? '+' : '-'}${formatDuration(Math.abs(ns))}`;
const nameOf = (row) => `${displayName(row.name)}${row.location && row.kind !== 'harness' ? ` (${row.location})` : ''}${row.only ? ` (only on ${row.only.toUpperCase()})` : ''}`;

// How many more processes a side would need to narrow its intervals about twofold (an interval
// narrows with the square root of the processes behind it).
const moreProcesses = (n, option) => `${option} ${Math.max(4 * Math.max(n, 1), 8)} would narrow the intervals about twofold`;

// What the profile's names mean to someone who does not read V8's source (issue 39, item 6):
// functions of V8's own JavaScript library, and "(program)".
const PROGRAM_SHARE = 0.25;
const NATIVES_SHARE = 0.1;
function plainWords(doc) {
  const words = [];
  const sideName = (id) => displayName(doc.sides[id].column);
  // What the names mean does not wait for a verdict: a side that spends a tenth of its time in
  // them is told, whether or not the change is clear of noise yet.
  const natives = doc.functions.rows.filter((r) => r.kind === 'runtime' && /^V8's /.test(r.location || ''));
  const nativeShare = (id) => natives.reduce((sum, r) => sum + (r[id]?.share || 0), 0);
  const inNatives = ['a', 'b'].filter((id) => nativeShare(id) >= NATIVES_SHARE);
  if (inNatives.length) {
    const where = inNatives.map((id) => `${formatPct(nativeShare(id) * 100)} of the time on ${sideName(id)}`).join(', ');
    words.push(`In plain words: functions "(V8's ….js)" are V8's own library written in JavaScript, as older V8 had it (promises and array methods in Node 6 and before; here ${where}); newer V8 runs the same work as built-ins compiled into the binary, which a profile shows as "(program)". The change is in the runtime's implementation of a language feature, not in the benchmark's code.`);
  }
  const program = doc.functions.rows.find((r) => r.name === '(program)');
  const heavy = program ? ['a', 'b'].filter((id) => program[id]?.share >= PROGRAM_SHARE) : [];
  if (heavy.length) {
    words.push(`"(program)" (${heavy.map((id) => `${formatPct(program[id].share * 100)} on ${sideName(id)}`).join(', ')}) is native code the profiler cannot tie to a JavaScript function: V8's built-ins (promises, JSON, array and string methods on newer runtimes), its compiler and its runtime, and Node's C++; a large share means the time is spent inside the runtime on behalf of the benchmark, so it moves with the runtime's version more than with the benchmark's code.`);
  }
  return words;
}

// One paragraph: the change the profiled processes measured, the functions whose change is called,
// and what they add up to; GC and deoptimisations when they moved; nothing the numbers do not carry.
function summarize(doc) {
  const [a, b] = [doc.sides.a, doc.sides.b];
  const parts = [];
  const unavailable = [a, b].filter((s) => s.profiling.unavailable);
  if (unavailable.length === 2) parts.push(`Neither side could be profiled (${unavailable.map((s) => `${displayName(s.column)}: ${s.profiling.unavailable}`).join('; ')}).`);
  else if (unavailable.length === 1) {
    const other = unavailable[0] === a ? b : a;
    const [ca, cb] = [a.cpuNsPerOp, b.cpuNsPerOp];
    if (ca && cb) parts.push(`Unprofiled, in the metrics processes, an operation cost ${formatDuration(ca.estimate)} of CPU time on ${displayName(a.column)} and ${formatDuration(cb.estimate)} on ${displayName(b.column)} (B/A ${(cb.estimate / ca.estimate).toPrecision(3)}).`);
    const top = doc.functions.rows.filter((r) => r[other.id]?.estimate > 0).sort((x, y) => y[other.id].estimate - x[other.id].estimate).slice(0, 3);
    parts.push(`Only ${displayName(other.column)} could be profiled (${displayName(unavailable[0].column)}: ${unavailable[0].profiling.unavailable}), so no change is split by function; on ${displayName(other.column)} the most self time per operation is in ${top.map((r) => `${nameOf(r)} (${formatDuration(r[other.id].estimate)}, ${(r[other.id].share * 100).toFixed(0)}%)`).join(', ') || 'nothing measured'}.`);
  } else {
    const total = doc.functions.totals.change;
    const called = doc.functions.rows.filter((r) => r.change && r.change.verdict !== 'undecided');
    if (total) {
      const decidedTotal = total.low > 0 || total.high < 0;
      parts.push(`Under the profiler an operation cost ${formatDuration(doc.functions.totals.a.estimate)} of CPU time on ${displayName(a.column)} and ${formatDuration(doc.functions.totals.b.estimate)} on ${displayName(b.column)} (${signed(total.estimate)}, 95% interval ${signed(total.low)} .. ${signed(total.high)}${decidedTotal ? '' : ': no clear change'}).`);
    }
    if (called.length) {
      const inCalled = called.reduce((s, r) => s + r.change.estimate, 0);
      const named = called.slice(0, 4).map((r) => `${nameOf(r)} (${signed(r.change.estimate)})`).join(', ');
      parts.push(`${signed(inCalled)}/op of it is in the ${called.length === 1 ? 'one function' : `${called.length} functions`} whose change is clear of noise over ${doc.settings.processes} processes per side: ${named}${called.length > 4 ? ', …' : ''}.`);
    } else {
      const n = Math.min(doc.functions.rows[0]?.a?.n ?? 0, doc.functions.rows[0]?.b?.n ?? 0) || doc.settings.processes;
      parts.push(`No function's change is clear of noise over ${n} process${n === 1 ? '' : 'es'} per side: more would tell (${moreProcesses(n, '--processes')}).`);
    }
    parts.push(...plainWords(doc));
  }
  const gcTotal = doc.gc.rows.find((r) => r.kind === 'total');
  const scavenges = doc.gc.rows.find((r) => r.kind === 'scavenges');
  const gcProcesses = Math.min(doc.gc.processes.a, doc.gc.processes.b);
  const called = (row, words) => (row.change && row.change.verdict !== 'undecided' ? words[row.change.estimate > 0 ? 0 : 1] : `no clear change over ${doc.gc.processes.a} and ${doc.gc.processes.b} metrics processes; ${moreProcesses(gcProcesses, '--metrics-processes')}`);
  if (gcTotal?.a && gcTotal?.b && (gcTotal.a.estimate > 0 || gcTotal.b.estimate > 0)) {
    parts.push(`Main-thread GC: ${scavenges.a.estimate.toPrecision(3)} scavenges per 1000 operations on ${displayName(a.column)} and ${scavenges.b.estimate.toPrecision(3)} on ${displayName(b.column)} (${called(scavenges, ['more', 'fewer'])}); pauses of ${formatDuration(gcTotal.a.estimate)} and ${formatDuration(gcTotal.b.estimate)} per operation (wall clock, which a busy machine lengthens; ${called(gcTotal, ['longer', 'shorter'])}).`);
  }
  // One deopt-traced process per side cannot carry a claim about optimisation: the table shows it.
  return parts.join(' ');
}

// inputs: resolveInputs' result; runs: runExplainProcesses' result; settings: what was run;
// listings: { a, b } V8 flag listings or nulls.
export function explainDocument(inputs, runs, settings, listings, { command, createdAt = new Date().toISOString() } = {}) {
  const suiteDir = path.dirname(inputs.target.suite.file);
  const sides = inputs.sides;
  const doc = {
    kind: 'nodebench-explain',
    version: DOCUMENT_VERSION,
    createdAt,
    command,
    source: inputs.source,
    benchmark: { suite: inputs.target.suite.name, name: inputs.target.benchmark, file: inputs.target.suite.file },
    settings: { processes: settings.processes, metricsProcesses: settings.metricsProcesses, windowMs: settings.windowMs, intervalUs: settings.intervalUs, profileDir: settings.profileDir },
    sides: Object.fromEntries(sides.map((s) => {
      const r = runs[s.id];
      return [s.id, {
        id: s.id,
        column: s.column,
        runtime: { version: s.runtime.version, v8: s.runtime.v8, label: s.runtime.label },
        flags: s.flags,
        timing: s.timing,
        // Without the profiler: CPU time per operation in the metrics processes (every runtime).
        cpuNsPerOp: strip(sideInterval(okRuns(r.metrics).map((m) => m.cpuNsPerOp).filter((v) => v > 0))),
        profiling: {
          unavailable: r.unavailable,
          via: r.unavailable ? null : r.via,
          method: r.unavailable ? null : `${PROFILED_VIA[r.via]} (a sample every ${settings.intervalUs} µs)`,
          processes: r.profiles.map((p) => (p.error ? { error: p.error } : { file: p.file, operations: p.report.operations, sampleMs: p.report.sampleMs, wallNsPerOp: p.report.wallNsPerOp, cpuNsPerOp: p.report.cpuNsPerOp }))
        }
      }];
    })),
    method: METHOD
  };
  doc.functions = functionRows(sides, runs, suiteDir);
  doc.gc = gcRows(sides, runs);
  doc.optimization = optimization(sides, runs);
  doc.flags = flagsSection(sides, listings);
  doc.summary = summarize(doc);
  return doc;
}
