// matrix.yaml -> a validated matrix object. Errors name the file, the line and the fix.
import fs from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import fsSync from 'node:fs';
import { Buffer } from 'node:buffer';
import { UserError } from '../errors.js';
import { projectRoot } from '../paths.js';
import { TOP_LEVEL } from './schema.js';
import { validateRunOptions } from '../options.js';
import { parseRuntimeSpec } from '../runtimes/spec.js';
import { checkCommand } from './commands.js';
import { CHOOSABLE_PROVIDERS, isChoosableProvider } from '../runtimes/providers.js';

function lineOf(doc, lineCounter, pathParts) {
  const node = pathParts.length ? doc.getIn(pathParts, true) : doc.contents;
  const range = node && node.range;
  return range ? lineCounter.linePos(range[0]).line : null;
}

function fail(file, line, message) {
  throw new UserError(`${file}${line ? `:${line}` : ''}: ${message}`);
}

// Parses and validates matrix text; `file` is only used in messages.
// baseDir: where relative paths of the file (a command's cwd) start.
export function parseMatrix(text, file = 'matrix.yaml', baseDir = process.cwd()) {
  const lineCounter = new YAML.LineCounter();
  const doc = YAML.parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length) {
    const err = doc.errors[0];
    const line = err.linePos ? err.linePos[0].line : err.pos ? lineCounter.linePos(err.pos[0]).line : null;
    fail(file, line, `is not valid YAML (${err.message.split('\n')[0]}); fix the syntax at that line.`);
  }
  let data;
  try {
    // maxAliasCount: a handful of aliases is YAML; thousands are an alias bomb.
    data = doc.toJS({ maxAliasCount: 100 }) || {};
  } catch (err) {
    if (!(err instanceof ReferenceError)) throw err;
    fail(file, null, `${err.message.replace(/\.$/, '')}: the file expands its aliases (&name / *name) too many times; write the values out.`);
  }
  const at = (...parts) => lineOf(doc, lineCounter, parts);
  if (typeof data !== 'object' || Array.isArray(data)) fail(file, at(), 'must be a mapping with runtimes, flagSets, suites and run.');
  for (const key of Object.keys(data)) {
    if (!TOP_LEVEL.includes(key)) fail(file, at(key), `unknown top-level key "${key}"; use ${TOP_LEVEL.join(', ')}.`);
  }

  const runtimes = data.runtimes ?? ['system'];
  if (!Array.isArray(runtimes) || runtimes.length === 0) fail(file, at('runtimes'), 'runtimes must be a non-empty list, e.g. [16, 20, lts].');
  const seenLabels = new Set();
  const runtimeList = runtimes.map((entry, i) => {
    const item = entry !== null && typeof entry === 'object' ? entry : { spec: entry };
    if (item.spec === undefined || item.spec === null || item.spec === '') {
      fail(file, at('runtimes', i), 'each runtime needs a spec (a version like 16 or 16.13.0, a range, lts, latest, system or a path).');
    }
    const spec = String(item.spec);
    if (parseRuntimeSpec(spec).kind === 'invalid') {
      fail(file, at('runtimes', i), `runtime "${spec}" is not a version, range, lts, latest, system or path; write e.g. 16, 16.13.0 or ">=14 <17".`);
    }
    const unknown = Object.keys(item).filter((k) => !['spec', 'label', 'provider'].includes(k));
    if (unknown.length) fail(file, at('runtimes', i), `runtime entries take spec, label and provider, not ${unknown.join(', ')}.`);
    if (item.provider !== undefined && !isChoosableProvider(item.provider)) {
      fail(file, at('runtimes', i, 'provider'), `provider ${JSON.stringify(item.provider)} is not known; write provider: ${CHOOSABLE_PROVIDERS.join(', ')} (nvm's own installer), or leave it out.`);
    }
    if (item.provider !== undefined && ['path', 'system'].includes(parseRuntimeSpec(spec).kind)) {
      fail(file, at('runtimes', i, 'provider'), `runtime "${spec}" names a binary, so provider ${item.provider} has nothing to install; give a version or leave the provider out.`);
    }
    const label = item.label !== undefined ? String(item.label) : null;
    // Labels and names are joined with NUL into the keys of cells (cell-identity.js).
    if (label && label.includes('\0')) fail(file, at('runtimes', i), `runtime label ${JSON.stringify(label)} contains a NUL character; give a label without one.`);
    if (label && seenLabels.has(label)) fail(file, at('runtimes', i), `runtime label "${label}" is used twice; labels must be unique.`);
    if (label) seenLabels.add(label);
    return item.provider === undefined ? { spec, label } : { spec, label, provider: item.provider };
  });

  const flagSets = data.flagSets ?? { baseline: [] };
  if (typeof flagSets !== 'object' || Array.isArray(flagSets) || !Object.keys(flagSets).length) {
    fail(file, at('flagSets'), 'flagSets must map names to lists of flags, e.g. baseline: [] and young-gen: ["--max-semi-space-size=64"].');
  }
  const flagSetList = Object.entries(flagSets).map(([name, value]) => {
    if (name.includes('\0')) fail(file, at('flagSets'), `flag set name ${JSON.stringify(name)} contains a NUL character; give a name without one.`);
    // A list of flags applies to every suite; {flags, suites} only to the suites named.
    const restricted = value !== null && typeof value === 'object' && !Array.isArray(value);
    if (restricted) {
      const unknown = Object.keys(value).filter((k) => !['flags', 'suites'].includes(k));
      if (unknown.length) fail(file, at('flagSets', name), `flag set "${name}" takes flags and suites, not ${unknown.join(', ')}.`);
      if (!Array.isArray(value.suites) || !value.suites.length || !value.suites.every((s) => typeof s === 'string' && s)) {
        fail(file, at('flagSets', name, 'suites'), `suites of flag set "${name}" must be a non-empty list of suite names, e.g. [gc, service].`);
      }
    }
    const where = restricted ? ['flagSets', name, 'flags'] : ['flagSets', name];
    const flags = restricted ? value.flags ?? [] : value;
    const list = flags === null ? [] : flags;
    if (!Array.isArray(list)) fail(file, at(...where), `flag set "${name}" must be a list of flags, e.g. ["--max-semi-space-size=64"], or {flags: [...], suites: [...]}.`);
    list.forEach((flag, i) => {
      // A NUL cannot be passed to a process at all, and whitespace would be one argument, not two.
      if (typeof flag !== 'string' || !flag.startsWith('--') || /[\0\s]/.test(flag)) {
        fail(file, at(...where, i), `flag ${JSON.stringify(flag)} in flag set "${name}" must be one string starting with --, without spaces or NUL characters (one flag per list item), e.g. "--max-semi-space-size=64".`);
      }
    });
    return restricted ? { name, flags: list, suites: value.suites } : { name, flags: list };
  });

  const commands = data.commands ?? [];
  if (!Array.isArray(commands)) fail(file, at('commands'), 'commands must be a list, e.g. [{name: build, run: [npm, run, build]}].');
  const commandList = commands.map((entry, i) => checkCommand(entry, {
    baseDir,
    fail: (message, ...inside) => fail(file, at('commands', i, ...inside) ?? at('commands', i), `command ${i + 1}: ${message}`)
  }));
  const names = commandList.map((c) => c.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) fail(file, at('commands', names.lastIndexOf(twice)), `command name "${twice}" is used twice; give each command its own name.`);

  // A matrix of commands alone runs no suites unless it names some; an empty commands list is a
  // mistake (a template, a generated list that came out empty), not a request for every suite.
  if (data.commands !== undefined && !commandList.length && data.suites === undefined) {
    fail(file, at('commands'), 'commands is an empty list and no suites are named, so there is nothing to run; list a command, e.g. [{name: build, run: [npm, run, build]}], or remove commands to run the shipped suites.');
  }
  const suites = data.suites ?? (data.commands !== undefined ? [] : ['all']);
  if (!Array.isArray(suites) || (!suites.length && !commandList.length)) fail(file, at('suites'), 'suites must be a non-empty list of suite names or paths (or "all").');
  const suiteList = suites.map((entry, i) => {
    const item = entry !== null && typeof entry === 'object' ? entry : { name: entry };
    if (typeof item.name !== 'string' || !item.name) fail(file, at('suites', i), 'each suite needs a name (a folder under suites/, "all", or a path to a suite file).');
    const unknown = Object.keys(item).filter((k) => !['name', 'benchmarks', 'params'].includes(k));
    if (unknown.length) fail(file, at('suites', i), `suite entries take name, benchmarks and params, not ${unknown.join(', ')}.`);
    if (item.benchmarks !== undefined && !(Array.isArray(item.benchmarks) && item.benchmarks.every((b) => typeof b === 'string'))) {
      fail(file, at('suites', i, 'benchmarks'), `benchmarks of suite "${item.name}" must be a list of benchmark names.`);
    }
    if (item.params !== undefined && (typeof item.params !== 'object' || Array.isArray(item.params) || item.params === null)) {
      fail(file, at('suites', i, 'params'), `params of suite "${item.name}" must be a mapping of parameter names to values.`);
    }
    return { name: item.name, benchmarks: item.benchmarks || null, params: item.params || {} };
  });

  const run = data.run ?? {};
  if (typeof run !== 'object' || Array.isArray(run)) fail(file, at('run'), 'run must be a mapping of run options, e.g. processes: 3.');
  validateRunOptions(run, (key, message) => fail(file, at('run', key), `${message}.`));

  return { file, runtimes: runtimeList, flagSets: flagSetList, suites: suiteList, commands: commandList, run };
}

