// The one table of run options. Matrix validation, the defaults, the --quick budget, the worker's
// sampler options, the commander options of `matrix` and `run`, and the reference table in
// docs/matrix.md are all derived from it (test/options.test.js checks the docs against it).
//   name      key in matrix.yaml's `run:` and in the result file's `run`
//   type      integer | number | boolean | string;  min/max: accepted range
//   default   the default budget (undefined: none, e.g. a random seed)
//   quick     the value under --quick, when it differs
//   sampler   passed to the worker's sampler (worker/sampler.js)
//   cli       the commander flag, when the option has one;  parse: how its text becomes a value
//   help      one line for --help and the docs;  doc: the default as the docs show it, when it is not a plain value
import { UserError } from './errors.js';

export const RUN_OPTIONS = [
  { name: 'processes', type: 'integer', min: 1, max: 100, default: 5, quick: 1, cli: '--processes <n>',
    help: 'fresh processes per cell (the unit of the confidence interval)' },
  { name: 'maxProcesses', type: 'integer', min: 1, max: 100, default: 8, quick: 1, cli: '--max-processes <n>',
    help: 'most kept processes per cell while its margin is above targetRme (for a cell of the run\'s median process cost; cheaper cells may keep more: cheapFactor)' },
  { name: 'cheapFactor', type: 'number', min: 1, max: 20, default: 3,
    help: 'a cell whose processes cost less than the run\'s median may keep up to maxProcesses × (median cost / its cost), at most this many times maxProcesses: the same seconds buy it more processes; 1 gives every cell maxProcesses' },
  { name: 'targetRme', type: 'number', min: 0.1, max: 100, default: 3, cli: '--target-rme <percent>',
    help: 'wanted ±95% margin of a cell, in percent; more processes until met or maxProcesses' },
  { name: 'topUp', type: 'string', values: ['margin', 'decision'], default: 'margin', cli: '--top-up <rule>',
    help: 'where processes beyond `processes` go: margin (cells above targetRme) or decision (cells whose ratio to the baseline is still undecided: neither faster/slower at the false discovery rate nor the same within ±2%)' },
  { name: 'timeBudgetMin', type: 'number', min: 0.01, max: 100000, cli: '--time-budget <minutes>', cliKey: 'timeBudget', doc: 'none',
    help: 'minutes of measuring (installs not counted): the first `processes` rounds and the metrics processes always run; replacements of disturbed processes and top-ups only while they fit, the most precision per second first' },
  { name: 'samples', type: 'integer', min: 1, max: 10000, default: 10, quick: 5, sampler: true, cli: '--samples <n>',
    help: 'timed samples per process' },
  { name: 'minSampleMs', type: 'number', min: 0.1, max: 60000, default: 10, quick: 5, sampler: true,
    help: 'minimum duration of one sample in ms (a suite may ask for longer)' },
  { name: 'warmupMinMs', type: 'number', min: 0, max: 600000, default: 50, quick: 20, sampler: true,
    help: 'minimum warm-up in ms' },
  { name: 'warmupMaxMs', type: 'number', min: 0, max: 600000, default: 1000, quick: 300, sampler: true,
    help: 'warm-up cap in ms' },
  { name: 'maxSampleMs', type: 'number', min: 1, max: 3600000, default: 2000, quick: 1000, sampler: true,
    help: 'sampling time cap per process in ms (at least minSamples samples are taken): slow benchmarks get fewer samples, not longer processes' },
  { name: 'minSamples', type: 'integer', min: 1, max: 10000, default: 3, quick: 1, sampler: true,
    help: 'samples a process takes however long they run (when maxSampleMs runs out first); --quick takes 1, so an operation of seconds costs one sample, not three' },
  { name: 'timeoutSec', type: 'number', min: 1, max: 86400, default: 120, cli: '--timeout <seconds>', cliKey: 'timeout',
    help: 'per-process time limit in s; a process running longer is killed with its process group' },
  { name: 'rerunDisturbed', type: 'boolean', default: true,
    help: 'set aside a process that ran while the machine was disturbed (slow clock reads, steal or run-queue time) and run a replacement' },
  { name: 'disturbancePct', type: 'number', min: 1, max: 1000, default: 10,
    help: 'how much of a sample may go to run-queue waits, or of a CPU to steal, before it counts as disturbed, in percent; a process\'s reference (clock reads) counts as slow when it runs more than this or 25% (whichever is larger) over the quiet reading: its cell\'s quiet processes, or its runtime\'s fast mode in this run where that is lower' },
  { name: 'pairing', type: 'string', values: ['sequential', 'duet', 'concurrent'], default: 'sequential', cli: '--pairing <mode>',
    help: 'how processes share the machine: sequential (one at a time), duet (a row\'s baseline and one other cell at once, one per core, compared as pairs), concurrent (two unrelated processes at once); docs/precision.md has what each buys' },
  { name: 'seed', type: 'integer', min: 0, max: 2 ** 31 - 1, cli: '--seed <n>', doc: 'random',
    help: 'seed of the shuffled launch order (recorded in the result file)' },
  { name: 'baseline', type: 'string', cli: '--baseline <column>', doc: 'first runtime / `baseline`',
    help: 'the column ratios compare to, "<runtime label>/<flag set>"' },
  { name: 'metrics', type: 'boolean', default: true, quick: false,
    help: 'extra processes per cell for GC, CPU, event-loop delay and memory (run.metricsProcesses)' },
  { name: 'metricsMs', type: 'number', min: 50, max: 600000, default: 1000, quick: 300,
    help: 'length of the metrics window in ms' },
  { name: 'metricsProcesses', type: 'integer', min: 1, max: 50, default: 1,
    help: 'metrics processes per cell (a suite whose findings are its metrics, such as gc, asks for more); two or more give each metric a 95% interval' },
  { name: 'measure', type: 'string', values: ['time', 'instructions'], default: 'time', cli: '--measure <measure>',
    help: 'what a cell\'s value is: time (ns per operation, what users feel; the host moves it) or instructions (counted under valgrind, Linux only: exact on any host, blind to the kernel, waiting and concurrency); docs/instructions.md' },
  { name: 'cacheSim', type: 'boolean', default: false, cli: '--cache-sim',
    help: 'with --measure instructions: simulate fixed L1 and last-level caches (callgrind --cache-sim=yes, about twice as slow) and keep each batch\'s misses and an estimated cycle count per operation beside the instructions; docs/instructions.md' }
];

