// Matrix -> plan: the runtimes (resolved to exact binaries), the suites (described), and the list of
// cells runtime x flag set x suite x benchmark, each already marked unsupported where the runtime is
// too old for the suite/benchmark or rejects the flags. Nothing here measures anything.
import semver from 'semver';
import { execa } from 'execa';
import { UserError } from '../errors.js';
import { createCell } from '../results/cell.js';
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

// Node refuses an option it does not know with exit code 9 ("bad option"); V8 flags added after a
// runtime's V8 version are refused the same way. Asked once per runtime and flag set.
export async function flagRejection(nodePath, version, flags) {
  if (!flags.length) return null;
  const result = await execa(nodePath, [...flags, '-e', '0'], { reject: false, timeout: 30_000, stdin: 'ignore', env: { NODE_OPTIONS: '' } });
  if (result.exitCode === 0) return null;
  const said = (result.stderr || '').split('\n').find((l) => l.trim()) || `exit code ${result.exitCode}`;
  const bad = /bad option: (\S+)/.exec(said);
  if (bad) return { status: 'unsupported', reason: `unsupported on Node ${version}: it rejects ${bad[1]} (bad option)` };
  return { status: 'failed', reason: `Node ${version} will not start with ${flags.join(' ')}: ${said.trim()}` };
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
      const rejected = await flagRejection(runtime.path, runtime.version, flagSet.flags);
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
