// nodebench flags RUNTIME | flags diff A B: the V8 flags a runtime has (type, default, description),
// and what changed between two runtimes, read from the binaries themselves.
import { ensureRuntime } from '../runtimes/index.js';
import { runtimeFlags, describeRuntime } from '../flags/index.js';
import { diffFlags, flagGroup, formatDefault } from '../flags/diff.js';
import { UserError } from '../errors.js';
import { terminalText } from '../text/escape.js';

const log = (m) => process.stderr.write(`${m}\n`);

function grepPattern(text) {
  if (text === undefined) return null;
  try {
    return new RegExp(text, 'i');
  } catch {
    throw new UserError(`--grep "${text}" is not a valid regular expression; give a word such as gc or a valid pattern.`);
  }
}

const matches = (pattern, flag) => !pattern || [flag.name, flag.printed, flag.description].some((text) => text && pattern.test(text));

export async function flagsOf(spec) {
  const runtime = await ensureRuntime(spec, { log });
  return { runtime, listing: await runtimeFlags(runtime) };
}

function renderListing(runtime, flags) {
  const width = Math.max(4, ...flags.map((f) => f.printed.length + 2));
  const lines = [`${describeRuntime(runtime)}: ${flags.length} V8 flag${flags.length === 1 ? '' : 's'}`];
  for (const f of flags) lines.push(`${`--${f.printed}`.padEnd(width)}  ${f.type.padEnd(10)} ${formatDefault(f.default).padEnd(8)} ${f.description}`);
  return lines.join('\n');
}

export function renderFlagsDiff(a, b, diff) {
  const lines = [`V8 flags from ${describeRuntime(a)} to ${describeRuntime(b)} (V8 ${a.v8} -> ${b.v8}):`];
  const section = (title, rows) => {
    lines.push('', `${title} (${rows.length})`);
    for (const row of rows) lines.push(`  [${flagGroup(row.name)}] ${row.text}`);
  };
  section('default changed', diff.changed.map((c) => ({ name: c.name, text: `--${c.name}: ${formatDefault(c.before)} -> ${formatDefault(c.after)}  (${c.description})` })));
  section('added', diff.added.map((f) => ({ name: f.name, text: `--${f.name} ${f.type}, default ${formatDefault(f.default)}  (${f.description})` })));
  section('removed', diff.removed.map((f) => ({ name: f.name, text: `--${f.name} ${f.type}, default was ${formatDefault(f.default)}` })));
  return lines.join('\n');
}

export function register(program) {
  const flags = program.command('flags')
    .description('list the V8 flags of a runtime with type, default and description (or: flags diff A B)')
    .argument('<runtime>', 'runtime spec: 16, 16.13.2, lts, a path')
    .option('--grep <pattern>', 'only flags whose name or description matches (case-insensitive), e.g. gc')
    .option('--json', 'print JSON')
    .action(async (spec, opts) => {
      const pattern = grepPattern(opts.grep);
      const { runtime, listing } = await flagsOf(spec);
      const shown = listing.flags.filter((f) => matches(pattern, f));
      if (opts.json) {
        process.stdout.write(`${JSON.stringify({ version: runtime.version, v8: runtime.v8, flags: shown }, null, 1)}\n`);
        return;
      }
      // The descriptions are the binary's own words: a binary under test is not trusted with the terminal.
      process.stdout.write(`${terminalText(renderListing(runtime, shown), { keepNewlines: true })}\n`);
    });

  flags.command('diff')
    .description('V8 flags added, removed and whose default changed between two runtimes, GC/compiler/memory first')
    .argument('<a>', 'the older runtime')
    .argument('<b>', 'the newer runtime')
    .option('--grep <pattern>', 'only flags whose name or description matches')
    .option('--json', 'print JSON')
    .action(async (aSpec, bSpec, own) => {
      // `flags diff A B --json`: commander gives --json and --grep to the parent command.
      const opts = { ...flags.opts(), ...own };
      const pattern = grepPattern(opts.grep);
      const a = await flagsOf(aSpec);
      const b = await flagsOf(bSpec);
      const full = diffFlags(a.listing.flags, b.listing.flags);
      const diff = Object.fromEntries(Object.entries(full).map(([k, rows]) => [k, rows.filter((f) => matches(pattern, f))]));
      if (opts.json) {
        process.stdout.write(`${JSON.stringify({ from: { version: a.runtime.version, v8: a.runtime.v8 }, to: { version: b.runtime.version, v8: b.runtime.v8 }, ...diff }, null, 1)}\n`);
        return;
      }
      process.stdout.write(`${terminalText(renderFlagsDiff(a.runtime, b.runtime, diff), { keepNewlines: true })}\n`);
    });
}
