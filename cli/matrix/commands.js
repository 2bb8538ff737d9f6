// Whole commands as benchmarks (`nodebench exec -- CMD ARGS`, matrix.yaml `commands:`): their
// checks, and the suite they form, so that the plan, the policy, the tables, diff and the gate
// treat a command like any benchmark. The launch itself is runner/command.js.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.js';
import { longestExecString } from '../process/arg-limits.js';

export const COMMAND_SUITE = 'commands';
const ENTRY_KEYS = ['name', 'run', 'shell', 'cwd', 'env', 'warmup'];

// One matrix.yaml entry (or the exec command's options) -> { name, argv, shell, cwd, env, warmupRuns },
// or throws through `fail(message, ...pathInsideEntry)`.
export function checkCommand(entry, { baseDir, fail }) {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
    fail('each command must be a mapping, e.g. {name: build, run: [npm, run, build]}.');
  }
  const unknown = Object.keys(entry).filter((k) => !ENTRY_KEYS.includes(k));
  if (unknown.length) fail(`command entries take ${ENTRY_KEYS.join(', ')}, not ${unknown.join(', ')}.`);
  const shell = entry.shell === undefined ? false : entry.shell;
  if (typeof shell !== 'boolean') fail('shell must be true or false.', 'shell');
  const { run } = entry;
  let argv;
  if (typeof run === 'string') {
    if (!shell) fail(`run is one string ("${run}"); write it as a list of arguments, e.g. run: [npm, test], or set shell: true to run it through a shell.`, 'run');
    if (!run.trim()) fail('run is empty; give the command to run.', 'run');
    argv = [run];
  } else if (Array.isArray(run) && run.length && run.every((a) => typeof a === 'string' || typeof a === 'number')) {
    argv = run.map(String);
    if (!argv[0]) fail('the first item of run (the program) is empty.', 'run');
    if (shell) fail('with shell: true, run must be one string (the shell command line), not a list.', 'run');
  } else {
    fail('run must be a non-empty list of arguments, e.g. [npm, run, build] (or one string with shell: true).', 'run');
  }
  if (argv.some((a) => a.includes('\0'))) fail('run contains a NUL character, which cannot be passed to a process.', 'run');
  const name = entry.name === undefined ? defaultCommandName(argv) : String(entry.name);
  if (!name.trim()) fail('name is empty; give the command a name for the tables.', 'name');
  // Names are joined with NUL into the keys of cells (cell-identity.js): one inside would merge rows.
  if (name.includes('\0')) fail('name contains a NUL character; give the command a name without one.', 'name');
  const cwd = path.resolve(baseDir, entry.cwd === undefined ? '.' : String(entry.cwd));
  let isDir = false;
  try {
    isDir = fs.statSync(cwd).isDirectory();
  } catch {
    // Reported below.
  }
  if (!isDir) fail(`cwd ${cwd} is not a directory; give the folder the command runs in.`, 'cwd');
  const env = entry.env === undefined ? {} : entry.env;
  if (env === null || typeof env !== 'object' || Array.isArray(env) || !Object.values(env).every((v) => ['string', 'number', 'boolean'].includes(typeof v))) {
    fail('env must map variable names to values, e.g. {NODE_ENV: production}.', 'env');
  }
  // What a process environment cannot hold: the variable would fail the cell with Node's own message.
  for (const [key, value] of Object.entries(env)) {
    if (!key || key.includes('=') || key.includes('\0')) fail(`env name ${JSON.stringify(key)} cannot be a variable name (empty, or with "=" or a NUL character); give names like NODE_ENV.`, 'env');
    if (String(value).includes('\0')) fail(`env ${key} contains a NUL character, which cannot be passed to a process; remove it from the value.`, 'env', key);
  }
  // What no exec can carry, whatever the environment at launch (arg-limits.js): refused here rather
  // than by the OS once per process.
  const longest = longestExecString();
  if (longest !== null) {
    const size = (text) => Buffer.byteLength(text).toLocaleString('en-US');
    const limit = `Linux passes at most ${longest.toLocaleString('en-US')} bytes in one`;
    const over = argv.findIndex((a) => Buffer.byteLength(a) > longest);
    if (over >= 0) fail(`${shell ? 'run (the shell command line)' : `argument ${over + 1} of run`} is ${size(argv[over])} bytes; ${limit} argument; pass large data in a file or on stdin instead.`, 'run');
    const big = Object.entries(env).find(([key, value]) => Buffer.byteLength(`${key}=${value}`) > longest);
    if (big) fail(`env ${big[0]} is ${size(`${big[0]}=${big[1]}`)} bytes with its name; ${limit} variable; pass large data in a file instead.`, 'env', big[0]);
  }
  const warmupRuns = entry.warmup === undefined ? 0 : entry.warmup;
  if (!Number.isInteger(warmupRuns) || warmupRuns < 0 || warmupRuns > 100) fail('warmup must be a whole number of unmeasured runs before each measured one, 0 to 100.', 'warmup');
  return { name, argv, shell, cwd, env: Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)])), warmupRuns };
}

// "npm run build" -> "npm run build"; long command lines are cut for the tables.
export function defaultCommandName(argv) {
  const line = argv.join(' ').replace(/\s+/g, ' ').trim();
  return line.length > 48 ? `${line.slice(0, 47)}…` : line;
}

// The suite the commands of one run form. Names must be unique: they are the rows of the tables.
export function commandSuite(commands, { baseDir }) {
  const seen = new Set();
  for (const c of commands) {
    if (seen.has(c.name)) throw new UserError(`Command name "${c.name}" is used twice; give each command its own name (name: ...).`);
    seen.add(c.name);
  }
  return {
    name: COMMAND_SUITE,
    kind: 'command',
    file: baseDir,
    description: 'whole commands, each process one run with the runtime under test first on PATH',
    params: {},
    benchmarks: commands.map((c) => ({ name: c.name, type: 'command', command: c, description: c.shell ? c.argv[0] : c.argv.join(' ') })),
    selected: commands.map((c) => c.name)
  };
}
