// Markdown tables (for a pull request or an issue): the same grid as the terminal table.
import { grid } from './columns.js';
import { formatRate, formatRatio, formatPct } from '../text/format.js';
import { renderServiceTables } from './service-table.js';
import { renderMetricsTables } from './metrics-table.js';
import { suiteFormLabel } from './notes.js';
import { markdownText, markdownFence, markdownTable } from '../text/escape.js';
import { valueMarks, folded, markNotes } from './table.js';

// The terminal table's marks (table.js): "!" optimized away, "=" same, "?" undecided.
function text(value, isBaseline, baseFolded) {
  if (value.status === 'absent') return '';
  if (value.status !== 'ok') return `${value.status}${value.error ? `: ${value.error}` : ''}`;
  const marks = valueMarks(value, baseFolded);
  const rme = Number.isFinite(value.rme) ? ` ±${value.rme.toFixed(1)}%` : '';
  const ratioMargin = Number.isFinite(value.ratioRme) ? ` ±${formatPct(value.ratioRme)}` : '';
  return `${formatRate(value.opsPerSec)}${marks.rate}${rme}${isBaseline ? ' (base)' : value.ratio ? ` **${formatRatio(value.ratio)}**${marks.ratio}${ratioMargin}` : ''}`;
}

export function renderMarkdown(result, { baseline } = {}) {
  const out = [markdownText(`Runtimes: ${result.runtimes.map((r) => `${r.label} (V8 ${r.v8})`).join(', ')}. Host: ${result.host.cpuModel}, ${result.host.cores} cores. ops/s ±95% margin, ratio to baseline.`), ''];
  for (const table of grid(result, { baseline })) {
    const form = suiteFormLabel(result, table.suite);
    const baseIndex = table.columns.findIndex((c) => c.key === table.baseline.key);
    const rows = table.rows.map((row) => {
      const baseFolded = baseIndex >= 0 && folded(row.values[baseIndex]);
      return [row.benchmark, ...row.values.map((v, i) => text(v, i === baseIndex, baseFolded))];
    });
    out.push(`### ${markdownText(table.suite)}${form ? ` ${markdownText(form)}` : ''}`, '', ...markdownTable(['benchmark', ...table.columns.map((c) => c.key)], rows, { align: ['---', ...table.columns.map(() => '---:')] }));
    const notes = markNotes(table).map((line) => `${markdownText(line.trim())}  `);
    out.push(...(notes.length ? ['', ...notes] : []), '');
  }
  // The service and metrics grids are aligned text: a fenced block keeps their columns on GitHub.
  const service = renderServiceTables(result);
  if (service) out.push('### Service latencies', '', ...markdownFence(service.trimEnd()), '');
  if (result.cells.some((c) => c.metrics)) out.push('### GC, CPU, event-loop delay and memory', '', ...markdownFence(renderMetricsTables(result).trimEnd()), '');
  return `${out.join('\n')}\n`;
}
