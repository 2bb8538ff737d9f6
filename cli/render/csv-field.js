// One field of a CSV file (report --format csv, history show --format csv).
import { terminalText } from '../text/escape.js';

// A text field's control characters are shown escaped, as on a terminal (escape.js: ESC as \x1b, a
// newline as \n): a CSV is also read with cat and less, and a name or an error from a result file
// must not move the cursor or retitle the window there. Then, a field that starts with = + - @ (or a
// tab or carriage return) is a formula to a spreadsheet ("=cmd|' /C calc'!A0" runs a program): it
// is prefixed with ' as OWASP's CSV injection guidance recommends, and quoted. Numbers are written
// as numbers, so a negative figure stays a number.
const FORMULA_START = /^[=+\-@\t\r]/;
// Command-line flags ("--max-semi-space-size=64 --no-opt"): they start with "-", but words of letters,
// digits, "_", ".", "-" and a value of those and ",:/+" call no function and reach no program (a
// formula needs "(" for one and a DDE "|" for the other; at most a spreadsheet shows #NAME?), so they
// are written as they are: with the apostrophe,
// every reader but a spreadsheet got "'--max-semi-space-size=64" (issue 39, item 8).
const FLAG = /--?[A-Za-z_][\w.-]*(?:=[\w.,:/+-]*)?/;
const ONLY_FLAGS = new RegExp(`^${FLAG.source}(?: ${FLAG.source})*$`);

export function csvField(value) {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = terminalText(value);
  const safe = FORMULA_START.test(text) && !ONLY_FLAGS.test(text) ? `'${text}` : text;
  return /[",\n\r']/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
