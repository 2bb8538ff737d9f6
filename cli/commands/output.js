// What a benchmarking command prints when it is done: tables (or JSON) on stdout.
import path from 'node:path';
import { renderTerminal } from '../report/terminal.js';
import { chooseFormat, emit, wantsColor } from '../output/emit.js';
import { exitCodeFor, runEngine } from '../engine.js';
import { checkOutput } from '../results/file.js';
import { createProgress } from '../progress.js';
import { list, flagSetsFrom, resultPathFrom, newResultsFolderNote } from './shared.js';
import { runWarningLines } from '../render/run-warnings.js';

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
  const out = resultPathFrom(opts);
  // Before checkOutput, which makes the folder.
  const note = newResultsFolderNote(opts, out);
  checkOutput(out, { force: opts.force, resume: Boolean(opts.resume) });
  const progress = createProgress();
  if (note) progress.log(note);
  const outcome = await runEngine(matrix, { out, progress, refresh: opts.refresh, resume: Boolean(opts.resume) });
  process.exitCode = await printOutcome(outcome, { out, json: opts.json, baseline: opts.baseline, color: opts.color, progress });
}

// What a run prints on stdout: its tables, or (--json) the result itself.
const RUN_FORMATS = {
  // The run's warnings go to stderr with its last line (below), not twice.
  table: (result, options) => `${renderTerminal(result, { ...options, runWarnings: false })}\n`,
  json: (result) => `${JSON.stringify(result, null, 1)}\n`
};

export async function printOutcome({ result, interrupted }, { out, json, baseline, color, summary: changesOnly, progress }) {
  await emit(chooseFormat(RUN_FORMATS, json ? 'json' : 'table'), result, { options: { baseline, summary: changesOnly, file: out, color: wantsColor({ color }) } });
  const counts = {};
  for (const cell of result.cells) counts[cell.status] = (counts[cell.status] || 0) + 1;
  const summary = Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ');
  for (const line of runWarningLines(result)) progress.log(line);
  progress.log(`${interrupted ? 'interrupted' : 'done'}: ${summary}; results in ${path.relative(process.cwd(), out) || out}`);
  return exitCodeFor(result, interrupted);
}
