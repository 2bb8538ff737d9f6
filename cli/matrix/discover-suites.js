// Finds suite files and asks the worker (in the host's own Node, which parses any syntax) what
// each one contains, so the plan knows every benchmark and its minimum runtime before any cell runs.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.js';
import { kindOf } from '../fs-atomic.js';
import { suitesDir } from '../paths.js';
import { launchWorker } from '../process/supervise.js';

export function builtInSuites() {
  return fs.readdirSync(suitesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(suitesDir, d.name, 'index.js')))
    .map((d) => d.name)
    .sort();
}

// The extensions a suite file may have (suites/README.md; worker/suite-loader.js loads each).
export const SUITE_EXTENSIONS = ['.js', '.cjs', '.mjs', '.ts', '.mts', '.cts'];

function looksLikePath(name) {
  return name.includes('/') || name.includes('\\') || SUITE_EXTENSIONS.includes(path.extname(name)) || name.startsWith('.');
}

// A suite name from matrix.yaml or --suites -> the file to load. Paths are relative to `baseDir`.
export function suiteFile(name, baseDir = process.cwd()) {
  if (looksLikePath(name)) {
    const file = path.resolve(baseDir, name);
    if (!fs.existsSync(file)) throw new UserError(`Suite file ${name} does not exist; check the path (it is relative to ${baseDir}).`);
    const chosen = fs.statSync(file).isDirectory() ? path.join(file, 'index.js') : file;
    checkRegularFile(chosen, name);
    return chosen;
  }
  const file = path.join(suitesDir, name, 'index.js');
  if (!fs.existsSync(file)) {
    throw new UserError(`There is no suite "${name}"; built-in suites are ${builtInSuites().join(', ')}, or give a path to a suite file.`);
  }
  return file;
}

// A suite is read by require/import, which would read a device or a FIFO for ever (or until memory
// runs out): anything but a regular file, after symlinks, is refused before a worker starts.
export function checkRegularFile(file, name = file) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new UserError(`Suite file ${file} (from "${name}") does not exist; a folder given as a suite must hold an index.js.`);
  }
  if (stat.isFile()) return;
  const kind = kindOf(stat);
  const real = fs.realpathSync(file);
  throw new UserError(`Suite ${name} is ${kind}${real !== file ? ` (${file} leads to ${real})` : ''}, not a regular file; give the path of a suite file (.js, .mjs, .cjs or .ts).`);
}

// Expands "all" and drops duplicates, keeping the first entry's filter and params.
export function expandSuiteEntries(entries) {
  const out = [];
  const seen = new Set();
  for (const entry of entries) {
    const names = entry.name === 'all' ? builtInSuites() : [entry.name];
    for (const name of names) {
      // Two entries of one file under two names (`as`, plan.js) are two suites.
      const key = entry.as || name;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ ...entry, name });
    }
  }
  return out;
}

// What the worker's error says, as the one sentence a user can act on.
function loadFailure(file, error, why) {
  if (error?.name === 'SuiteError') return `${why.replace(/\.$/, '')}.`;
  if (/require is not defined in ES module scope|module is not defined in ES module scope|exports is not defined in ES module scope/.test(why)) {
    return `Suite ${file} uses require or module.exports but Node loads it as an ES module (a package.json above it says "type": "module"): rename it to .cjs, or write it with export.`;
  }
  if (/Cannot use import statement outside a module|Unexpected token 'export'/.test(why)) {
    return `Suite ${file} uses import or export but Node loads it as CommonJS (no "type": "module" in the package.json above it): rename it to .mjs, or add {"type": "module"} to that package.json.`;
  }
  return `Suite ${file} could not be loaded (${why}); fix the suite file (forms: suites/README.md and docs/own-code.md).`;
}

// Described by the host's own Node (>= 20.6 loads every form; engines says >= 20), under the same
// time limit as a cell's process (run.timeoutSec): a suite that loops or awaits for ever at load
// (a top-level await on a database that is not there) is named at once, not after minutes.
export async function describeSuite(file, { timeoutSec = 60 } = {}) {
  const timeoutMs = timeoutSec * 1000;
  const launched = await launchWorker(process.execPath, [], { mode: 'list', suite: file }, { timeoutMs, cwd: path.dirname(file) });
  const described = launched.messages.find((m) => m.type === 'suite');
  if (described) return described.suite;
  if (launched.timedOut) {
    throw new UserError(`Suite ${file} hung while loading (> ${timeoutSec} s), so it was killed: something at its top level runs or waits for ever (a loop, an await on a server that is not there); fix the suite, or raise --timeout (run.timeoutSec) if loading really takes that long.`);
  }
  const unsupported = launched.messages.find((m) => m.type === 'unsupported');
  if (unsupported) throw new UserError(`Suite ${file} cannot be described by the Node running nodebench: ${unsupported.reason}; run nodebench with Node 20.6 or newer.`);
  const error = launched.messages.find((m) => m.type === 'error');
  const why = error ? error.message.split('\n')[0] : (launched.stderrTail.trim().split('\n').pop() || (launched.signal ? `killed by ${launched.signal}` : `exit code ${launched.exitCode}`));
  throw new UserError(loadFailure(file, error, why));
}
