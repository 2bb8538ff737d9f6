// nodebench flags RUNTIME | nodebench flags diff A B: a runtime's V8 flags with type, default and
// description, and what changed between two releases (GC, compiler and memory flags first).
import { ensureRuntime } from '../runtimes/index.js';
import { flagsOf } from '../flags/index.js';
import { diffFlags, byTopic, topicOf } from '../flags/v8-options.js';
import { textTable } from '../report/text-table.js';
import { UserError } from '../errors.js';

const log = (m) => process.stderr.write(`${m}\n`);
const shown = (value) => (value === null ? 'unset' : typeof value === 'string' ? (value === '' ? '""' : value) : String(value));

async function runtimeFlags(spec, opts) {
  const runtime = await ensureRuntime(spec, { log, refresh: opts.refresh });
  const flags = await flagsOf(runtime);
  if (!flags) throw new UserError(`Node ${runtime.version} (${runtime.path}) did not list its V8 flags (node --v8-options failed); check that the binary runs.`);
  return { runtime, flags };
}

function grepOf(opts) {
  if (!opts.grep) return () => true;
  let pattern;
  try {
    pattern = new RegExp(opts.grep, 'i');
  } catch (err) {
    throw new UserError(`--grep "${opts.grep}" is not a valid regular expression (${err.message}).`);
  }
  return (f) => pattern.test(f.name) || pattern.test(f.canonical) || pattern.test(f.description);
}

async function listFlags(spec, opts) {
  const { runtime, flags } = await runtimeFlags(spec, opts);
  const selected = flags.filter(grepOf(opts));
  if (opts.json) {
    process.stdout.write(`${JSON.stringify({ runtime: { version: runtime.version, v8: runtime.v8 }, flags: selected }, null, 1)}\n`);
    return;
  }
  process.stdout.write(`Node ${runtime.version} (V8 ${runtime.v8}): ${selected.length} of ${flags.length} V8 flags\n`);
  const rows = byTopic(selected).map((f) => [`--${f.name}`, f.type, shown(f.default), topicOf(f), f.description]);
  process.stdout.write(`${textTable([['flag', 'type', 'default', 'topic', 'description'], ...rows]).join('\n')}\n`);
}

async function diffRuntimes(specA, specB, opts) {
  const a = await runtimeFlags(specA, opts);
  const b = await runtimeFlags(specB, opts);
  const keep = grepOf(opts);
  const diff = diffFlags(a.flags, b.flags);
  const selected = { added: diff.added.filter(keep), removed: diff.removed.filter(keep), changed: diff.changed.filter(keep) };
  if (opts.json) {
    const side = (r) => ({ version: r.runtime.version, v8: r.runtime.v8 });
    process.stdout.write(`${JSON.stringify({ a: side(a), b: side(b), ...selected }, null, 1)}\n`);
    return;
  }
  const out = [`V8 flags from Node ${a.runtime.version} (V8 ${a.runtime.v8}) to Node ${b.runtime.version} (V8 ${b.runtime.v8}): ${selected.changed.length} defaults changed, ${selected.added.length} added, ${selected.removed.length} removed`];
  if (selected.changed.length) {
    out.push('', 'default changed:', ...textTable([['flag', 'topic', a.runtime.version, b.runtime.version, 'description'],
      ...byTopic(selected.changed).map((f) => [`--${f.canonical}`, topicOf(f), shown(f.from), shown(f.to), f.description])]));
  }
  const limit = opts.all ? Infinity : 40;
  for (const [title, list] of [['added', selected.added], ['removed', selected.removed]]) {
    if (!list.length) continue;
    const sorted = byTopic(list);
    out.push('', `${title}:`, ...textTable([['flag', 'topic', 'type', 'default', 'description'], ...sorted.slice(0, limit).map((f) => [`--${f.canonical}`, topicOf(f), f.type, shown(f.default), f.description])]));
    if (sorted.length > limit) out.push(`  … and ${sorted.length - limit} more (--all lists them, --grep narrows)`);
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

export function register(program) {
  program.command('flags')
    .description('the V8 flags of a runtime (type, default, description), or `flags diff A B`: flags added, removed and whose default changed between two runtimes')
    .argument('<runtime-or-diff>', 'a runtime spec (16, 16.13.2, lts, a path), or "diff"')
    .argument('[a]', 'with diff: the runtime to compare from')
    .argument('[b]', 'with diff: the runtime to compare to')
    .option('--grep <pattern>', 'only flags whose name or description matches (a regular expression, case-insensitive)')
    .option('--all', 'with diff: list every added and removed flag, not the first 40 of each')
    .option('--json', 'print JSON')
    .option('--refresh', 'ask the registry for the newest versions even if the cached list is recent')
    .action(async (first, a, b, opts) => {
      if (first === 'diff') {
        if (!a || !b) throw new UserError('flags diff needs two runtimes, e.g. nodebench flags diff 16.13.2 16.14.0.');
        return diffRuntimes(a, b, opts);
      }
      if (a) throw new UserError(`flags takes one runtime (or "diff A B"), not "${first} ${a}".`);
      return listFlags(first, opts);
    });
}
