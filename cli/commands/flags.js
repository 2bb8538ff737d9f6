// nodebench flags RUNTIME | flags diff A B: the V8 flags a runtime has (type, default, description),
// and what changed between two runtimes, read from the binaries themselves.
import { ensureRuntime } from '../runtimes/index.js';
import { runtimeFlags } from '../flags/index.js';
import { diffFlags } from '../flags/diff.js';
import { FLAGS_FORMATS, FLAGS_DIFF_FORMATS } from '../flags/formats.js';
import { addFormatOptions, formatFrom, emit } from '../output/emit.js';
import { UserError } from '../errors.js';

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

async function flagsOf(spec) {
  const runtime = await ensureRuntime(spec, { log });
  return { runtime, listing: await runtimeFlags(runtime) };
}

export function register(program) {
  const flags = addFormatOptions(program.command('flags')
    .description('list the V8 flags of a runtime with type, default and description (or: flags diff A B)')
    .argument('<runtime>', 'runtime spec: 16, 16.13.2, lts, a path')
    .option('--grep <pattern>', 'only flags whose name or description matches (case-insensitive), e.g. gc'), FLAGS_FORMATS)
    .action(async (spec, opts) => {
      const render = formatFrom(FLAGS_FORMATS, opts);
      const pattern = grepPattern(opts.grep);
      const { runtime, listing } = await flagsOf(spec);
      await emit(render, { runtime, flags: listing.flags.filter((f) => matches(pattern, f)) }, { out: opts.out });
    });

  addFormatOptions(flags.command('diff')
    .description('V8 flags added, removed and whose default changed between two runtimes, GC/compiler/memory first')
    .argument('<a>', 'the older runtime')
    .argument('<b>', 'the newer runtime')
    .option('--grep <pattern>', 'only flags whose name or description matches'), FLAGS_DIFF_FORMATS)
    .action(async (aSpec, bSpec, own) => {
      // `flags diff A B --json`: commander gives the options the parent command has too to the parent.
      const parent = flags.opts();
      const opts = { ...parent, ...own, format: own.format !== 'table' ? own.format : parent.format };
      const render = formatFrom(FLAGS_DIFF_FORMATS, opts);
      const pattern = grepPattern(opts.grep);
      const a = await flagsOf(aSpec);
      const b = await flagsOf(bSpec);
      const full = diffFlags(a.listing.flags, b.listing.flags);
      const diff = Object.fromEntries(Object.entries(full).map(([k, rows]) => [k, rows.filter((f) => matches(pattern, f))]));
      await emit(render, { from: a.runtime, to: b.runtime, diff }, { out: opts.out });
    });
}
