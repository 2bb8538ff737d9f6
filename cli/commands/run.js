// nodebench run FILE: a user's own suite file through the same engine as the matrix.
import path from 'node:path';
import { runMatrix } from '../engine.js';
import { defaultResultPath, checkOutput } from '../results/file.js';
import { createProgress } from '../progress.js';
import { UserError } from '../errors.js';
import { list, runOptionsFrom, addRunOptions } from './shared.js';
import { printOutcome } from './output.js';

// "--max-semi-space-size=64 --no-opt" -> one flag set; split on white space, never through a shell.
function flagSetsFrom(values) {
  const sets = [{ name: 'baseline', flags: [] }];
  for (const value of values || []) {
    const flags = value.split(/\s+/).filter(Boolean);
    const bad = flags.find((f) => !f.startsWith('--'));
    if (bad) throw new UserError(`Flag "${bad}" in --flags must start with --, e.g. --flags "--max-semi-space-size=64".`);
    if (flags.length) sets.push({ name: flags.join(' '), flags });
  }
  return sets;
}

const collect = (value, previous = []) => [...previous, value];

export function register(program) {
  const command = program.command('run')
    .description('benchmark your own file on one or more runtimes (same engine and result file as matrix)')
    .argument('<file>', 'suite file: nodebench\'s format (CommonJS, ES module or TypeScript) or a tinybench, mitata, bench-node or benchmark.js file (docs/own-code.md)')
    .option('--node <specs>', 'comma-separated runtimes, e.g. 14,16 or lts,system', 'system')
    .option('--flags <flags>', 'V8/Node flags for an extra flag set, compared with no flags; repeat for more sets', collect)
    .option('--benchmarks <names>', 'comma-separated benchmark names to run (default: all)')
    .option('--param <key=value>', 'override a suite parameter (JSON value or string); repeatable', collect);
  addRunOptions(command).action(async (file, opts) => {
    for (const option of ['node', 'benchmarks']) {
      if (opts[option] !== undefined && !list(opts[option]).length) throw new UserError(`--${option} is empty; give a comma-separated list, or leave the option out.`);
    }
    const params = {};
    for (const pair of opts.param || []) {
      const eq = pair.indexOf('=');
      if (eq < 1) throw new UserError(`--param "${pair}" must look like name=value, e.g. --param payloadKB=512.`);
      const raw = pair.slice(eq + 1);
      try {
        params[pair.slice(0, eq)] = JSON.parse(raw);
      } catch {
        params[pair.slice(0, eq)] = raw;
      }
    }
    const matrix = {
      runtimes: list(opts.node).map((spec) => ({ spec, label: null })),
      flagSets: flagSetsFrom(opts.flags),
      suites: [{ name: path.resolve(file), benchmarks: opts.benchmarks ? list(opts.benchmarks) : null, params }],
      run: runOptionsFrom({}, opts),
      baseDir: process.cwd()
    };
    const out = path.resolve(opts.out || defaultResultPath());
    checkOutput(out, { force: opts.force });
    const progress = createProgress();
    const outcome = await runMatrix(matrix, { out, progress, refresh: opts.refresh });
    process.exitCode = printOutcome(outcome, { out, json: opts.json, baseline: opts.baseline, color: opts.color, progress });
  });
}
