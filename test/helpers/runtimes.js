// Real runtimes for tests, installed by nodebench's own installer into the normal cache
// (~/.cache/nodebench, or NODEBENCH_CACHE) so that they are downloaded once and reused.
import { ensureRuntime } from '../../cli/runtimes/index.js';
import { launchWorker } from '../../cli/process/supervise.js';

export const OLDEST = '4.9.1';
export const TEST_RUNTIMES = { node4: '4.9.1', node6: '6', node14: '14', node16: '16', current: 'system' };

const memo = new Map();

export function testRuntime(spec) {
  if (!memo.has(spec)) memo.set(spec, ensureRuntime(spec, { log: (m) => process.stderr.write(`${m}\n`) }));
  return memo.get(spec);
}

// Runs worker/child.js in `spec`'s runtime and returns the report messages by type.
export async function runWorkerIn(spec, request, { flags = [], timeoutMs = 60_000, env } = {}) {
  const runtime = await testRuntime(spec);
  const launched = await launchWorker(runtime.path, flags, request, { timeoutMs, env });
  const byType = {};
  for (const m of launched.messages) byType[m.type] = m;
  return { ...launched, byType, runtime };
}

// The value one call of a benchmark produces (worker "once" mode), or throws with the worker's error.
export async function benchmarkValue(spec, suite, benchmark, params = {}) {
  const { byType, stderrTail, exitCode } = await runWorkerIn(spec, { mode: 'once', suite, benchmark, params });
  if (byType.value) return byType.value.value;
  if (byType.unsupported) return { unsupported: byType.unsupported.reason };
  throw new Error(`${suite}#${benchmark} on ${spec} failed: ${byType.error ? byType.error.message : `exit ${exitCode}: ${stderrTail}`}`);
}
