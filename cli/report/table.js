// Terminal tables: one per suite (split by flag set when all columns would not fit the terminal).
// A value is "ops/s ±margin% ratio-to-baseline"; a cell that did not run shows a short status and
// its reason is said once under the table.
import chalk from 'chalk';
import { grid } from './columns.js';
import { textTable } from './text-table.js';
import { terminalText } from './escape.js';
import { formatRate, formatRatio, formatPct, formatDuration } from './format.js';
import { reasonNotes, warningSummary, suiteFormLabel } from './notes.js';

const SHORT_STATUS = { failed: 'FAILED', timeout: 'TIMEOUT', unsupported: 'n/s', skipped: 'skipped', pending: 'unfinished', running: 'unfinished', absent: '' };

// perRun: a whole command's cell reads as the time of one run, not as runs per second.
function cellText(value, isBaseline, perRun = false) {
  if (value.status !== 'ok') return SHORT_STATUS[value.status] ?? value.status;
  const rme = Number.isFinite(value.rme) ? ` ±${formatPct(value.rme)}` : '';
  const ratioMargin = Number.isFinite(value.ratioRme) ? ` ±${formatPct(value.ratioRme)}` : '';
  const ratio = isBaseline ? ' (base)' : value.ratio ? ` ${formatRatio(value.ratio)}${ratioMargin}` : '';
  return `${perRun ? formatDuration(1e9 / value.opsPerSec) : formatRate(value.opsPerSec)}${rme}${ratio}`;
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

function layout(table, columnIndexes, color, perRun) {
  const header = ['benchmark', ...columnIndexes.map((i) => table.columns[i].key)];
  const rows = table.rows.map((row) => [
    row.benchmark,
    ...columnIndexes.map((i) => {
      const isBaseline = table.columns[i].key === table.baseline.key;
      const value = row.values[i];
      const text = cellText(value, isBaseline, perRun);
      return { text, shown: colour(text, value, isBaseline, color) };
    })
  ]);
  return textTable([header, ...rows]);
}

function tableWidth(table, columnIndexes) {
  const benchWidth = Math.max(9, ...table.rows.map((r) => terminalText(r.benchmark).length));
  return columnIndexes.reduce((sum, i) => sum + 2 + Math.max(terminalText(table.columns[i].key).length, ...table.rows.map((r) => cellText(r.values[i], false).length + 7)), benchWidth);
}

export function renderTables(result, { baseline, color = false, width = process.stdout.columns || 160, verbose = false } = {}) {
  const out = [];
  for (const table of grid(result, { baseline })) {
    const all = table.columns.map((_, i) => i);
    const form = suiteFormLabel(result, table.suite);
    const suite = terminalText(table.suite);
    const title = `${color ? chalk.bold(suite) : suite}${form ? ` ${form}` : ''}`;
    const perRun = result.suites.find((s) => s.name === table.suite)?.kind === 'command';
    const legend = perRun
      ? `(time per run ±95% margin, speed ratio to ${terminalText(table.baseline.key)} ±95% margin: above 1x is faster)`
      : `(ops/s ±95% margin, ratio to ${terminalText(table.baseline.key)} ±95% margin)`;
    if (tableWidth(table, all) <= width) {
      out.push(`${title}  ${legend}`, ...layout(table, all, color, perRun));
    } else {
      for (const flagSet of [...new Set(table.columns.map((c) => c.flagSet))]) {
        out.push(`${title} [${terminalText(flagSet)}]  ${legend}`, ...layout(table, all.filter((i) => table.columns[i].flagSet === flagSet), color, perRun), '');
      }
      out.pop();
    }
    out.push(...reasonNotes(table), ...warningSummary(table, { verbose }), '');
  }
  return out.join('\n');
}
