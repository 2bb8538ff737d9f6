// Runs one of the doctor's fixture benchmarks in fresh worker processes of the runtime under test,
// through the real worker (worker/child.js + worker/sampler.js) and launcher: the doctor measures
// nodebench exactly as `nodebench matrix` would, not a copy of it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchWorker } from '../process/supervise.js';
import { interpretLaunch } from '../runner/outcome.js';
import { summarize } from '../stats/summary.js';
import { DEFAULT_RUN, samplerOptions } from '../options.js';
import { processRecord } from '../results/cell.js';
import { reportedVersionProblem } from '../runtimes/verify.js';
import { UserError } from '../errors.js';

export const fixturesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'worker', 'fixtures');

export const FIXTURES = {
  empty: { file: path.join(fixturesDir, 'empty.js'), benchmark: 'empty' },
  fixedWork: { file: path.join(fixturesDir, 'fixed-work.js'), benchmark: 'fixed-work' }
};

// Measures `fixture` in `processes` worker processes, one after another (as the runner does:
// parallel processes would compete for the cores). Returns the per-process records, the summary
// (stats/summary.js) and what the worker said about itself.
export async function measureFixture(runtime, fixture, { processes, sampler = samplerOptions(), timeoutMs = DEFAULT_RUN.timeoutSec * 1000, params = {}, onProcess = () => {} }) {
  const records = [];
  let hello = null;
  for (let i = 0; i < processes; i++) {
    const launched = await launchWorker(runtime.path, [], {
      mode: 'run', suite: fixture.file, benchmark: fixture.benchmark, params, sampler
    }, { timeoutMs, cwd: path.dirname(fixture.file) });
    const outcome = interpretLaunch(launched, { timeoutMs });
    if (outcome.status !== 'ok') {
      throw new Error(`the ${fixture.benchmark} probe ${outcome.status} on Node ${runtime.version}: ${outcome.error}`);
    }
    // The doctor's figures are about the runtime it names: a binary that runs as another is refused.
    const problem = reportedVersionProblem(runtime, outcome.hello?.runtime?.node);
    if (problem) throw new UserError(`${problem[0].toUpperCase()}${problem.slice(1)}.`);
    hello = hello || outcome.hello?.runtime || null;
    records.push(processRecord(i, outcome.result, launched.wallMs));
    onProcess(i + 1, processes);
  }
  return { records, summary: summarize(records), runtimeInfo: hello };
}