// A matrix lists runtimes, flag sets and suites: a few KB. Anything much larger is the wrong file
// (or /dev/zero), and the YAML parser would spend minutes and gigabytes on it before saying so.
export const MAX_MATRIX_BYTES = 256 * 1024;

// Reads at most MAX_MATRIX_BYTES + 1 bytes, so that a FIFO or a device that never ends is refused too.
async function readBounded(file) {
  const handle = await fs.open(file, 'r');
  try {
    const buffer = Buffer.alloc(MAX_MATRIX_BYTES + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (!bytesRead) break;
      length += bytesRead;
    }
    return length > MAX_MATRIX_BYTES ? null : buffer.subarray(0, length).toString('utf8');
  } finally {
    await handle.close();
  }
}

export async function loadMatrix(file) {
  let text;
  try {
    text = await readBounded(file);
  } catch (err) {
    if (err.code === 'ENOENT') throw new UserError(`Matrix file ${file} does not exist; pass --matrix with an existing file or run from a folder with matrix.yaml.`);
    if (err.code === 'EISDIR') throw new UserError(`Matrix file ${file} is a directory; pass --matrix the path of a YAML file, e.g. ${path.join(file, 'matrix.yaml')}.`);
    throw Object.assign(err, { path: err.path || file });
  }
  if (text === null) {
    throw new UserError(`Matrix file ${file} is larger than ${MAX_MATRIX_BYTES / 1024} KiB, far more than a matrix of runtimes, flag sets and suites needs; check that --matrix names the right file.`);
  }
  return parseMatrix(text, path.relative(process.cwd(), file) || file, path.dirname(path.resolve(file)));
}

// ./matrix.yaml when there is one, else the matrix shipped with nodebench.
export function defaultMatrixFile() {
  const local = path.resolve('matrix.yaml');
  return fsSync.existsSync(local) ? local : path.join(projectRoot, 'matrix.yaml');
}
