// The command line's values, parsed once for every command: lists, whole and positive numbers, the
// runtimes and flag sets of run and exec, --resume and the result file it names.
import path from 'node:path';
import { UserError } from './errors.js';
import { defaultResultPath } from './results/file.js';

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

export { runOptionsFrom, addRunOptions } from './options.js';
