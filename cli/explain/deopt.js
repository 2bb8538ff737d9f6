// Deoptimisations from V8's --trace-deopt output, and the benchmark function's optimisation status
// from %GetOptimizationStatus, in every format the supported runtimes print:
//   V8 4.5-6.x (Node 4-8):  [deoptimizing (DEOPT eager): begin 0x.. <JS Function name (SharedFunctionInfo 0x..)> (opt #8) @15, ...]
//                           then            ;;; deoptimize at 332: wrong map
//                           (Node 8:        ;;; deoptimize at </file.js:7:146>, Insufficient type feedback ...)
//   V8 9+ (Node 16+):       [bailout (kind: deopt-eager, reason: wrong map): begin. deoptimizing 0x.. <JSFunction name (sfi = 0x..)>, ...]
const BAILOUT = /\[bailout \(kind: ([\w-]+), reason: (.*?)\): begin\. deoptimizing \S+ <JS ?Function ([^\s(>]*)/;
const DEOPTIMIZING = /\[deoptimizing \(DEOPT (\w+)\): begin \S+ <JS ?Function ([^\s(>]*)/;
const REASON_LINE = /;;; deoptimize at (?:<[^>]*>(?:\s*inlined at\s*<[^>]*>)*|[^:,]*)[,:]\s*(.*)$/;

// Returns { total, byReason: [{ kind, reason, function, count }] } (most frequent first).
export function parseTraceDeopt(text) {
  const events = [];
  let pending = null;
  for (const line of String(text).split('\n')) {
    const bailout = BAILOUT.exec(line);
    if (bailout) {
      events.push({ kind: bailout[1].replace(/^deopt-/, ''), reason: bailout[2], function: bailout[3] || '(anonymous)' });
      pending = null;
      continue;
    }
    const old = DEOPTIMIZING.exec(line);
    if (old) {
      pending = { kind: old[1], reason: null, function: old[2] || '(anonymous)' };
      events.push(pending);
      continue;
    }
    const reason = pending && REASON_LINE.exec(line);
    if (reason) {
      pending.reason = reason[1].trim();
      pending = null;
    }
  }
  const counts = new Map();
  for (const e of events) {
    const reason = e.reason || (e.kind === 'lazy' ? 'lazy: code it depended on changed' : 'no reason printed');
    const key = `${e.kind}\u0000${reason}\u0000${e.function}`;
    const entry = counts.get(key) || { kind: e.kind, reason, function: e.function, count: 0 };
    entry.count++;
    counts.set(key, entry);
  }
  return { total: events.length, byReason: [...counts.values()].sort((a, b) => b.count - a.count || a.function.localeCompare(b.function)) };
}

// %GetOptimizationStatus: an enumeration up to V8 5.x (Node 4, 6), a bit field from V8 6 (Node 8)
// whose "optimized" bit (16) has kept its place; the other bits moved between releases, so only
// that one is read.
const OLD_STATUS = { 1: 'optimized', 2: 'not optimized', 3: 'always optimized (--always-opt)', 4: 'never optimized', 5: 'maybe deoptimized', 6: 'optimized (TurboFan)' };

export function describeOptimizationStatus(status, v8) {
  if (!Number.isInteger(status)) return null;
  const major = Number(String(v8).split('.')[0]);
  if (major < 6) return { optimized: status === 1 || status === 3 || status === 6, text: OLD_STATUS[status] || `status ${status}` };
  const optimized = (status & 16) !== 0;
  return { optimized, text: optimized ? 'optimized' : 'not optimized' };
}
