// The command line's values, parsed once for every command: lists, whole and positive numbers, the
// runtimes and flag sets of run and exec, --resume and the result file it names.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from './errors.js';
import { defaultResultPath } from './results/file.js';
import { runOptionsFrom as fileAndCommandLine, addRunOptions } from './options.js';

export const list = (value) => String(value).split(',').map((s) => s.trim()).filter(Boolean);

export function positiveInt(name) {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new UserError(`--${name} must be a whole number of at least 1, not "${value}".`);
    return n;
  };
}

export function positiveNumber(name) {
  return (value) => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) throw new UserError(`--${name} must be a positive number, not "${value}".`);
    return n;
  };
}

export function nonNegativeInt(name) {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new UserError(`--${name} must be a whole number, not "${value}".`);
    return n;
  };
}

const collect = (value, previous = []) => [...previous, value];

// The runtimes and flag sets of the commands that take them on the command line (run, exec), and
// --resume, which every command that runs benchmarks takes.
export function addRuntimeOptions(command) {
  return addResumeOption(command
    .option('--node <specs>', 'comma-separated runtimes, e.g. 14,16 or lts,system', 'system')
    .option('--flags <flags>', 'V8/Node flags for an extra flag set, compared with no flags; repeat for more sets', collect));
}

export function addResumeOption(command) {
  return command.option('--resume <file>', 'continue the run in this result file, interrupted or killed: give the command that started it, plus --resume; finished processes are kept and only what is missing runs');
}

// The result file a run writes: --out, or the file --resume continues in place.
export function resultPathFrom(opts) {
  if (opts.resume && opts.out) throw new UserError('--resume continues its file in place; leave out --out (copy the file first to keep the unfinished one).');
  return path.resolve(opts.resume || opts.out || defaultResultPath());
}

// "--max-semi-space-size=64 --no-opt" -> one flag set; split on white space, never through a shell.
export function flagSetsFrom(values) {
  const sets = [{ name: 'baseline', flags: [] }];
  for (const value of values || []) {
    const flags = value.split(/\s+/).filter(Boolean);
    const bad = flags.find((f) => !f.startsWith('--'));
    if (bad) throw new UserError(`Flag "${bad}" in --flags must start with --, e.g. --flags "--max-semi-space-size=64".`);
    if (flags.length) sets.push({ name: flags.join(' '), flags });
  }
  return sets;
}

export { addRunOptions };

// The run options: the command line over a file's (options.js), and what two options on the
// command line mean that the file's would otherwise overrule (issue 39):
//   --processes N without --max-processes: N processes a cell, as said; the file's or the default
//     maxProcesses topped cells up past it (--processes 3 kept 8);
//   --quick: a fast look, without the file's time budget ("time budget ends in 18m30s" on a run of
//     seconds); --time-budget keeps one.
export function runOptionsFrom(fileRun, opts) {
  const { timeBudgetMin, ...withoutBudget } = fileRun || {};
  const run = fileAndCommandLine(opts.quick && timeBudgetMin !== undefined ? withoutBudget : fileRun || {}, opts);
  if (opts.processes !== undefined && opts.maxProcesses === undefined) run.maxProcesses = opts.processes;
  return run;
}

// A sentence for a run that makes the default result folder (./results/) in the current folder, said
// before it does: run and exec are run inside a user's own project. null when --out or --resume
// names the file, or the folder is there already.
export function newResultsFolderNote(opts, out) {
  const folder = path.dirname(out);
  if (opts.out || opts.resume || fs.existsSync(folder)) return null;
  return `writing the result to ${path.relative(process.cwd(), out)}: a new folder ${path.relative(process.cwd(), folder)}/ in ${process.cwd()}; --out FILE writes elsewhere`;
}
