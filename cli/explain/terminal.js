// explain's terminal format: the summary, then each table aligned (text/text-table.js escapes
// every cell), then where the .cpuprofile files are.
import { textTable } from '../text/text-table.js';
import { terminalText } from '../text/escape.js';
import { explainTables, sideLine, profileFiles, benchmarkOf } from './tables.js';

export function renderExplainTerminal(doc) {
  const lines = [
    terminalText(`nodebench explain: ${benchmarkOf(doc)}`),
    terminalText(sideLine(doc, 'a')),
    terminalText(sideLine(doc, 'b')),
    '',
    terminalText(doc.summary),
    ''
  ];
  for (const table of explainTables(doc)) {
    lines.push(terminalText(table.title));
    lines.push(...(table.rows.length ? textTable([table.header, ...table.rows], { rightFrom: table.rightFrom }) : ['(none)']));
    for (const note of table.notes) lines.push(terminalText(note));
    lines.push('');
  }
  const files = profileFiles(doc);
  if (files.length) lines.push(`Profiles (open in Chrome DevTools or speedscope): ${terminalText(doc.settings.profileDir)}`, ...files.map((f) => `  ${terminalText(f)}`));
  return `${lines.join('\n')}\n`;
}
