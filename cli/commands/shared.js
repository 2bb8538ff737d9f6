// Option parsing shared by the commands that run benchmarks.
import { UserError } from '../errors.js';
import { validateRunOptions } from '../matrix/load.js';
import { QUICK_RUN } from '../engine.js';

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

// CLI options win over the file's run options; --quick sits between the two.
export function runOptionsFrom(fileRun, opts) {
  const run = { ...fileRun, ...(opts.quick ? QUICK_RUN : {}) };
  if (opts.processes !== undefined) run.processes = opts.processes;
  if (opts.samples !== undefined) run.samples = opts.samples;
  if (opts.maxProcesses !== undefined) run.maxProcesses = opts.maxProcesses;
  if (opts.targetRme !== undefined) run.targetRme = opts.targetRme;
  if (opts.timeout !== undefined) run.timeoutSec = opts.timeout;
  if (opts.seed !== undefined) run.seed = opts.seed;
  return validateRunOptions(run, (key, message) => { throw new UserError(`${message}.`); });
}

export function addRunOptions(command) {
  return command
    .option('--quick', 'a fast look: 1 process per cell and short samples (less precise)')
    .option('--processes <n>', 'fresh processes per cell (default 6; the shipped matrix.yaml says 3)', positiveInt('processes'))
    .option('--max-processes <n>', 'add processes (up to n) to cells whose margin is above --target-rme (default 10)', positiveInt('max-processes'))
    .option('--target-rme <percent>', 'wanted ±95% margin of a cell, in percent (default 5)', positiveNumber('target-rme'))
    .option('--samples <n>', 'timed samples per process (default 10)', positiveInt('samples'))
    .option('--timeout <seconds>', 'kill a process that runs longer than this (default 120)', positiveInt('timeout'))
    .option('--seed <n>', 'seed of the shuffled launch order (default: random, recorded)', nonNegativeInt('seed'))
    .option('--out <file>', 'result file (default results/<timestamp>-<host>.json)')
    .option('--json', 'print the result JSON on stdout instead of tables')
    .option('--baseline <column>', 'column the ratios compare to, "<runtime>/<flag set>" (default: first runtime, baseline flags)')
    .option('--refresh', 'ask the registry for the newest versions even if the cached list is recent')
    .option('--no-color', 'plain output even on a terminal');
}
