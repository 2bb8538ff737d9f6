import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTraceGc, gcSummary } from '../cli/runner/gc-trace.js';

// Real lines from Node 4.9.1, 6.17.1, 16.20.2, 24.21.0 and 26.10.0 (pids shortened).
const TRACE = `
[1:0x1]      100 ms: Scavenge 2.2 (38.0) -> 1.9 (38.0) MB, 0.8 / 0 ms [allocation failure].
[1:0x1]      251 ms: Mark-sweep 135.7 (163.4) -> 128.2 (157.1) MB, 8.1 / 0 ms (+ 38.1 ms in 106 steps since start of marking, biggest step 4.2 ms) [GC interrupt] [GC in old space requested].
[1:0x1] Increasing marking speed to 3 due to high promotion rate
[1:0x1]      300 ms: Scavenge 4.7 (5.0) -> 4.4 (6.0) MB, 1.1 / 0.0 ms  (average mu = 1.000, current mu = 1.000) allocation failure
[1:0x1]      400 ms: Mark-sweep 47.7 (79.8) -> 45.2 (78.4) MB, 6.4 / 0.0 ms  (+ 8.9 ms in 21 steps since start of marking, biggest step 5.3 ms, walltime since start of marking 44 ms) (average mu = 1.000, current mu = 1.000) finalize incremental marking via stack guard GC in old space requested
[1:0x1]      500 ms: Scavenge 4.8 (5.8) -> 4.6 (6.8) MB, pooled: 0 MB, 1.69 / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure;
[1:0x1]      600 ms: Mark-Compact 120.2 (183.9) -> 107.8 (236.7) MB, pooled: 0 MB, 21.63 / 0.00 ms  (+ 10.0 ms in 52 steps since start of marking, biggest step 6.6 ms) (average mu = 0.906)
[1:0x1]      700 ms: Incremental Mark-Compact 90.3 (105.4) -> 80.2 (95.2) MB, pooled: 0.0 MB, 3.71 / 0.00 ms (+ 1.1 ms in 27 steps since start of marking, biggest step 0.1 ms)
[1:0x1]      800 ms: Minor Mark-Sweep 4.8 (5.6) -> 4.6 (6.6) MB, pooled: 0.0 MB, 2.5 / 0.00 ms (average mu = 1.000) allocation failure;
[1:0x1]      900 ms: Scavenge 4.8 (5.6) -> 4.6 (6.6) MB, 9.0 / 0.00 ms
suite output that mentions Scavenge 1 MB, 5 / 0 ms but is not a trace line
`;

test('every runtime\'s --trace-gc format is parsed', () => {
  const events = parseTraceGc(TRACE);
  assert.deepEqual(events.map((e) => [e.atMs, e.kind, e.pauseMs, e.incrementalMs]), [
    [100, 'young', 0.8, 0], [251, 'full', 8.1, 38.1], [300, 'young', 1.1, 0], [400, 'full', 6.4, 8.9],
    [500, 'young', 1.69, 0], [600, 'full', 21.63, 10], [700, 'full', 3.71, 1.1], [800, 'young', 2.5, 0], [900, 'young', 9, 0]
  ]);
});

test('the summary counts only the window, and adds incremental marking to mark-compact time', () => {
  const s = gcSummary(parseTraceGc(TRACE), { startMs: 250, endMs: 850 });
  assert.equal(s.scavenges, 3);
  assert.equal(s.markCompacts, 4);
  assert.ok(Math.abs(s.scavengeMs - (1.1 + 1.69 + 2.5)) < 1e-9);
  assert.ok(Math.abs(s.markCompactMs - (8.1 + 38.1 + 6.4 + 8.9 + 21.63 + 10 + 3.71 + 1.1)) < 1e-9);
  assert.ok(Math.abs(s.gcShare - s.gcMs / 600) < 1e-12);
  assert.match(s.method, /--trace-gc/);
});
