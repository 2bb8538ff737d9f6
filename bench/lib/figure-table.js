// Text rendering of the harness's figures: a table of targets, how each figure was measured, and a
// per-tool detail table.
import { textTable } from '../../cli/text/text-table.js';
import { pct } from './targets.js';

// ns -> "999 ns", "1.00 µs", "10.1 µs" (three significant digits, no exponent at unit boundaries).
export function formatNs(ns) {
  if (!Number.isFinite(ns)) return 'n/a';
  const units = [[1e9, 's'], [1e6, 'ms'], [1e3, 'µs'], [1, 'ns']];
  for (const [size, unit] of units) {
    const value = ns / size;
    // The larger unit is tried first, so 999.96 µs prints as 1.00 ms, never as 1.00e+3 µs.
    if (Number(value.toPrecision(3)) >= 1 || size === 1) return `${value.toPrecision(3)} ${unit}`;
  }
  return 'n/a';
}

export function grid(header, rows) {
  return textTable([header, ...rows].map((r) => r.map(String))).join('\n');
}

export function renderFigures(rows) {
  return grid(['figure', 'value', 'target', 'verdict'], rows.map((r) => [r.figure, r.value, r.target, r.verdict]));
}

export function renderMethods(rows) {
  return rows.map((r) => `- ${r.figure}: ${r.how}`).join('\n');
}

export function renderTools(byFunction, node4) {
  const rows = [];
  for (const [fn, tools] of Object.entries(byFunction)) {
    const nb = tools.nodebench.nsPerOp;
    for (const [tool, f] of Object.entries(tools)) {
      rows.push([fn, tool, formatNs(f.nsPerOp), f.p50NsPerOp === null ? '' : formatNs(f.p50NsPerOp),
        tool === 'nodebench' ? '' : `${(f.nsPerOp / nb).toFixed(3)}x`, pct(f.cv, 2), `${(f.wallMs / 1000).toFixed(2)} s`, f.estimates]);
    }
  }
  if (node4) rows.push([`empty (Node ${node4.version})`, 'nodebench', formatNs(node4.nsPerOp), formatNs(node4.p50NsPerOp ?? NaN), '', pct(node4.cv, 2), `${(node4.wallMs / 1000).toFixed(2)} s`, node4.estimates]);
  return grid(['function', 'tool', 'time/op', 'p50', 'vs nodebench', 'CV across estimates', 'wall/estimate', 'estimates'], rows);
}
