// What matrix, run and exec share around the engine: run and exec's matrix from the command line,
// the run, and what a run prints when it ends (report/formats.js RUN_END_FORMATS) with its exit code.
import path from 'node:path';
import { RUN_END_FORMATS } from './report/formats.js';
import { formatFrom, emit, wantsColor, addFormatOptions } from './output/emit.js';
import { exitCodeFor, runEngine } from './engine.js';
import { checkOutput } from './results/file.js';
import { createProgress } from './progress.js';
import { list, flagSetsFrom, resultPathFrom, newResultsFolderNote } from './arguments.js';
import { runWarningLines } from './render/run-warnings.js';

// run and exec: the runtimes and flag sets from --node and --flags around the given suites or
// commands, run into --out (or continued in the --resume file), printed.
export async function runFromCommandLine(opts, { suites = [], commands = [], run }) {
  const matrix = {
    runtimes: list(opts.node).map((spec) => ({ spec, label: null })),
    flagSets: flagSetsFrom(opts.flags),
    suites,
    commands,
    run,
    baseDir: process.cwd()
  };
  const render = runEndFormat(opts);
  const out = resultPathFrom(opts);
  // Before checkOutput, which makes the folder.
  const note = newResultsFolderNote(opts, out);
  checkOutput(out, { force: opts.force, resume: Boolean(opts.resume) });
  const progress = createProgress();
  if (note) progress.log(note);
  const outcome = await runEngine(matrix, { out, progress, refresh: opts.refresh, resume: Boolean(opts.resume) });
  process.exitCode = await printOutcome(outcome, { render, out, baseline: opts.baseline, color: opts.color, progress });
}

// The --format of matrix, run and exec: what they print when the run ends (their --out is the
// result file, and --json comes with the run options).
export const addRunEndFormat = (command) => addFormatOptions(command, RUN_END_FORMATS, { json: false, out: false });
export const runEndFormat = (opts) => formatFrom(RUN_END_FORMATS, opts);

// What a run prints on stdout (render: runEndFormat's, chosen before the run), then its warnings
// and last line on stderr; returns the exit code.
export async function printOutcome({ result, interrupted }, { render, out, baseline, color, summary: changesOnly, progress }) {
  await emit(render, result, { options: { baseline, summary: changesOnly, file: out, color: wantsColor({ color }) } });
  const counts = {};
  for (const cell of result.cells) counts[cell.status] = (counts[cell.status] || 0) + 1;
  const summary = Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ');
  for (const line of runWarningLines(result)) progress.log(line);
  progress.log(`${interrupted ? 'interrupted' : 'done'}: ${summary}; results in ${path.relative(process.cwd(), out) || out}`);
  return exitCodeFor(result, interrupted);
}
