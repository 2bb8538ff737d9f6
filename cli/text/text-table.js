// The one column-aligned text table: rows of cells (strings, or { text, shown } where `shown` is the
// text with colour codes and `text` its visible characters), a dashed rule under the header row.
// Columns from `rightFrom` on are right-aligned (figures), the others left-aligned. Cells are names
// and messages from result files: their control characters are shown escaped (escape.js), colour
// codes wrapped around them by the caller are kept.
import { terminalText } from './escape.js';

function safeCell(c) {
  if (typeof c === 'string') return terminalText(c);
  const text = terminalText(c.text);
  if (c.shown === undefined || c.shown === c.text) return text;
  // `shown` is the raw text wrapped in colour codes: the text inside is replaced by its escaped form.
  const at = c.shown.indexOf(c.text);
  return { text, shown: at >= 0 ? `${c.shown.slice(0, at)}${text}${c.shown.slice(at + c.text.length)}` : text };
}

export function textTable(rows, { rule = true, rightFrom = Infinity } = {}) {
  const safeRows = rows.map((row) => row.map(safeCell));
  const visible = (c) => (typeof c === 'string' ? c : c.text);
  const shown = (c) => (typeof c === 'string' ? c : c.shown);
  const widths = [];
  for (const row of safeRows) row.forEach((c, i) => { widths[i] = Math.max(widths[i] || 0, visible(c).length); });
  const pad = (c, i) => ' '.repeat(Math.max(0, widths[i] - visible(c).length));
  const line = (row) => row.map((c, i) => (i >= rightFrom ? pad(c, i) + shown(c) : shown(c) + pad(c, i))).join('  ').trimEnd();
  const [header, ...body] = safeRows;
  return [line(header), ...(rule ? [widths.map((w) => '-'.repeat(w)).join('  ')] : []), ...body.map(line)];
}
