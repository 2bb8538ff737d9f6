// Text a result file or a runtime supplied (benchmark, flag set, suite and runtime labels, thrown
// errors, a binary's flag descriptions), made safe for where it is shown. A name is data: on a
// terminal it must not move the cursor, retitle the window or clear the screen; in a Markdown table
// it must not add a column or a row; in a spreadsheet it must not become a formula (csv.js).
// Every terminal writer and every Markdown writer goes through here.

// C0 controls, DEL, C1 controls (0x9b is a one-byte CSI), the line and paragraph separators, and
// the bidirectional overrides and isolates that reorder what a reader sees ("Trojan Source").
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- as above
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeControl(c) {
  if (NAMED[c]) return NAMED[c];
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

// Control characters shown escaped (ESC as \x1b). keepNewlines: for text that is lines by design
// (a stack trace, a finished table); a name or a one-sentence message keeps none.
export function terminalText(text, { keepNewlines = false } = {}) {
  return String(text).replace(keepNewlines ? CONTROL_BUT_NEWLINE : CONTROL, escapeControl);
}

// One cell of a Markdown table (or a heading, a line of text): control characters escaped as on a
// terminal (a newline would end the row), "|" escaped (a column break in GitHub's tables), "\"
// escaped so that the text cannot escape the escapes, "`" so that it cannot open a code span that
// another one's backtick closes. A link or an image needs "](" (nodebench writes no reference
// definitions, and a text cannot start a line to add one): its "(" is escaped, and a "(" the text
// starts with, which a "]" just before it could take. "<" becomes an entity, which every Markdown
// renderer shows as text: a backslash before it is an escape for CommonMark only, and others pass
// "\<img onerror=...>" on as a tag; "&" too, so that an entity in the text stays the text it was.
// "*", "_" and "~" are escaped so that a name such as __proto__ or a*b*c shows as it is, not bold,
// italic or struck through: nodebench's own emphasis is added around escaped text (markdownMarkup).
export function markdownText(text) {
  return terminalText(text).replace(/[\\|`*_~]/g, (c) => `\\${c}`).replace(/(^|\])\(/g, '$1\\(')
    .replace(/[&<]/g, (c) => (c === '&' ? '&amp;' : '&lt;'));
}

// Text in nodebench's own bold, escaped as markdownText escapes it.
export const markdownBold = (text) => `**${markdownText(text)}**`;

// A table cell that is Markdown already, its text escaped by markdownText and its emphasis
// nodebench's own (a decided ratio in bold): markdownTable passes it on as it is.
export const markdownMarkup = (markdown) => ({ markdown });

// A Markdown table; every cell escaped (but those markdownMarkup made), so a name can never add a
// column, a row or emphasis.
export function markdownTable(header, rows, { align = header.map(() => '---') } = {}) {
  const line = (cells) => `| ${cells.map((cell) => (cell && typeof cell === 'object' ? cell.markdown : markdownText(cell))).join(' | ')} |`;
  return [line(header), `|${align.join('|')}|`, ...rows.map(line)];
}

// Text as inline code outside a table (a heading, a list item): a backtick run inside cannot close
// the span, a newline cannot end the line.
export function markdownCode(text) {
  const safe = terminalText(text);
  const ticks = '`'.repeat(Math.max(0, ...(safe.match(/`+/g) || []).map((run) => run.length)) + 1);
  const pad = safe.startsWith('`') || safe.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${safe}${pad}${ticks}`;
}

// Text inside an HTML element of a Markdown document (a <summary> of <details>): Markdown does not
// read there, so "<" and "&" are HTML entities, and control characters are escaped as everywhere.
export function markdownHtmlText(text) {
  return terminalText(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

// Lines of aligned text as a fenced code block whose fence no backtick run inside can close.
export function markdownFence(text) {
  const safe = terminalText(text, { keepNewlines: true });
  const fence = '`'.repeat(Math.max(2, ...(safe.match(/`+/g) || []).map((run) => run.length)) + 1);
  return [fence, safe, fence];
}

// A word of a command a user copies into a shell: quoted unless it is plainly safe.
export function shellWord(text) {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${String(text).replace(/'/g, "'\\''")}'`;
}
