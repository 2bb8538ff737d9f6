// diff's table format, for a terminal: every row aligned (text/text-table.js escapes each cell),
// the summary under it, then the runtime metrics compared.
import chalk from 'chalk';
import { textTable } from '../text/text-table.js';
import { terminalText } from '../text/escape.js';
import { diffHeader, diffRowCells, diffSummaryLines } from './rows.js';
import { metricRows, metricSummary, METRIC_HEADER } from './metrics.js';

// extra: lines printed after the summary (the gate's confirmation).
export function renderDiffTable(rows, { color = false, extra = [] } = {}) {
  // A change decided faster or slower is coloured across its whole row, faster green and slower
  // red; an undecided one is dim.
  const paint = (row) => {
    const c = row.comparison;
    if (!color || !c) return (text) => text;
    const how = c.verdict === 'faster' ? chalk.green : c.verdict === 'slower' ? chalk.red : c.verdict === 'undecided' ? chalk.dim : null;
    return how ? (text) => ({ text, shown: how(text) }) : (text) => text;
  };
  const body = rows.map((row) => diffRowCells(row, { equivalence: rows.verdicts?.equivalence }).map(paint(row)));
  const lines = textTable([diffHeader(rows), ...body]);
  // extra names benchmarks of the files (the confirmation's lines): escaped like every name.
  const summary = [...diffSummaryLines(rows), ...extra.map((line) => terminalText(line))];
  if (summary.length) lines.push('', ...summary);
  // Runtime metrics compared where both sides ran two or more metrics processes per cell.
  if (rows.metrics?.length) {
    const decided = metricRows(rows.metrics);
    lines.push('', metricSummary(rows.metrics), ...(decided.length ? textTable([METRIC_HEADER, ...decided]) : []));
  }
  return `${lines.join('\n')}\n`;
}
