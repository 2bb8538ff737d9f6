// Service suites: one row per runtime x flag set x benchmark with the columns production teams read
// (req/s, p50/p90/p95/p99, errors, CPU, peak RSS).
import { textTable } from '../text/text-table.js';
import { terminalText } from '../text/escape.js';
import { columnKey } from '../cell-identity.js';
import { displayName } from '../text/format.js';

export function renderServiceTables(result) {
  const cells = result.cells.filter((c) => c.service || c.benchmarkType === 'service');
  if (!cells.length) return '';
  const header = ['benchmark', 'column', 'req/s', 'p50 ms', 'p90 ms', 'p95 ms', 'p99 ms', 'errors', 'CPU %', 'peak RSS'];
  const ms = (x) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
  const rows = cells.map((c) => {
    const s = c.service;
    if (!s) return [displayName(c.benchmark), displayName(columnKey(c)), c.status, '', '', '', '', '', '', ''];
    return [displayName(c.benchmark), displayName(columnKey(c)), s.throughput.toFixed(0), ms(s.latencyMs.p50), ms(s.latencyMs.p90), ms(s.latencyMs.p95), ms(s.latencyMs.p99),
      String(s.errors + s.non2xx), s.cpuPercent.toFixed(0), `${(s.peakRssBytes / 1048576).toFixed(0)}MB`];
  });
  const suites = [...new Set(cells.map((c) => displayName(c.suite)))].join(', ');
  return [`${terminalText(suites)} under load  (loopback, autocannon; latency percentiles of the measured window, CPU % of one core)`, ...textTable([header, ...rows], { rightFrom: 2 }), ''].join('\n');
}
