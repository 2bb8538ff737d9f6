// What changed in the V8 flags between two runtimes. GC, compiler and memory flags come first: they
// are the ones whose defaults move benchmark results.
const GROUPS = [
  ['gc', /(^|-)(gc|marking|sweep|sweeping|scavenge|scavenger|compaction|compact|minor-mc|mark|incremental|cppheap|memory-reducer|finalization)(-|$)|gc/],
  ['compiler', /turbo|opt|sparkplug|maglev|ignition|jit|inline|osr|lazy|compile|deopt|baseline|tier|interrupt-budget/],
  ['memory', /(^|-)(space|heap|memory|page|pages|stack|semi|zone|allocation)(-|$)/]
];

// WebAssembly and language-feature flags say "gc" or "space" without being about the JS heap.
const NOT_HEAP_OR_COMPILER = /^(harmony|experimental-wasm|wasm|js-)/;

export function flagGroup(name) {
  if (NOT_HEAP_OR_COMPILER.test(name)) return 'other';
  for (const [group, pattern] of GROUPS) if (pattern.test(name)) return group;
  return 'other';
}

const groupRank = (name) => {
  const index = GROUPS.findIndex(([group]) => group === flagGroup(name));
  return index === -1 ? GROUPS.length : index;
};

const byGroupThenName = (a, b) => groupRank(a.name) - groupRank(b.name) || a.name.localeCompare(b.name);

export function diffFlags(before, after) {
  const old = new Map(before.map((f) => [f.name, f]));
  const now = new Map(after.map((f) => [f.name, f]));
  const added = after.filter((f) => !old.has(f.name)).sort(byGroupThenName);
  const removed = before.filter((f) => !now.has(f.name)).sort(byGroupThenName);
  const changed = after
    .filter((f) => old.has(f.name) && JSON.stringify(old.get(f.name).default) !== JSON.stringify(f.default))
    .map((f) => ({ name: f.name, type: f.type, description: f.description, before: old.get(f.name).default, after: f.default }))
    .sort(byGroupThenName);
  return { added, removed, changed };
}

export function formatDefault(value) {
  if (value === true) return 'on';
  if (value === false) return 'off';
  if (value === null) return 'unset';
  return JSON.stringify(value);
}
