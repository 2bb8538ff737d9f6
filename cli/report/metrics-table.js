// Runtime metrics per cell (from the separate metrics process), one row per runtime x flag set x
// benchmark: main-thread GC share of wall time with scavenge and mark-compact counts and times,
// CPU against wall time, event-loop delay p99 and peak RSS.
import { textTable } from './text-table.js';
import { terminalText } from './escape.js';
import { cellsBySuite } from './columns.js';

const pct = (x) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : 'n/a');
const ms = (x) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');

function row(cell) {
  const key = [cell.benchmark, `${cell.runtimeLabel}/${cell.flagSet}`];
  if (cell.status !== 'ok') return [...key, cell.status === 'unsupported' ? 'n/s' : cell.status.toUpperCase(), '', '', '', '', '', ''];
  const m = cell.metrics;
  if (!m || m.error) return [...key, m ? 'metrics failed' : 'n/a', '', '', '', '', '', ''];
  const gc = m.gc || {};
  const cpu = Number.isFinite(m.cpuNsPerOp) && Number.isFinite(m.wallNsPerOp) ? `${Math.round((m.cpuNsPerOp / m.wallNsPerOp) * 100)}%` : 'n/a';
  const rss = Number.isFinite(m.memory?.peakRssBytes) ? `${(m.memory.peakRssBytes / 1048576).toFixed(0)}MB` : 'n/a';
  return [...key, pct(gc.gcShare), `${gc.scavenges} / ${ms(gc.scavengeMs)}`, `${gc.markCompacts} / ${ms(gc.markCompactMs)}`, cpu,
    Number.isFinite(m.eventLoopDelay?.p99Ms) ? ms(m.eventLoopDelay.p99Ms) : 'n/a', rss];
}

export function renderMetricsTables(result, { suites } = {}) {
  const out = [];
  const header = ['benchmark', 'column', 'GC share', 'scavenges / ms', 'mark-compacts / ms', 'CPU/wall', 'loop delay p99 ms', 'peak RSS'];
  for (const [suite, cells] of cellsBySuite(result.cells)) {
    if (suites && !suites.includes(suite)) continue;
    if (!cells.some((c) => c.metrics)) continue;
    const rows = cells.filter((c) => c.status !== 'unsupported').map(row);
    const windowMs = result.suites?.find((s) => s.name === suite)?.sampler?.metricsMs ?? result.run?.metricsMs ?? 1000;
    out.push(`${terminalText(suite)} metrics  (one metrics process per cell with --trace-gc: main-thread GC time within a ${windowMs} ms window; mark-compact time includes incremental marking)`);
    out.push(...textTable([header, ...rows], { rightFrom: 2 }), '');
  }
  return out.join('\n');
}
