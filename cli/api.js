// The programmatic API (`import { runMatrix } from 'nodebench'`): what the CLI commands are built
// on, for tools that want results without parsing tables. Types: cli/api.d.ts.
import path from 'node:path';
import { loadMatrix, parseMatrix } from './matrix/load.js';
import { runEngine } from './engine.js';
import { readResult } from './results/file.js';
import { compareCells, pairedRatio, geomeanRatio } from './stats/compare.js';
import { renderTables } from './report/suite-tables.js';
import { DEFAULT_RUN, QUICK_RUN, RUN_OPTIONS, completeRun } from './options.js';
import { UserError } from './errors.js';

export { loadMatrix, parseMatrix, readResult as loadResult, compareCells as compare, pairedRatio, geomeanRatio, renderTables, DEFAULT_RUN, QUICK_RUN, RUN_OPTIONS, UserError };

const quiet = { log() {}, update() {}, done() {} };

// Runs a matrix (an object from loadMatrix/parseMatrix, or a path to a matrix file) and writes the
// result file to `out` (with resume: true, continues the interrupted run in `out`). Returns { result, interrupted }.
export async function runMatrix(matrix, { out, progress = quiet, run = {}, resume = false } = {}) {
  const loaded = typeof matrix === 'string' ? await loadMatrix(matrix) : matrix;
  if (!out) throw new UserError('runMatrix needs { out }: the path of the result file to write.');
  const baseDir = loaded.baseDir ?? (loaded.file ? path.dirname(loaded.file) : process.cwd());
  return runEngine({ ...loaded, baseDir, run: completeRun({ ...loaded.run, ...run }) }, { out, progress, resume, command: ['api', 'runMatrix'] });
}
