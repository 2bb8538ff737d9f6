// nodebench run FILE: a user's own suite file through the same engine as the matrix.
import path from 'node:path';
import { UserError } from '../errors.js';
import { list, runOptionsFrom, addRunOptions, addRuntimeOptions } from '../arguments.js';
import { runFromCommandLine, addRunEndFormat } from '../run-command.js';

const collect = (value, previous = []) => [...previous, value];

export function register(program) {
  const command = addRuntimeOptions(program.command('run')
    .description('benchmark your own file on one or more runtimes (same engine and result file as matrix)')
    .argument('<file>', 'suite file: nodebench\'s format (CommonJS, ES module or TypeScript) or a tinybench, mitata, bench-node or benchmark.js file (docs/own-code.md)'))
    .option('--benchmarks <names>', 'comma-separated benchmark names to run (default: all)')
    .option('--param <key=value>', 'override a suite parameter (JSON value or string); repeatable', collect);
  addRunEndFormat(addRunOptions(command)).action(async (file, opts) => {
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
    await runFromCommandLine(opts, {
      suites: [{ name: path.resolve(file), benchmarks: opts.benchmarks ? list(opts.benchmarks) : null, params }],
      run: runOptionsFrom({}, opts)
    });
  });
}
