// A suite file as the worker sees it in a real runtime: `list` describes it (mode list), `once` calls
// one benchmark once (mode once) and collects the `hook:` lines a fixture prints on stderr.
import { runWorkerIn } from './runtimes.js';

export async function list(spec, file) {
  const { byType, stderrTail } = await runWorkerIn(spec, { mode: 'list', suite: file });
  if (byType.suite) return byType.suite.suite;
  if (byType.unsupported) return { unsupported: byType.unsupported.reason };
  if (byType.error) return { error: byType.error.message };
  throw new Error(`list of ${file} on ${spec} said nothing: ${stderrTail}`);
}

export async function once(spec, file, benchmark) {
  const launched = await runWorkerIn(spec, { mode: 'once', suite: file, benchmark });
  const hooks = launched.stderrTail.split('\n').filter((l) => l.startsWith('hook:')).map((l) => l.slice(5));
  const { byType } = launched;
  if (byType.value) return { value: byType.value.value, hooks };
  if (byType.unsupported) return { unsupported: byType.unsupported.reason, hooks };
  if (byType.error) return { error: byType.error.message, phase: byType.error.phase, hooks };
  throw new Error(`${file}#${benchmark} on ${spec} said nothing: exit ${launched.exitCode} ${launched.stderrTail}`);
}
