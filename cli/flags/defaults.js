// The V8 flag defaults a result file keeps per runtime: the flags the matrix's flag sets touch and
// the main GC flags, so that a reader sees when a default, not the code, changed between two
// runtimes (Node 16.0-16.13 shipped with concurrent marking off).
import { flagsOf } from './index.js';
import { findFlag, flagName } from './v8-options.js';

export const MAIN_GC_FLAGS = ['concurrent-marking', 'parallel-marking', 'parallel-scavenge', 'concurrent-sweeping', 'incremental-marking', 'max-semi-space-size', 'max-old-space-size'];

// { flag name: default } for one runtime; flags it does not have are left out.
export async function flagDefaults(runtime, flagSets) {
  const flags = await flagsOf(runtime);
  if (!flags) return undefined;
  const names = new Set([...MAIN_GC_FLAGS, ...flagSets.flatMap((s) => s.flags.map((f) => flagName(f).canonical))]);
  const defaults = {};
  for (const name of names) {
    const flag = findFlag(flags, `--${name}`);
    if (flag) defaults[flag.canonical] = flag.default;
  }
  return defaults;
}

const say = (value) => (value === true ? 'on' : value === false ? 'off' : String(value));

// Lines for under the tables: one per flag whose default differs between the run's runtimes.
export function defaultDifferences(runtimes) {
  const lines = [];
  const names = new Set(runtimes.flatMap((r) => Object.keys(r.v8Flags || {})));
  for (const name of names) {
    const having = runtimes.filter((r) => r.v8Flags && name in r.v8Flags);
    const values = new Set(having.map((r) => JSON.stringify(r.v8Flags[name])));
    if (having.length < 2 || values.size < 2) continue;
    const groups = [...values].map((v) => `${say(JSON.parse(v))} on ${having.filter((r) => JSON.stringify(r.v8Flags[name]) === v).map((r) => r.label).join(', ')}`);
    lines.push(`V8 default of --${name} differs: ${groups.join('; ')}`);
  }
  return lines;
}
