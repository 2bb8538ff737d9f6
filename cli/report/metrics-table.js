// Runtime metrics per cell (from the metrics process): GC share of wall time with scavenge and
// mark-compact counts, CPU per operation against wall, event-loop delay p99, peak RSS.
import { columnsOf } from './columns.js';

const mb = (bytes) => (Number.isFinite(bytes) ? `${(bytes / 1048576).toFixed(0)}MB` : 'n/a');

function metricsText(cell) {
  if (!cell) return '';
  if (cell.status !== 'ok') return cell.status === 'unsupported' ? 'n/s' : cell.status.toUpperCase();
  const m = cell.metrics;
  if (!m) return 'n/a';
  if (m.error) return 'metrics failed';
  const gc = m.gc;
  const share = gc && Number.isFinite(gc.gcShare) ? `gc ${(gc.gcShare * 100).toFixed(1)}% (${gc.scavenges}s/${gc.markCompacts}mc)` : 'gc n/a';
  const delay = Number.isFinite(m.eventLoopDelay?.p99Ms) ? ` eld99 ${m.eventLoopDelay.p99Ms.toFixed(1)}ms` : '';
  const cpu = Number.isFinite(m.cpuNsPerOp) && Number.isFinite(m.wallNsPerOp) ? ` cpu ${Math.round((m.cpuNsPerOp / m.wallNsPerOp) * 100)}%` : '';
  return `${share}${cpu}${delay} rss ${mb(m.memory?.peakRssBytes)}`;
}

export function renderMetricsTables(result, { suites } = {}) {
  const columns = columnsOf(result);
  const out = [];
  const names = [...new Set(result.cells.map((c) => c.suite))].filter((s) => !suites || suites.includes(s));
  for (const suite of names) {
    const cells = result.cells.filter((c) => c.suite === suite);
    if (!cells.some((c) => c.metrics)) continue;
    const benchmarks = [...new Set(cells.map((c) => c.benchmark))];
    const header = ['benchmark', ...columns.map((c) => c.key)];
    const rows = benchmarks.map((b) => [b, ...columns.map((col) => metricsText(cells.find((c) => c.benchmark === b && c.runtimeLabel === col.runtimeLabel && c.flagSet === col.flagSet)))]);
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    out.push(`${suite} metrics  (main-thread GC share of wall time (scavenges/mark-compacts), CPU/wall, event-loop delay p99, peak RSS)`);
    out.push(header.map((h, i) => h.padEnd(widths[i])).join('  ').trimEnd());
    out.push(widths.map((w) => '-'.repeat(w)).join('  '));
    for (const row of rows) out.push(row.map((t, i) => t.padEnd(widths[i])).join('  ').trimEnd());
    out.push('');
  }
  return out.join('\n');
}

