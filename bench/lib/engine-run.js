// One invocation of nodebench's engine (runMatrix, the same call `nodebench run` makes) on the
// harness's fixture suite, writing its result file to the harness's temporary directory.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runEngine as runMatrix } from '../../cli/engine.js';
import { createProgress } from '../../cli/progress.js';

const benchDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WORK_SUITE = path.join(benchDir, 'fixtures', 'work.js');

let counter = 0;

// benchmarks: names in bench/fixtures/work.js (or in `suite`, another suite file). run: run options over DEFAULT_RUN (empty = the
// default budget). Metrics processes are off: they never feed timing figures, and they would
// double the time of every invocation here. Returns { cells: name -> cell, wallMs, result }.
export async function invokeEngine({ runtime = process.execPath, suite = WORK_SUITE, benchmarks, run = {}, seed, dir, name = 'run' }) {
  const out = path.join(dir, `${String(++counter).padStart(4, '0')}-${name}.json`);
  const matrix = {
    runtimes: [{ spec: runtime, label: null }],
    flagSets: [{ name: 'baseline', flags: [] }],
    suites: [{ name: suite, benchmarks, params: {} }],
    run: { ...run, metrics: false, ...(seed === undefined ? {} : { seed }) },
    baseDir: benchDir
  };
  const started = Date.now();
  const { result, interrupted } = await runMatrix(matrix, { out, progress: createProgress({ quiet: true }), command: ['bench:harness', name] });
  const wallMs = Date.now() - started;
  if (interrupted) throw new Error('interrupted');
  const cells = {};
  for (const cell of result.cells) {
    if (cell.status !== 'ok') throw new Error(`${cell.benchmark} on ${cell.runtime}: ${cell.status}: ${cell.error}`);
    cells[cell.benchmark] = cell;
  }
  return { cells, wallMs, result };
}
