// A runtime's V8 flags as data, parsed from `node --v8-options`. The text changed over the years:
//   Node 4-10 (V8 4.5-6.x):  "  --max_semi_space_size (max size of a semi-space ...)"
//                             "        type: int  default: 0"
//   Node 16 (V8 9.x):        "  --concurrent-marking (use concurrent marking)"
//                             "        type: bool  default: true"
//   Node 20+ (V8 11+):       "        type: bool  default: --concurrent-marking"  (or --no-concurrent-marking,
//                             "--noconcurrent-marking", "--max-semi-space-size=0")
// Names are kept in the runtime's own spelling and compared in one canonical form (dashes), since
// V8 accepts both and matrix files use either.
import { execa } from 'execa';

export const canonical = (name) => name.replace(/^-+/, '').replace(/_/g, '-');

const FLAG_LINE = /^ {2}--([A-Za-z0-9_-]+) \((.*)\)\s*$/;
const TYPE_LINE = /^\s+type: (\S+)\s+default: ?(.*)$/;

function parseDefault(type, text, name) {
  const raw = text.trim();
  if (type === 'bool' || type === 'maybe_bool') {
    if (raw === 'true' || raw === 'false') return raw === 'true';
    const plain = canonical(name);
    const given = raw.replace(/^--/, '').replace(/_/g, '-');
    if (given === plain) return true;
    if (given === `no-${plain}` || given === `no${plain}`) return false;
    if (raw === 'unset' || raw === '') return null;
    return raw;
  }
  const value = raw.includes('=') && raw.startsWith('--') ? raw.slice(raw.indexOf('=') + 1) : raw;
  if (['int', 'uint', 'uint64', 'size_t', 'float', 'double'].includes(type) && value !== '' && Number.isFinite(Number(value))) return Number(value);
  if (type === 'string' && (value === 'nullptr' || value === 'NULL')) return null;
  return value;
}

// text of `node --v8-options` -> [{ name, canonical, description, type, default }]
export function parseV8Options(text) {
  const flags = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const flag = FLAG_LINE.exec(lines[i]);
    if (!flag) continue;
    const typed = TYPE_LINE.exec(lines[i + 1] || '');
    if (!typed) continue;
    flags.push({
      name: flag[1],
      canonical: canonical(flag[1]),
      description: flag[2].trim(),
      type: typed[1],
      default: parseDefault(typed[1], typed[2], flag[1])
    });
    i++;
  }
  return flags;
}

export async function readV8Options(nodePath) {
  const run = await execa(nodePath, ['--v8-options'], { reject: false, timeout: 30_000, stdin: 'ignore', env: { NODE_OPTIONS: '' } });
  if (run.exitCode !== 0 || !run.stdout) return null;
  return parseV8Options(run.stdout);
}

// A matrix flag ("--max-semi-space-size=64", "--no-concurrent-marking", "--max_old_space_size 64")
// -> { canonical name, negated }.
export function flagName(arg) {
  const name = arg.replace(/^--?/, '').split('=')[0].replace(/_/g, '-');
  if (name.startsWith('no-')) return { canonical: name.slice(3), negated: true };
  return { canonical: name, negated: false };
}

// Whether `flags` (parsed) knows `arg`, in either spelling and as --no-X / --noX for booleans.
export function findFlag(flags, arg) {
  const { canonical: wanted, negated } = flagName(arg);
  const exact = flags.find((f) => f.canonical === wanted || (negated && f.canonical === `no-${wanted}`));
  if (exact) return exact;
  // V8 also spells negations without the dash: --noconcurrent-marking.
  return wanted.startsWith('no') ? flags.find((f) => f.type === 'bool' && f.canonical === wanted.slice(2)) || null : null;
}

// Flags added, removed and whose default changed from a to b (parsed lists).
export function diffFlags(a, b) {
  const byA = new Map(a.map((f) => [f.canonical, f]));
  const byB = new Map(b.map((f) => [f.canonical, f]));
  const added = b.filter((f) => !byA.has(f.canonical));
  const removed = a.filter((f) => !byB.has(f.canonical));
  const changed = b.filter((f) => byA.has(f.canonical) && JSON.stringify(byA.get(f.canonical).default) !== JSON.stringify(f.default))
    .map((f) => ({ ...f, from: byA.get(f.canonical).default, to: f.default }));
  return { added, removed, changed };
}

// GC, compiler and memory flags first: they are what runtime upgrades are about.
const TOPICS = [
  ['gc', /\b(gc|scaveng|marking|sweep|compact|heap|semi-space|old-space|young|generation|allocation|memory|minor-ms)\b/],
  ['compiler', /\b(turbofan|maglev|sparkplug|opt|ignition|inline|jit|osr|compil|deopt|tier)/],
  ['memory', /\b(size|space|pool|stack)\b/]
];

export function topicOf(flag) {
  const text = `${flag.canonical} ${flag.description}`.toLowerCase();
  for (const [topic, pattern] of TOPICS) if (pattern.test(text)) return topic;
  return 'other';
}

export function byTopic(flags) {
  const order = ['gc', 'compiler', 'memory', 'other'];
  return [...flags].sort((x, y) => order.indexOf(topicOf(x)) - order.indexOf(topicOf(y)) || x.canonical.localeCompare(y.canonical));
}
