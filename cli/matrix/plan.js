// Matrix -> plan: the runtimes (resolved to exact binaries), the suites (described), and the list of
// cells runtime x flag set x suite x benchmark, each already marked unsupported where the runtime is
// too old for the suite/benchmark or rejects the flags. Nothing here measures anything.
import semver from 'semver';
import { UserError } from '../errors.js';
import { runtimeFlagsOrNull, describeRuntime } from '../flags/index.js';
import { findFlag, canonicalFlagName } from '../flags/parse.js';
import { ensureRuntime } from '../runtimes/index.js';
import { ensureRuntimeNpm } from '../runtimes/runtime-npm.js';
import { parseKnownRuntimeSpec } from '../runtimes/spec.js';
import { describeSuite, expandSuiteEntries, suiteFile, builtInSuites } from './discover-suites.js';
import { createCell } from '../results/cell.js';
import { runToExit } from '../process/run-to-exit.js';

function needsNewer(runtimeVersion, minNode) {
  return minNode && !semver.gte(runtimeVersion, semver.coerce(minNode) || '0.0.0');
}

export function unsupportedReason(runtimeVersion, suite, benchmark) {
  for (const [minNode, reason] of [[suite.minNode, suite.reason], [benchmark.minNode, benchmark.reason]]) {
    if (needsNewer(runtimeVersion, minNode)) {
      return `unsupported on Node ${runtimeVersion} (needs >= ${minNode})${reason ? `: ${reason}` : ''}`;
    }
  }
  return null;
}