// Under --measure instructions a count repeats to a few parts per million, so two processes per cell
// catch one that varies; replacements, top-ups, a time budget and metrics windows are time's answers
// to a noisy host. These replace the file's run options; options given on the command line still win.
export const INSTRUCTIONS_RUN = { processes: 2, maxProcesses: 2, rerunDisturbed: false, metrics: false, timeBudgetMin: undefined, samples: 5, timeoutSec: 1200, pairing: 'concurrent' };

const BY_NAME = new Map(RUN_OPTIONS.map((o) => [o.name, o]));

export const DEFAULT_RUN = Object.fromEntries(RUN_OPTIONS.filter((o) => o.default !== undefined).map((o) => [o.name, o.default]));
export const QUICK_RUN = Object.fromEntries(RUN_OPTIONS.filter((o) => o.quick !== undefined).map((o) => [o.name, o.quick]));

// The part of a run's options the worker's sampler takes.
export function samplerOptions(run = DEFAULT_RUN) {
  return Object.fromEntries(RUN_OPTIONS.filter((o) => o.sampler).map((o) => [o.name, run[o.name] ?? o.default]));
}

// null when `value` is acceptable for run option `key`, else the sentence saying why not.
export function checkRunOption(key, value) {
  const rule = BY_NAME.get(key);
  if (!rule) return `unknown run option "${key}"; known options: ${RUN_OPTIONS.map((o) => o.name).join(', ')}`;
  if (rule.type === 'boolean') return typeof value === 'boolean' ? null : `run.${key} must be true or false`;
  if (rule.type === 'string' && rule.values && !rule.values.includes(value)) return `run.${key} must be one of ${rule.values.join(', ')}, not ${JSON.stringify(value)}`;
  if (rule.type === 'string') return typeof value === 'string' ? null : `run.${key} must be a string (${rule.help})`;
  if (typeof value !== 'number' || Number.isNaN(value)) return `run.${key} must be a number (${rule.help})`;
  if (rule.type === 'integer' && !Number.isInteger(value)) return `run.${key} must be a whole number (${rule.help})`;
  if (value < rule.min || value > rule.max) return `run.${key} must be between ${rule.min} and ${rule.max} (${rule.help})`;
  return null;
}

