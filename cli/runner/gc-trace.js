// GC figures from V8's --trace-gc lines, the one GC source every runtime has (Node 4 to current;
// perf_hooks GC entries need Node 8.5 and leave incremental marking out). Formats seen:
//   4.9.1:  [pid:0x..]   39 ms: Scavenge 2.2 (37.1) -> 1.9 (38.1) MB, 0.7 / 0 ms [allocation failure].
//   4.9.1:  ... ms: Mark-sweep 135.7 (163.4) -> 128.2 (157.1) MB, 8.1 / 0 ms (+ 38.1 ms in 106 steps since start of marking, ...
//   16.x:   ... ms: Scavenge 4.7 (5.0) -> 4.4 (6.0) MB, 1.1 / 0.0 ms  (average mu = 1.000, ...) allocation failure
//   24.x:   ... ms: Mark-Compact 120.2 (183.9) -> 107.8 (236.7) MB, pooled: 0 MB, 21.63 / 0.00 ms  (+ 10.0 ms in 52 steps ...
//   26.x:   ... ms: Incremental Mark-Compact ... / Minor Mark-Sweep ...
// Pauses are main-thread time; marking done concurrently on helper threads is not in them, which is
// exactly what makes --no-concurrent-marking visible as a larger main-thread GC share.
const LINE = /\]\s+(\d+(?:\.\d+)?) ms: (Scavenge|Minor Mark-Sweep|(?:Incremental )?Mark-sweep|(?:Incremental )?Mark-Compact|(?:Incremental )?Mark-compact)\b[^,]*MB, (?:pooled: [\d.]+ MB, )?([\d.]+) \/ [\d.]+ ms(?:\s+\(\+ ([\d.]+) ms in (\d+) steps)?/;

export function parseTraceGc(text) {
  const events = [];
  for (const line of String(text).split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const young = m[2] === 'Scavenge' || m[2] === 'Minor Mark-Sweep';
    events.push({
      atMs: Number(m[1]),
      kind: young ? 'young' : 'full',
      name: m[2],
      pauseMs: Number(m[3]),
      incrementalMs: m[4] ? Number(m[4]) : 0,
      incrementalSteps: m[5] ? Number(m[5]) : 0
    });
  }
  return events;
}

// Figures for the events inside the window [startMs, endMs] (V8's clock starts when the isolate is
// created, a few ms after the process clock that the window is measured on; the difference is small
// against a window of a second, and stated in the method).
export function gcSummary(events, { startMs, endMs }) {
  const inWindow = events.filter((e) => e.atMs >= startMs && e.atMs <= endMs);
  const young = inWindow.filter((e) => e.kind === 'young');
  const full = inWindow.filter((e) => e.kind === 'full');
  const total = (list, field) => list.reduce((a, e) => a + e[field], 0);
  const windowMs = endMs - startMs;
  const youngMs = total(young, 'pauseMs');
  const fullMs = total(full, 'pauseMs') + total(full, 'incrementalMs');
  return {
    method: '--trace-gc in a separate metrics process; main-thread pauses plus incremental marking steps, within the sampling window (V8 clock vs process clock differ by a few ms)',
    windowMs,
    scavenges: young.length,
    scavengeMs: youngMs,
    markCompacts: full.length,
    markCompactMs: fullMs,
    incrementalMarkingMs: total(full, 'incrementalMs'),
    gcMs: youngMs + fullMs,
    gcShare: windowMs > 0 ? (youngMs + fullMs) / windowMs : null
  };
}
