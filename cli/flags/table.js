// `nodebench flags` as text: a runtime's V8 flags (type, default, description), and what changed
// between two runtimes, GC, compiler and memory flags named by group. The descriptions are the
// binary's own words: a binary under test is not trusted with the terminal (text/escape.js).
import { describeRuntime } from './index.js';
import { flagGroup, formatDefault } from './diff.js';
import { terminalText } from '../text/escape.js';

const shown = (lines) => `${terminalText(lines.join('\n'), { keepNewlines: true })}\n`;

// listing: { runtime, flags } (the flags shown).
export function renderListing({ runtime, flags }) {
  const width = Math.max(4, ...flags.map((f) => f.printed.length + 2));
  const lines = [`${describeRuntime(runtime)}: ${flags.length} V8 flag${flags.length === 1 ? '' : 's'}`];
  for (const f of flags) lines.push(`${`--${f.printed}`.padEnd(width)}  ${f.type.padEnd(10)} ${formatDefault(f.default).padEnd(8)} ${f.description}`);
  return shown(lines);
}

// comparison: { from, to, diff } (two runtimes and flags/diff.js diffFlags's changed, added, removed).
export function renderFlagsDiff({ from: a, to: b, diff }) {
  const lines = [`V8 flags from ${describeRuntime(a)} to ${describeRuntime(b)} (V8 ${a.v8} -> ${b.v8}):`];
  const section = (title, rows) => {
    lines.push('', `${title} (${rows.length})`);
    for (const row of rows) lines.push(`  [${flagGroup(row.name)}] ${row.text}`);
  };
  section('default changed', diff.changed.map((c) => ({ name: c.name, text: `--${c.name}: ${formatDefault(c.before)} -> ${formatDefault(c.after)}  (${c.description})` })));
  section('added', diff.added.map((f) => ({ name: f.name, text: `--${f.name} ${f.type}, default ${formatDefault(f.default)}  (${f.description})` })));
  section('removed', diff.removed.map((f) => ({ name: f.name, text: `--${f.name} ${f.type}, default was ${formatDefault(f.default)}` })));
  return shown(lines);
}