export function validateRunOptions(run, report = (key, message) => { throw new UserError(`${message}.`); }) {
  for (const [key, value] of Object.entries(run)) {
    const problem = checkRunOption(key, value);
    if (problem) report(key, problem);
  }
  return run;
}

// Defaults under the file's options; --quick over both (it is asked for on this run); then a
// maxProcesses below processes is raised, so that "processes: 12" alone does what it says.
export function completeRun(run) {
  const complete = { ...DEFAULT_RUN, ...run };
  if (complete.maxProcesses < complete.processes) complete.maxProcesses = complete.processes;
  return complete;
}

function commanderKey(option) {
  return option.cliKey || option.name;
}

function parserFor(option) {
  const flag = option.cli.split(' ')[0];
  return (text) => {
    if (option.type === 'string' && option.values && !option.values.includes(text)) throw new UserError(`${flag} must be one of ${option.values.join(', ')}, not "${text}".`);
    if (option.type === 'string') return text;
    const n = Number(text);
    const whole = option.type === 'integer';
    if (!Number.isFinite(n) || (whole && !Number.isInteger(n)) || n < option.min || n > option.max) {
      throw new UserError(`${flag} must be ${whole ? 'a whole number' : 'a number'} from ${option.min} to ${option.max}, not "${text}".`);
    }
    return n;
  };
}

function helpFor(option) {
  const shown = option.default !== undefined ? option.default : option.doc;
  return `${option.help}${shown !== undefined ? ` (default ${String(shown).replace(/`/g, '')})` : ''}`;
}

// One run option on another command (explain's --timeout): the same flag, help, range and default.
export function addRunOption(command, name) {
  const option = RUN_OPTIONS.find((o) => o.name === name);
  return command.option(option.cli, helpFor(option), parserFor(option));
}

export function addRunOptions(command) {
  command.option('--quick', `a fast look: ${QUICK_RUN.processes} process per cell, short samples, no metrics processes (less precise)`);
  for (const option of RUN_OPTIONS.filter((o) => o.cli)) {
    // A boolean run option is a switch: its flag takes no value.
    if (option.type === 'boolean') command.option(option.cli, helpFor(option));
    else command.option(option.cli, helpFor(option), parserFor(option));
  }
  return command
    .option('--out <file>', 'result file (default results/<timestamp>-<host>.json); an existing file is kept unless --force')
    .option('--force', 'replace the --out file if it exists')
    .option('--json', 'print the result JSON on stdout instead of tables')
    .option('--refresh', 'ask the registry for the newest versions even if the cached list is recent')
    .option('--no-color', 'plain output even on a terminal');
}

// Not a run option (it changes nothing about how cells are measured): where `matrix` also keeps
// the finished result (cli/history/store.js).
export function addHistoryOption(command) {
  return command.option('--history <dir>', 'when the run is complete, add its result file to this history store (nodebench history; created on first use; the commit is $GITHUB_SHA when that is set)');
}

// CLI options win over the file's run options; --quick sits between the two, and so do the
// instruction counts' own defaults (INSTRUCTIONS_RUN) when the run counts instructions.
export function runOptionsFrom(fileRun, opts) {
  const measure = opts.measure ?? fileRun.measure;
  const run = { ...fileRun, ...(opts.quick ? QUICK_RUN : {}), ...(measure === 'instructions' ? INSTRUCTIONS_RUN : {}) };
  if (run.timeBudgetMin === undefined) delete run.timeBudgetMin;
  for (const option of RUN_OPTIONS.filter((o) => o.cli)) {
    const value = opts[commanderKey(option)];
    if (value !== undefined) run[option.name] = value;
  }
  if (run.cacheSim && run.measure !== 'instructions') throw new UserError('cache simulation (--cache-sim, run.cacheSim) applies to instruction counts: add --measure instructions, or leave it out to measure time.');
  return validateRunOptions(run);
}

// The reference table of docs/matrix.md, generated from the table above.
export function docsTable() {
  const rows = RUN_OPTIONS.map((o) => {
    const shown = o.default !== undefined ? `${o.default}` : o.doc;
    const quick = o.quick !== undefined ? `${o.quick}` : '';
    return `| \`${o.name}\` | ${shown} | ${quick} | ${o.cli ? `\`${o.cli.split(' ')[0]}\`` : ''} | ${o.help} |`;
  });
  return ['| option | default | --quick | CLI | meaning |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}