// What a runtime printed when it would not start, without V8's '#' frame and stack addresses; a
// failed CHECK names the cause better than the "Fatal error in , line 0" above it.
function startupMessage(stderr, exitCode) {
  const lines = String(stderr || '').split('\n')
    .map((l) => l.replace(/^#\s*/, '').trim())
    .filter((l) => l && !/^\d+: 0x|^FailureMessage Object|^----- Native stack/.test(l));
  return lines.find((l) => /^Check failed|^Fatal error: /.test(l)) || lines[0] || `exit code ${exitCode}`;
}

// Flags are checked against the runtime's own --v8-options listing (either spelling, - or _), then
// tried once per runtime and flag set: Node refuses an option it does not know with exit code 9
// ("bad option"), and a flag that is listed but compiled out aborts V8 at start. Flags absent from
// the listing that Node still accepts are Node's own options (--expose-gc, --no-warnings).
export async function flagRejection(runtime, flags, listing) {
  if (!flags.length) return null;
  const result = await runToExit(runtime.path, [...flags, '-e', '0']).catch((err) => ({ exitCode: null, stderr: err.message }));
  if (result.exitCode === 0) return null;
  const who = runtime.v8 ? describeRuntime(runtime) : `Node ${runtime.version}`;
  // A flag the runtime has, given a value it refuses: the user's value to fix, in V8's words.
  const illegal = /illegal value for flag (\S+)(?: of type (\S+))?/.exec(result.stderr || '');
  if (illegal) {
    return { status: 'failed', reason: `${who} refuses the value of ${illegal[1]}${illegal[2] ? ` (V8 expects type ${illegal[2]})` : ''}; fix the flag set's value` };
  }
  const missing = listing ? flags.filter((f) => f.startsWith('-') && !findFlag(listing.flags, f)) : [];
  const bad = /bad option: (\S+)/.exec(result.stderr || '');
  if (bad || missing.length) {
    const named = missing.find((f) => bad && canonicalFlagName(f) === canonicalFlagName(bad[1])) || missing[0] || bad[1];
    return { status: 'unsupported', reason: `${who} has no flag ${named.replace(/=.*$/, '')}` };
  }
  return { status: 'failed', reason: `${who} will not start with ${flags.join(' ')}: ${startupMessage(result.stderr, result.exitCode)}` };
}

// The GC flags whose defaults have moved between Node releases and changed benchmark results.
export const MAIN_GC_FLAGS = ['concurrent-marking', 'parallel-marking', 'concurrent-sweeping', 'parallel-scavenge', 'incremental-marking', 'minor-mc', 'single-threaded-gc', 'max-semi-space-size', 'max-old-space-size'];

function flagDefaults(listing, flagSets) {
  const defaults = {};
  for (const written of [...MAIN_GC_FLAGS, ...flagSets.flatMap((f) => f.flags)]) {
    const flag = findFlag(listing.flags, written);
    if (flag) defaults[flag.name] = flag.default;
  }
  return defaults;
}

export async function resolveRuntimes(entries, { log, refresh, env } = {}) {
  // Every spec is read before the first is installed, so a typo in the last costs no download.
  const specs = entries.map((entry) => parseKnownRuntimeSpec(entry.spec));
  const runtimes = [];
  for (const [i, entry] of entries.entries()) {
    const resolved = await ensureRuntime(specs[i], { log, refresh, env, provider: entry.provider });
    const runtime = { ...resolved, label: entry.label || resolved.version };
    if (runtimes.some((r) => r.label === runtime.label)) {
      throw new UserError(`Runtimes "${runtimes.find((r) => r.label === runtime.label).spec}" and "${entry.spec}" are both Node ${runtime.version}; list it once, or give them different labels with different flag sets.`);
    }
    runtimes.push(runtime);
  }
  return runtimes;
}

// timeoutSec: how long a suite may take to load (run.timeoutSec, the cells' own limit).
export async function describeSuites(entries, baseDir, { timeoutSec } = {}) {
  const suites = [];
  // Every path is checked before any suite is loaded: a FIFO among them is refused at once.
  const files = expandSuiteEntries(entries).map((entry) => [entry, suiteFile(entry.name, baseDir)]);
  for (const [entry, file] of files) {
    const described = await describeSuite(file, { timeoutSec });
    const names = described.benchmarks.map((b) => b.name);
    const wanted = entry.benchmarks || names;
    const missing = wanted.filter((b) => !names.includes(b));
    if (missing.length) {
      throw new UserError(`Suite "${described.name}" has no benchmark ${missing.map((m) => `"${m}"`).join(', ')}; it has ${names.join(', ')}.`);
    }
    // `as`: a name the host gives the suite (diff --confirm runs two versions of one suite, whose
    // files name themselves alike, side by side); matrix files cannot set it (matrix/load.js).
    suites.push({ ...described, name: entry.as || described.name, file, params: { ...described.params, ...entry.params }, selected: wanted });
  }
  return suites;
}

// A flag set with `suites` (matrix.yaml) is planned only for those suites.
const appliesTo = (flagSet, suite) => !flagSet.suites || flagSet.suites.includes(suite.name);

// A suite name a flag set lists must be one this matrix could run; a typo would silently plan nothing.
function checkFlagSetSuites(flagSets, suites) {
  const known = new Set([...builtInSuites(), ...suites.map((s) => s.name)]);
  for (const flagSet of flagSets) {
    const unknown = (flagSet.suites || []).filter((name) => !known.has(name));
    if (unknown.length) {
      throw new UserError(`Flag set "${flagSet.name}" lists suite ${unknown.map((n) => `"${n}"`).join(', ')}, which does not exist; suites are ${[...known].join(', ')}.`);
    }
  }
}

// What instructions counted under valgrind cannot measure (cli/measure.js), per suite and flag set:
// valgrind runs a process's threads one at a time, so a flag set whose effect is concurrent or
// parallel work (concurrent marking, parallel scavenges, concurrent compilation) would show as a
// number that is not its effect; a service or a whole command is more than one process and waits
// on the network or the kernel, which the count leaves out. Null when it can be counted.
export function notCountable(suite, flagSet) {
  if (suite.kind === 'service') return 'not measurable in instructions: a service benchmark is a server and a load generator in two processes that wait on the network; measure it in time';
  if (suite.kind === 'command') return 'not measurable in instructions: a whole command runs many processes and waits on the kernel and the disk; measure it in time';
  const concurrent = (flagSet.flags || []).find((f) => /concurrent|parallel/.test(f));
  if (concurrent) return `not measurable in instructions: ${concurrent} changes concurrent work, and valgrind runs a process's threads one at a time (V8's GC is made single-threaded too); measure this flag set in time`;
  return null;
}

// measure: the run's (cli/measure.js); cells instructions cannot measure are planned unsupported, with why.
export async function buildPlan({ runtimes, flagSets, suites, measure = 'time', log = () => {} }) {
  checkFlagSetSuites(flagSets, suites);
  const cells = [];
  const commands = suites.some((s) => s.kind === 'command');
  for (const runtime of runtimes) {
    // A command's npm and npx are the runtime's own (runtime-npm.js), installed before anything runs.
    if (commands) runtime.npm = await ensureRuntimeNpm(runtime, { log });
    const listing = await runtimeFlagsOrNull(runtime, log);
    // The result file keeps these defaults so a report can say when runtimes of one run differ.
    if (listing) runtime.v8Flags = flagDefaults(listing, flagSets);
    for (const flagSet of flagSets) {
      const rejected = await flagRejection(runtime, flagSet.flags, listing);
      for (const suite of suites.filter((s) => appliesTo(flagSet, s))) {
        for (const benchmark of suite.benchmarks.filter((b) => suite.selected.includes(b.name))) {
          const tooOld = unsupportedReason(runtime.version, suite, benchmark) || (measure === 'instructions' ? notCountable(suite, flagSet) : null);
          const reason = rejected ? rejected.reason : tooOld;
          cells.push(createCell({
            id: cells.length, runtime, flagSet, suite, benchmark, perProcess: suite.perProcess, measure,
            status: rejected ? rejected.status : tooOld ? 'unsupported' : 'pending',
            error: reason
          }));
        }
      }
    }
  }
  return cells;
}
