// nodebench exec -- CMD ARGS: a whole command (a build, a test suite, a CLI) measured on one or
// more runtimes and flag sets, each process one run of it, through the same engine, result file,
// tables, diff and gate as the matrix.
import { UserError } from '../errors.js';
import { list, runOptionsFrom, addRunOptions, addRuntimeOptions, nonNegativeInt } from '../arguments.js';
import { runFromCommandLine, addRunEndFormat } from '../run-command.js';
import { checkCommand } from '../matrix/commands.js';

const collectEnv = (value, previous = {}) => {
  const eq = value.indexOf('=');
  if (eq < 1) throw new UserError(`--env "${value}" must look like NAME=value, e.g. --env NODE_ENV=production.`);
  return { ...previous, [value.slice(0, eq)]: value.slice(eq + 1) };
};

export function register(program) {
  const command = addRuntimeOptions(program.command('exec')
    .description('measure a whole command (build, tests, a CLI) on one or more runtimes: each process is one run, with the runtime under test first on PATH and the flag set in NODE_OPTIONS (or a node wrapper where Node does not take the flags there)')
    .argument('<command...>', 'the program and its arguments, after -- (an argument array; no shell unless --shell)'))
    .option('--name <name>', 'the row name in the tables (default: the command line)')
    .option('--cwd <dir>', 'the folder the command runs in (default: the current one)')
    .option('--env <NAME=value>', 'an environment variable for the command; repeatable', collectEnv)
    .option('--shell', 'run the command as one line through the system shell (sh -c), e.g. exec --shell -- "npm test | tail -1"')
    .option('--warmup <n>', 'unmeasured runs before each measured one (e.g. to warm disk caches)', nonNegativeInt('warmup'))
    .passThroughOptions()
    .addHelpText('after', `
Examples:
  nodebench exec --node 18,22 -- npm test
  nodebench exec --node 20 --flags "--max-semi-space-size=64" --processes 10 -- node build.js --prod
  nodebench exec --shell --node 22 -- "npx tsc -p . && node dist/cli.js --version"

npm and npx are the runtime's own: the npm of its release line, installed into nodebench's cache
entry on first use (an nvm or path runtime keeps the npm beside it); the result file says which. Measured per run: wall time, user+sys
CPU of the command and the processes it waited for, peak RSS of its largest process, exit status; a
run that exits non-zero fails its cell with the status and the end of its stderr.`);
  addRunEndFormat(addRunOptions(command)).action(async (argv, opts) => {
    if (opts.node !== undefined && !list(opts.node).length) throw new UserError('--node is empty; give a comma-separated list of runtimes, or leave the option out.');
    const checked = checkCommand({
      name: opts.name,
      run: opts.shell ? argv.join(' ') : argv,
      shell: Boolean(opts.shell),
      cwd: opts.cwd,
      env: opts.env,
      warmup: opts.warmup
    }, { baseDir: process.cwd(), fail: (message) => { throw new UserError(`exec: ${message}`); } });
    await runFromCommandLine(opts, { commands: [checked], run: runOptionsFrom({ metrics: false }, opts) });
  });
}
