// The one column-aligned text table: rows of cells (strings, or { text, shown } where `shown` is the
// text with colour codes and `text` its visible characters), a dashed rule under the header row.
// Columns from `rightFrom` on are right-aligned (figures), the others left-aligned.
export function textTable(rows, { rule = true, rightFrom = Infinity } = {}) {
  const visible = (c) => (typeof c === 'string' ? c : c.text);
  const shown = (c) => (typeof c === 'string' ? c : c.shown ?? c.text);
  const widths = [];
  for (const row of rows) row.forEach((c, i) => { widths[i] = Math.max(widths[i] || 0, visible(c).length); });
  const pad = (c, i) => ' '.repeat(Math.max(0, widths[i] - visible(c).length));
  const line = (row) => row.map((c, i) => (i >= rightFrom ? pad(c, i) + shown(c) : shown(c) + pad(c, i))).join('  ').trimEnd();
  const [header, ...body] = rows;
  return [line(header), ...(rule ? [widths.map((w) => '-'.repeat(w)).join('  ')] : []), ...body.map(line)];
}
