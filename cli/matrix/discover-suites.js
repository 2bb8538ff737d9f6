// Finds suite files and asks the worker (in the host's own Node, which parses any syntax) what
// each one contains, so the plan knows every benchmark and its minimum runtime before any cell runs.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.js';
import { suitesDir } from '../paths.js';
import { launchWorker } from '../runner/launch.js';

export function builtInSuites() {
  return fs.readdirSync(suitesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(suitesDir, d.name, 'index.js')))
    .map((d) => d.name)
    .sort();
}

function looksLikePath(name) {
  return name.includes('/') || name.includes('\\') || name.endsWith('.js') || name.startsWith('.');
}

// A suite name from matrix.yaml or --suites -> the file to load. Paths are relative to `baseDir`.
export function suiteFile(name, baseDir = process.cwd()) {
  if (looksLikePath(name)) {
    const file = path.resolve(baseDir, name);
    if (!fs.existsSync(file)) throw new UserError(`Suite file ${name} does not exist; check the path (it is relative to ${baseDir}).`);
    return fs.statSync(file).isDirectory() ? path.join(file, 'index.js') : file;
  }
  const file = path.join(suitesDir, name, 'index.js');
  if (!fs.existsSync(file)) {
    throw new UserError(`There is no suite "${name}"; built-in suites are ${builtInSuites().join(', ')}, or give a path to a suite file.`);
  }
  return file;
}

// Expands "all" and drops duplicates, keeping the first entry's filter and params.
export function expandSuiteEntries(entries) {
  const out = [];
  const seen = new Set();
  for (const entry of entries) {
    const names = entry.name === 'all' ? builtInSuites() : [entry.name];
    for (const name of names) {
      if (seen.has(name)) continue;
      seen.add(name);
      out.push({ ...entry, name });
    }
  }
  return out;
}

export async function describeSuite(file) {
  const launched = await launchWorker(process.execPath, [], { mode: 'list', suite: file }, { timeoutMs: 60_000, cwd: path.dirname(file) });
  const described = launched.messages.find((m) => m.type === 'suite');
  if (described) return described.suite;
  const error = launched.messages.find((m) => m.type === 'error');
  const why = error ? error.message.split('\n')[0] : (launched.stderrTail.trim().split('\n').pop() || `exit code ${launched.exitCode}`);
  if (/ES module scope/.test(why)) {
    throw new UserError(`Suite ${file} is treated as an ES module (a package.json above it says "type": "module"); suites are CommonJS so that old runtimes can load them: rename it to .cjs or put a package.json with {"type": "commonjs"} beside it.`);
  }
  throw new UserError(`Suite ${file} could not be loaded (${why}); fix the suite file (format: suites/README.md).`);
}
