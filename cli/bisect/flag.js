// Bisect on a V8 flag's default alone (bisect --flag): no benchmarks, each release's flag listing.
import { runtimeFlags } from '../flags/index.js';
import { findFlag } from '../flags/parse.js';
import { diffFlags, formatDefault } from '../flags/diff.js';
import { UserError } from '../errors.js';
import { log, stepsLeft, runtimeOf, loadState, searchWithState } from './search.js';

function changedGcDefaults(a, b) {
  return diffFlags(a.flags, b.flags).changed.slice(0, 12)
    .map((c) => `  --${c.name}: ${formatDefault(c.before)} -> ${formatDefault(c.after)}`);
}

export async function flagsDiffLines(lastGood, firstBad) {
  const a = await runtimeFlags(await runtimeOf(lastGood));
  const b = await runtimeFlags(await runtimeOf(firstBad));
  const { added, removed, changed } = diffFlags(a.flags, b.flags);
  return [`V8 flags from ${lastGood} to ${firstBad}: ${changed.length} default(s) changed, ${added.length} added, ${removed.length} removed${changed.length ? '; first the GC, compiler and memory ones:' : ''}`, ...changedGcDefaults(a, b)];
}

async function flagDefaultOf(version, flagName) {
  const runtime = await runtimeOf(version);
  const flag = findFlag((await runtimeFlags(runtime)).flags, flagName);
  return { runtime, value: flag ? flag.default : 'absent' };
}

// The first release where --flag's default is the bad end's. Returns the lines to print.
export async function bisectFlag(flag, versions, stateFile) {
  const flagName = flag.replace(/^-+/, '');
  const state = await loadState(stateFile, { kind: 'flag', flag: flagName, good: versions[0], bad: versions.at(-1) });
  const good = await flagDefaultOf(versions[0], flagName);
  const bad = await flagDefaultOf(versions.at(-1), flagName);
  const show = (v) => (v === 'absent' ? 'absent' : formatDefault(v));
  if (JSON.stringify(good.value) === JSON.stringify(bad.value)) {
    throw new UserError(`--${flagName} defaults to ${show(good.value)} on both ${versions[0]} and ${versions.at(-1)}; pick releases where it differs (see nodebench flags diff).`);
  }
  log(`bisect: --${flagName} is ${show(good.value)} on ${versions[0]} and ${show(bad.value)} on ${versions.at(-1)}; ${versions.length - 2} release(s) between, about ${stepsLeft(versions.length - 2)} step(s)`);
  const outcome = await searchWithState(versions, async (version) => {
    const { runtime, value } = await flagDefaultOf(version, flagName);
    const kind = JSON.stringify(value) === JSON.stringify(good.value) ? 'good' : 'bad';
    return { kind, summary: `--${flagName} ${show(value)}`, v8: runtime.v8, value };
  }, { state, file: stateFile });
  const first = await runtimeOf(outcome.firstBad);
  const last = await runtimeOf(outcome.lastGood);
  return [
    `first release with --${flagName} ${show(bad.value)}: Node ${first.version} (V8 ${first.v8}); the one before, Node ${last.version} (V8 ${last.v8}), has ${show(good.value)}`,
    ...(await flagsDiffLines(outcome.lastGood, outcome.firstBad))
  ];
}
