// A line under the tables when a V8 flag's default differs between the runtimes of one run: a
// difference between columns may be that default, not the release (concurrent marking was off by
// default from Node 16.0.0 to 16.13.2).
import { formatDefault } from '../flags/diff.js';
import { terminalText } from '../text/escape.js';
import { displayName } from '../text/format.js';

function listNames(names) {
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
}

export function flagDefaultNotes(result) {
  const runtimes = (result.runtimes || []).filter((r) => r.v8Flags);
  const names = [...new Set(runtimes.flatMap((r) => Object.keys(r.v8Flags)))];
  const lines = [];
  for (const name of names) {
    const byValue = new Map();
    for (const runtime of runtimes) {
      if (!(name in runtime.v8Flags)) continue;
      const value = formatDefault(runtime.v8Flags[name]);
      byValue.set(value, [...(byValue.get(value) || []), displayName(runtime.label || runtime.version)]);
    }
    if (byValue.size < 2) continue;
    const parts = [...byValue].map(([value, labels]) => `${value} on ${listNames(labels)}`);
    lines.push(terminalText(`  V8 flag default differs: --${name} is ${parts.join(', ')}`));
  }
  return lines.length ? `${lines.join('\n')}\n\n` : '';
}
