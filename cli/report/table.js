// Terminal tables: one per suite. A value is "ops/s ±rme% ratio-to-baseline"; a cell that did not
// run shows a short reason instead (its full reason is in the result file and listed under the table).
import chalk from 'chalk';
import { grid } from './columns.js';
import { formatRate, formatRatio } from './format.js';

const SHORT_STATUS = { failed: 'FAILED', timeout: 'TIMEOUT', unsupported: 'n/s', skipped: 'skipped', pending: '…', absent: '' };

function cellText(value, isBaseline) {
  if (value.status !== 'ok') return SHORT_STATUS[value.status] ?? value.status;
  const rme = Number.isFinite(value.rme) ? ` ±${value.rme < 10 ? value.rme.toFixed(1) : value.rme.toFixed(0)}%` : '';
  const ratio = isBaseline ? ' (base)' : value.ratio ? ` ${formatRatio(value.ratio)}` : '';
  return `${formatRate(value.opsPerSec)}${rme}${ratio}`;
}

function colour(text, value, isBaseline, useColor) {
  if (!useColor) return text;
  if (value.status === 'failed' || value.status === 'timeout') return chalk.red(text);
  if (value.status !== 'ok') return chalk.dim(text);
  if (isBaseline || !value.ratio) return text;
  if (value.ratio >= 1.05) return chalk.green(text);
  if (value.ratio <= 0.95) return chalk.red(text);
  return text;
}

function pad(text, width, visibleLength) {
  return text + ' '.repeat(Math.max(0, width - visibleLength));
}

export function renderTables(result, { baseline, color = false } = {}) {
  const out = [];
  for (const table of grid(result, { baseline })) {
    const header = ['benchmark', ...table.columns.map((c) => c.key)];
    const rows = table.rows.map((row) => [
      { text: row.benchmark, value: { status: 'ok' }, plain: true },
      ...row.values.map((value, i) => {
        const isBaseline = table.columns[i].key === table.baseline.key;
        return { text: cellText(value, isBaseline), value, isBaseline };
      })
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].text.length)));
    out.push(`${color ? chalk.bold(table.suite) : table.suite}  (ops/s ±95% margin, ratio to ${table.baseline.key})`);
    out.push(header.map((h, i) => pad(h, widths[i], h.length)).join('  ').trimEnd());
    out.push(widths.map((w) => '-'.repeat(w)).join('  '));
    for (const row of rows) {
      out.push(row.map((c, i) => pad(c.plain ? c.text : colour(c.text, c.value, c.isBaseline, color), widths[i], c.text.length)).join('  ').trimEnd());
    }
    const notes = [];
    for (const row of table.rows) {
      row.values.forEach((value, i) => {
        if (value.status !== 'ok' && value.error) notes.push(`  ${row.benchmark} on ${table.columns[i].key}: ${value.error}`);
        for (const warning of value.warnings || []) notes.push(`  warning: ${row.benchmark} on ${table.columns[i].key}: ${warning}`);
      });
    }
    if (notes.length) out.push(...dedupeUnsupported(notes));
    out.push('');
  }
  return out.join('\n');
}

// The same "unsupported on Node 4.9.1 (needs >= 7.6)" for every flag set is one note, not three.
function dedupeUnsupported(notes) {
  const seen = new Set();
  return notes.filter((note) => {
    const key = note.replace(/ on [^:]+\/[^:]+:/, ':');
    if (/unsupported/.test(note) && seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
