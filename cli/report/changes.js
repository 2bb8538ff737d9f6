// "What changed": the end of the terminal report of `report`, `matrix` and `run` (and all that
// `--summary` prints): the verdict counts against the baseline, the ratios decided slower, then those
// decided faster, each largest first (at most CHANGES_SHOWN lines each), and the geometric mean per
// column. From the overview
// (render/overview.js), as the HTML and Markdown reports; names escaped by text-table.js.
import path from 'node:path';
import chalk from 'chalk';
import { textTable } from '../text/text-table.js';
import { terminalText, shellWord } from '../text/escape.js';
import { formatRatio, displayName } from '../text/format.js';
import { precisionLines } from '../render/run-warnings.js';
import { reportOverview, countsText, geomeanText, intervalText, columnText, againstText, changeGroups } from '../render/overview.js';
import { benchmarkName } from '../cell-identity.js';

// Per group: the largest slowdowns stay in view however many speed-ups there are.
export const CHANGES_SHOWN = 10;

// overview: reportOverview's (given when the caller has one); file: the result file's path, for the
// command that shows every change. Returns '' when the result has no ratio (one column).
export function renderChanges(result, { baseline, color = false, limit = CHANGES_SHOWN, file, overview = reportOverview(result, { baseline }) } = {}) {
  if (!overview.summary.compared) return '';
  const against = terminalText(againstText(overview));
  const title = `What changed against ${against}: ${countsText(overview)}`;
  const out = [color ? chalk.bold(title) : title];
  const groups = changeGroups(overview);
  if (groups.length) {
    const paint = (c) => (text) => ({ text, shown: !color ? text : c.verdict === 'faster' ? chalk.green(text) : chalk.red(text) });
    const shown = groups.flatMap((g) => g.changes.slice(0, limit));
    // The ratios right-aligned (figures), the rest left-aligned (names); one alignment for both groups.
    const ratios = shown.map((c) => `${formatRatio(c.ratio)}${c.mark}`);
    const width = Math.max(...ratios.map((r) => r.length));
    const lines = textTable(shown.map((c, i) => [ratios[i].padStart(width), intervalText(c), c.verdict, displayName(benchmarkName(c)), columnText(c)].map(paint(c))), { rule: false });
    let at = 0;
    for (const g of groups) {
      const count = Math.min(limit, g.changes.length);
      out.push(`  ${g.verdict} (${g.changes.length}, largest first):`, ...lines.slice(at, at + count).map((line) => `    ${line}`));
      if (g.changes.length > count) out.push(`    … and ${g.changes.length - count} more ${g.verdict}`);
      at += count;
    }
    const shownFile = file ? terminalText(shellWord(path.relative(process.cwd(), file) || file)) : '<file>';
    if (groups.some((g) => g.changes.length > limit)) out.push(`  every decided change: nodebench report ${shownFile} --format markdown or html`);
  } else {
    out.push('  none decided faster or slower');
  }
  if (overview.summary.columns.length) out.push(`  geometric mean of the ratios per column: ${terminalText(geomeanText(overview.summary))}`);
  // What "undecided" means for this run: how large a change it could have told apart, and how its host ran.
  out.push(...precisionLines(result).map((line) => `  ${line}`));
  return `${out.join('\n')}\n`;
}
