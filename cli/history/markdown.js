// `history show` and `history check` as Markdown, for a pull request or the job summary.
import { formatChange, displayName } from '../text/format.js';
import { markdownText, markdownCode, markdownFence, markdownHtmlText } from '../text/escape.js';
import { headline, seriesTitle, seriesTable, allChanges, COMMAND_CHARS } from './table.js';

// For a pull request or the job summary: the change points first, the series folded per suite
// (series: false leaves them out: a job summary takes 1 MiB, and 200 runs of 150 series are more).
export function renderMarkdown(analysis, { store, series: withSeries = true }) {
  // Every name through text/escape.js: a table cell cannot add a column or a row, the command is a
  // code span no backtick in it can close, a suite name cannot open or close HTML.
  const out = [`### nodebench history`, '', headline(analysis, store).map(markdownText).join('  \n'), ''];
  const changes = allChanges(analysis);
  if (changes.length) {
    out.push('| series | from | to | change | 95% CI | |', '|---|---|---|---:|---|---|');
    const cell = markdownText;
    const code = (text) => markdownCode(text).replace(/\|/g, '\\|');
    for (const { s, c } of changes) {
      const note = [c.isNew ? '**new**' : '', ...c.also.map((name) => cell(displayName(name))), c.bisect?.command ? code(displayName(c.bisect.command, { max: COMMAND_CHARS })) : ''].filter(Boolean).join('; ');
      out.push(`| ${cell(seriesTitle(s, analysis))} | ${cell(displayName(c.from.name))} | ${cell(displayName(c.to.name))} | ${formatChange(c.ratio)} | ${formatChange(c.low)} .. ${formatChange(c.high)} | ${note} |`);
    }
  } else {
    out.push('No change points.');
  }
  out.push('');
  if (!withSeries) return `${out.join('\n')}\n`;
  for (const suite of [...new Set(analysis.series.map((s) => s.suite))]) {
    const series = analysis.series.filter((s) => s.suite === suite);
    out.push(`<details><summary>${markdownHtmlText(displayName(suite))}: ${series.length} series</summary>`, '', ...markdownFence(series.map((s) => `${seriesTitle(s, analysis)}\n${seriesTable(s, analysis)}\n`).join('\n')), '', '</details>', '');
  }
  return `${out.join('\n')}\n`;
}
