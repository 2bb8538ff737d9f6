// explain's Markdown format (a pull request, $GITHUB_STEP_SUMMARY): every name through
// text/escape.js, so a function or benchmark name cannot add a column, a row or HTML.
import { markdownTable, markdownCode, markdownText } from '../text/escape.js';
import { explainTables, sideLine, profileFiles, benchmarkOf } from './tables.js';

export function renderExplainMarkdown(doc) {
  const lines = [
    `## nodebench explain: ${markdownCode(benchmarkOf(doc))}`,
    '',
    `- ${markdownText(sideLine(doc, 'a'))}`,
    `- ${markdownText(sideLine(doc, 'b'))}`,
    '',
    markdownText(doc.summary),
    ''
  ];
  for (const table of explainTables(doc)) {
    lines.push(`### ${markdownText(table.title)}`, '');
    if (table.rows.length) lines.push(...markdownTable(table.header, table.rows, { align: table.header.map((_, i) => (i >= table.rightFrom ? '---:' : '---')) }), '');
    else lines.push('(none)', '');
    for (const note of table.notes) lines.push(`${markdownText(note)}  `);
    if (table.notes.length) lines.push('');
  }
  const files = profileFiles(doc);
  if (files.length) lines.push(`Profiles (Chrome DevTools, speedscope): ${files.map(markdownCode).join(', ')}`, '');
  lines.push(`<sub>${markdownText(`${doc.createdAt}: nodebench ${doc.command.join(' ')}`)}</sub>`);
  return `${lines.join('\n')}\n`;
}
