// Matrix -> plan: the runtimes (resolved to exact binaries), the suites (described), and the list of
// cells runtime x flag set x suite x benchmark, each already marked unsupported where the runtime is
// too old for the suite/benchmark or rejects the flags. Nothing here measures anything.
import semver from 'semver';
import { execa } from 'execa';
import { UserError } from '../errors.js';
import { createCell } from '../results/cell.js';
import { flagsOf } from '../flags/index.js';
import { findFlag } from '../flags/v8-options.js';
import { ensureRuntime } from '../runtimes/index.js';
import { describeSuite, expandSuiteEntries, suiteFile } from './discover-suites.js';

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

// Each flag of a flag set is checked against the runtime's own V8 flag list (cli/flags, either
// spelling), then the runtime is started once with the whole set (`node <flags> -e 0`): a flag the
// runtime does not have makes its cells unsupported, saying so; a flag it lists but cannot enable
// (the process aborts at start) fails them with the runtime's own message, before any benchmark runs.
export async function flagRejection(runtime, flags) {
  if (!flags.length) return null;
  const v8 = runtime.v8 ? ` (V8 ${String(runtime.v8).split('.').slice(0, 2).join('.')})` : '';
  const result = await execa(runtime.path, [...flags, '-e', '0'], { reject: false, timeout: 30_000, stdin: 'ignore', env: { NODE_OPTIONS: '' } });
  if (result.exitCode === 0) return null;
  const said = (result.stderr || '').split('\n').find((l) => l.trim()) || `exit code ${result.exitCode}`;
  const bad = /bad option: (\S+)/.exec(said);
  if (bad) {
    const known = await flagsOf(runtime);
    const missing = known ? flags.filter((f) => f.startsWith('--') && !findFlag(known, f)) : [];
    const named = missing.length ? missing.map((f) => f.split('=')[0]).join(', ') : bad[1];
    return { status: 'unsupported', reason: `unsupported: Node ${runtime.version}${v8} has no flag ${named}` };
  }
  return { status: 'failed', reason: `Node ${runtime.version}${v8} will not start with ${flags.join(' ')}: ${said.trim()}` };
}

export async function resolveRuntimes(entries, { log, refresh, env } = {}) {
  const runtimes = [];
  for (const entry of entries) {
    const resolved = await ensureRuntime(entry.spec, { log, refresh, env });
    const runtime = { ...resolved, spec: entry.spec, label: entry.label || resolved.version };
    if (runtimes.some((r) => r.label === runtime.label)) {
      throw new UserError(`Runtimes "${runtimes.find((r) => r.label === runtime.label).spec}" and "${entry.spec}" are both Node ${runtime.version}; list it once, or give them different labels with different flag sets.`);
    }
    runtimes.push(runtime);
  }
  return runtimes;
}

export async function describeSuites(entries, baseDir) {
  const suites = [];
  for (const entry of expandSuiteEntries(entries)) {
    const file = suiteFile(entry.name, baseDir);
    const described = await describeSuite(file);
    const names = described.benchmarks.map((b) => b.name);
    const wanted = entry.benchmarks || names;
    const missing = wanted.filter((b) => !names.includes(b));
    if (missing.length) {
      throw new UserError(`Suite "${described.name}" has no benchmark ${missing.map((m) => `"${m}"`).join(', ')}; it has ${names.join(', ')}.`);
    }
    suites.push({ ...described, file, params: { ...described.params, ...entry.params }, selected: wanted });
  }
  return suites;
}

export async function buildPlan({ runtimes, flagSets, suites }) {
  const cells = [];
  for (const runtime of runtimes) {
    for (const flagSet of flagSets) {
      const rejected = await flagRejection(runtime, flagSet.flags);
      for (const suite of suites) {
        for (const benchmark of suite.benchmarks.filter((b) => suite.selected.includes(b.name))) {
          const tooOld = unsupportedReason(runtime.version, suite, benchmark);
          const reason = rejected ? rejected.reason : tooOld;
          cells.push(createCell({
            id: cells.length, runtime, flagSet, suite, benchmark, perProcess: suite.perProcess,
            status: rejected ? rejected.status : tooOld ? 'unsupported' : 'pending',
            error: reason
          }));
        }
      }
    }
  }
  return cells;
}
