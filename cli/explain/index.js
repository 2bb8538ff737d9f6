// nodebench explain, the domain: where the time went between two sides of one benchmark. Resolves
// the inputs (inputs.js), runs the extra processes (run.js), asks each runtime for its V8 flags,
// and returns the one document (document.js) that every format shows.
import fs from 'node:fs';
import path from 'node:path';
import { resolveInputs } from './inputs.js';
import { runExplainProcesses } from './run.js';
import { explainDocument } from './document.js';
import { runCountedProcesses } from './counted.js';
import { countedDocument } from './counted-document.js';
import { prepareProfileDir, uniqueNames } from './profile-dir.js';
import { runtimeFlagsOrNull } from '../flags/index.js';
import { samplerOptions, DEFAULT_RUN, INSTRUCTIONS_RUN } from '../options.js';
import { isUserError } from '../errors.js';
import { columnKey } from '../cell-identity.js';

// timeoutMs: each process's limit, run's --timeout default (run.timeoutSec).
export const EXPLAIN_DEFAULTS = { processes: 3, metricsProcesses: 2, windowMs: 1000, intervalUs: 250, timeoutMs: DEFAULT_RUN.timeoutSec * 1000 };
// In instructions (--measure instructions) a side's processes agree to parts per million, so two
// (a cell's INSTRUCTIONS_RUN.processes) show the spread; valgrind runs each 10-100 times slower.
export const COUNTED_PROCESSES = INSTRUCTIONS_RUN.processes;

export function defaultProfileDir(now = new Date()) {
  return path.resolve(`nodebench-explain-${now.toISOString().replace(/[:.]/g, '-')}`);
}

// Runs the processes and returns the document. request: { resultFile?, suite?, from, to,
// benchmark, nodes? }; options: EXPLAIN_DEFAULTS' fields and profileDir.
export async function explainComparison(request, options = {}, { log = () => {}, command = process.argv.slice(2) } = {}) {
  const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  const settings = { ...EXPLAIN_DEFAULTS, ...given, profileDir: path.resolve(options.profileDir || defaultProfileDir()) };
  const inputs = await resolveInputs(request, { log, timeoutMs: settings.timeoutMs });
  if (settings.measure === 'instructions') {
    const counted = { processes: given.processes ?? COUNTED_PROCESSES, timeoutMs: settings.timeoutMs, instructions: inputs.run?.instructions };
    return countedDocument(inputs, await runCountedProcesses(inputs.sides, inputs.target, counted, { log }), counted, { command });
  }
  settings.sampler = samplerOptions(inputs.run || undefined);
  // Before any process runs: a folder that cannot take the profiles would fail each one at its end.
  prepareProfileDir(settings.profileDir, { given: Boolean(options.profileDir) });
  const runs = await runExplainProcesses(inputs.sides, inputs.target, settings, { log });
  const listings = {};
  for (const side of inputs.sides) listings[side.id] = await runtimeFlagsOrNull(side.runtime, log);
  return explainDocument(inputs, runs, settings, listings, { command });
}

// For `diff --explain` and the gate (cli/commands/diff.js --explain): one document per diff
// row decided slower. rows: diffResults' rows; files: { fileA, fileB } (the same file with
// --from/--to). A row explain cannot re-run (a whole command, two different suite files, a suite
// not on this machine) is skipped with its reason. Returns
// [{ label, column, document } | { label, column, skipped }]. nodes: as explainComparison's.
export async function explainComparisons(rows, { fileA, fileB, nodes }, options = {}, hooks = {}) {
  const slower = rows.filter((r) => r.comparison?.verdict === 'slower');
  if (!slower.length) return [];
  // Counts keep no profiles: no folder is made for them.
  const counted = options.measure === 'instructions';
  // One folder for the diff, checked once (a folder that takes no files is the diff's sentence, not
  // each row's), and a sub-folder of its own per row.
  const wanted = counted ? null : path.resolve(options.profileDir || defaultProfileDir());
  const made = !counted && !fs.existsSync(wanted);
  const base = counted ? null : prepareProfileDir(wanted, { given: Boolean(options.profileDir) });
  const folders = uniqueNames(slower.map((row) => row.label));
  const out = [];
  for (const [i, row] of slower.entries()) {
    const [from, to] = [columnKey(row.a), columnKey(row.b)];
    try {
      const document = await explainComparison({ resultFile: fileA, resultFileB: fileB, from, to, benchmark: row.label, nodes }, counted ? options : { ...options, profileDir: path.join(base, folders[i]) }, hooks);
      out.push({ label: row.label, column: row.column, document });
    } catch (err) {
      if (!isUserError(err)) throw err;
      out.push({ label: row.label, column: row.column, skipped: err.message });
    }
  }
  // Every row skipped (whole commands, suites not here): no empty folder is left for nothing.
  if (made && !out.some((e) => e.document)) fs.rmSync(base, { recursive: true, force: true });
  return out;
}
