#!/usr/bin/env node
// nodebench: benchmark Node.js runtimes and V8 flags. Each sub-command lives in cli/commands/.
import { Command, CommanderError } from 'commander';
import { isUserError } from './errors.js';
import { terminalText } from './text/escape.js';
import { NODEBENCH_VERSION } from './engine.js';
import * as matrix from './commands/matrix.js';
import * as run from './commands/run.js';
import * as exec from './commands/exec.js';
import * as runtimes from './commands/runtimes.js';
import * as diff from './commands/diff.js';
import * as report from './commands/report.js';
import * as merge from './commands/merge.js';
import * as doctor from './commands/doctor.js';
import * as flags from './commands/flags.js';
import * as bisect from './commands/bisect.js';
import * as history from './commands/history.js';
import * as explain from './commands/explain.js';

// `nodebench report r.json | head`: a reader that stops early is not an error.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

const program = new Command();
program
  .name('nodebench')
  .description('What happens to your code if you move to Node X or set V8 flag Y? Runs benchmarks across runtimes x V8 flag sets in fresh processes of each runtime, writes one result file, prints tables.')
  .version(NODEBENCH_VERSION)
  .showHelpAfterError('(run with --help for usage)')
  .exitOverride()
  // Commander repeats the user's arguments in its errors ("unknown option '...'"): escaped too.
  .configureOutput({ writeErr: (text) => process.stderr.write(terminalText(text, { keepNewlines: true })) })
  // `exec -- CMD --its-own-options`: what follows the command is the command's.
  .enablePositionalOptions();

for (const command of [matrix, run, exec, diff, report, merge, runtimes, doctor, flags, bisect, history, explain]) command.register(program);

program.addHelpText('after', `
Examples:
  nodebench matrix                                  run ./matrix.yaml (or the shipped default)
  nodebench matrix --runtimes 6,16 --flags baseline --suites promises --quick
  nodebench run ./my-bench.js --node 14,16 --flags "--max-semi-space-size=64"
  nodebench exec --node 18,22 -- npm test            a whole command, each process one run
  nodebench diff results/before.json results/after.json --fail-on-regression 5
  nodebench diff results/run.json --from 14.21.3/baseline --to 16.20.2/baseline
  nodebench matrix --shard 2/4 --out shard-2.json   one CI runner's share; then nodebench merge shard-*.json --out all.json
  nodebench runtimes install 4.9.1 16 lts
  nodebench flags 16.13.2 --grep marking         V8 flags with type, default, description
  nodebench flags diff 16.13.2 16.14.0             flags added, removed, defaults changed
  nodebench bisect --flag concurrent-marking --good 14.21.3 --bad 16.13.2
  nodebench history add results/*.json             keep runs; then history show --format html --out trend.html

Runtimes come from the nodebench cache (~/.cache/nodebench), your nvm, or are installed from the npm
registry's node-<os>-<arch> packages (or NODE_MIRROR, a nodejs.org-layout mirror).`);

// A path the user gave (or a cache location they set) that the file system refuses: a directory
// where a file is expected, no permission, a full disk. Their mistake to fix, not a bug in nodebench.
const FILE_PROBLEMS = {
  EISDIR: 'is a directory where a file is expected',
  ENOTDIR: 'goes through a file where a directory is expected',
  EACCES: 'cannot be accessed (permission denied)',
  EPERM: 'cannot be changed (operation not permitted)',
  EROFS: 'is on a read-only file system',
  ENOSPC: 'cannot be written: no space left on the device',
  ENAMETOOLONG: 'is too long a path',
  ELOOP: 'has a symbolic link loop'
};

function fileProblem(err) {
  const what = err && FILE_PROBLEMS[err.code];
  return what && err.path ? `${err.path} ${what}; check the path you gave (or NODEBENCH_CACHE / XDG_CACHE_HOME) and try again.` : null;
}

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    process.exitCode = err.exitCode === 0 ? 0 : 2;
  } else if (fileProblem(err)) {
    process.stderr.write(`nodebench: ${terminalText(fileProblem(err))}\n`);
    process.exitCode = 2;
  } else if (isUserError(err)) {
    process.stderr.write(`nodebench: ${terminalText(err.message)}\n`);
    process.exitCode = err.exitCode;
  } else {
    process.stderr.write(`nodebench: internal error (please report it):\n${terminalText(err.stack, { keepNewlines: true })}\n`);
    process.exitCode = 70;
  }
}
