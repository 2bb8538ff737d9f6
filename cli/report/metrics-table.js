// Runtime metrics per cell (from its separate metrics processes), one row per runtime x flag set x
// benchmark: main-thread GC share of wall time, scavenge and mark-compact time per second of wall
// time, CPU against wall time, event-loop delay p99 and peak RSS; each the mean over the cell's
// metrics processes with its 95% interval in brackets when there are two or more
// (cli/stats/metrics.js).
import { textTable } from '../text/text-table.js';
import { formatFraction } from '../text/format.js';
import { summarizeMetricRuns } from '../stats/metrics.js';
import { terminalText } from '../text/escape.js';
import { cellsBySuite } from '../results/grid.js';
import { columnKey } from '../cell-identity.js';
import { displayName } from '../text/format.js';

const num = (x) => (Number.isFinite(x) ? (Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(1)) : 'n/a');
const mb = (x) => (Number.isFinite(x) ? `${(x / 1048576).toFixed(0)}MB` : 'n/a');

// "12.3% [11.0–13.7]" from a metric's interval, or the value alone from one process.
function withInterval(interval, format) {
  if (!interval) return 'n/a';
  const value = format(interval.estimate);
  return interval.low === null ? value : `${value} [${format(interval.low)}–${format(interval.high)}]`;
}

const COLUMNS = [
  ['GC share', 'gc-share', formatFraction],
  ['scavenge ms/s', 'scavenge-ms', num],
  ['mark-compact ms/s', 'mark-compact-ms', num],
  ['CPU/wall', 'cpu-wall', formatFraction],
  ['loop delay p99 ms', 'loop-delay-p99', num],
  ['peak RSS', 'peak-rss', mb]
];

function row(cell) {
  const key = [displayName(cell.benchmark), displayName(columnKey(cell))];
  const blank = COLUMNS.slice(1).map(() => '');
  if (cell.status !== 'ok') return [...key, cell.status === 'unsupported' ? 'n/s' : cell.status.toUpperCase(), ...blank];
  const m = cell.metrics;
  if (!m || m.error) return [...key, m ? 'metrics failed' : 'n/a', ...blank];
  // A file from before intervals were kept has one process's figures: its values alone.
  const intervals = m.intervals || summarizeMetricRuns([m]).intervals;
  return [...key, ...COLUMNS.map(([, id, format]) => (intervals[id] ? withInterval(intervals[id], format) : 'n/a'))];
}

export function renderMetricsTables(result, { suites } = {}) {
  const out = [];
  const header = ['benchmark', 'column', ...COLUMNS.map(([label]) => label)];
  for (const [suite, cells] of cellsBySuite(result.cells)) {
    if (suites && !suites.includes(suite)) continue;
    if (!cells.some((c) => c.metrics)) continue;
    const rows = cells.filter((c) => c.status !== 'unsupported').map(row);
    const windowMs = result.suites?.find((s) => s.name === suite)?.sampler?.metricsMs ?? result.run?.metricsMs ?? 1000;
    const processes = Math.max(...cells.map((c) => c.metrics?.processes?.length ?? (c.metrics ? 1 : 0)));
    out.push(`${terminalText(displayName(suite))} metrics  (${processes > 1 ? `up to ${processes} metrics processes per cell, mean [95% interval]` : 'one metrics process per cell'}, with --trace-gc: main-thread GC time within a ${windowMs} ms window; mark-compact time includes incremental marking)`);
    out.push(...textTable([header, ...rows], { rightFrom: 2 }), '');
  }
  return out.join('\n');
}
