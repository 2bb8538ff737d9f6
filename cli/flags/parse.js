// Parse `node --v8-options` into flag records. The format changed over the years and every shape
// must be read: V8 4.x-5.x print underscore names and `default: true`; V8 6-9 print dash names with
// `default: false`; V8 10+ print the default as a command line (`default: --concurrent-marking`,
// `--no-trace-gc`, `--stack-size=984`, `--expose-gc-as=""`). Older V8 also wrote `--noflag`.
const FLAG_LINE = /^ {2}--([A-Za-z0-9_-]+) \((.*)$/;
const TYPE_LINE = /^\s+type: (\S+)\s+default: ?(.*)$/;

// One name per flag, whatever the release printed: V8 has always treated - and _ alike in names.
export function canonicalFlagName(name) {
  return String(name).replace(/^-+/, '').replace(/=.*$/, '').replace(/_/g, '-');
}

function stripQuotes(text) {
  return /^".*"$/.test(text) ? text.slice(1, -1) : text;
}

function parseDefault(type, raw, name) {
  const text = raw.trim();
  if (type === 'bool' || type === 'maybe_bool') {
    if (text === 'true' || text === `--${name}`) return true;
    if (text === 'false' || text === `--no-${name}` || text === `--no${name}`) return false;
    if (text === 'unset' || text === '' || text === `--${name}=unset`) return null;
    return text;
  }
  const value = text.startsWith(`--${name}=`) ? text.slice(name.length + 3) : text;
  if (type === 'string' || type === 'arguments') {
    return value === 'nullptr' || value === 'NULL' ? null : stripQuotes(value);
  }
  const number = Number(value);
  return value !== '' && Number.isFinite(number) ? number : stripQuotes(value);
}

// Returns [{ name, printed, type, default, description }], name in dash spelling, printed as the
// release wrote it (underscores in old releases), in the order V8 lists them.
export function parseV8Options(text) {
  const flags = [];
  let pending = null;
  for (const line of String(text).split('\n')) {
    const flag = FLAG_LINE.exec(line);
    if (flag) {
      pending = { printed: flag[1], description: flag[2] };
      continue;
    }
    const typed = TYPE_LINE.exec(line);
    if (typed && pending) {
      const name = canonicalFlagName(pending.printed);
      const description = pending.description.replace(/\)\s*$/, '').trim();
      flags.push({ name, printed: pending.printed, type: typed[1], default: parseDefault(typed[1], typed[2], pending.printed), description });
      pending = null;
    } else if (pending && line.trim()) {
      // a description V8 wrapped onto several lines
      pending.description += ` ${line.trim()}`;
    }
  }
  return flags;
}

// `--no-foo`, `--nofoo`, `--foo=1`, `--foo_bar` -> the flag record they name, or null.
export function findFlag(flags, written) {
  const byName = new Map(flags.map((f) => [f.name, f]));
  const name = canonicalFlagName(written);
  if (byName.has(name)) return byName.get(name);
  for (const prefix of ['no-', 'no']) {
    const negated = name.startsWith(prefix) && byName.get(name.slice(prefix.length));
    if (negated && negated.type.endsWith('bool')) return negated;
  }
  return null;
}
