// Markdown tables (for a pull request or an issue): the same grid as the terminal table.
import { grid } from './columns.js';
import { formatRate, formatRatio, formatPct } from './format.js';
import { renderServiceTables } from './service-table.js';
import { renderMetricsTables } from './metrics-table.js';
import { valueMarks, folded, markNotes } from './table.js';

// The terminal table's marks (table.js): "!" optimized away, "=" same, "?" undecided.
function text(value, isBaseline, baseFolded) {
  if (value.status === 'absent') return '';
  if (value.status !== 'ok') return `${value.status}${value.error ? `: ${value.error.replace(/\|/g, '\\|')}` : ''}`;
  const marks = valueMarks(value, baseFolded);
  const rme = Number.isFinite(value.rme) ? ` ±${value.rme.toFixed(1)}%` : '';
  const ratioMargin = Number.isFinite(value.ratioRme) ? ` ±${formatPct(value.ratioRme)}` : '';
  return `${formatRate(value.opsPerSec)}${marks.rate}${rme}${isBaseline ? ' (base)' : value.ratio ? ` **${formatRatio(value.ratio)}**${marks.ratio}${ratioMargin}` : ''}`;
}

export function renderMarkdown(result, { baseline } = {}) {
  const out = [`Runtimes: ${result.runtimes.map((r) => `${r.label} (V8 ${r.v8})`).join(', ')}. Host: ${result.host.cpuModel}, ${result.host.cores} cores. ops/s ±95% margin, ratio to baseline.`, ''];
  for (const table of grid(result, { baseline })) {
    out.push(`### ${table.suite}`, '', `| benchmark | ${table.columns.map((c) => c.key).join(' | ')} |`, `|---|${table.columns.map(() => '---:').join('|')}|`);
    const baseIndex = table.columns.findIndex((c) => c.key === table.baseline.key);
    for (const row of table.rows) {
      const baseFolded = baseIndex >= 0 && folded(row.values[baseIndex]);
      out.push(`| ${row.benchmark} | ${row.values.map((v, i) => text(v, i === baseIndex, baseFolded)).join(' | ')} |`);
    }
    const notes = markNotes(table).map((line) => `${line.trim()}  `);
    out.push(...(notes.length ? ['', ...notes] : []), '');
  }
  // The service and metrics grids are aligned text: a fenced block keeps their columns on GitHub.
  const service = renderServiceTables(result);
  if (service) out.push('### Service latencies', '', '```', service.trimEnd(), '```', '');
  if (result.cells.some((c) => c.metrics)) out.push('### GC, CPU, event-loop delay and memory', '', '```', renderMetricsTables(result).trimEnd(), '```', '');
  return `${out.join('\n')}\n`;
}
