// Result files written by older nodebench versions are brought up to the current schemaVersion on
// read, one version at a time, so every reader (report, diff, merge) sees one shape only.
// Adding a schema version is one entry here: STEPS[n] turns a version-n file into a version-(n+1)
// file (and bumps its schemaVersion).
import { UserError } from '../errors.js';

// The version this nodebench writes; every file read is migrated up to it.
export const SCHEMA_VERSION = 2;

// Version 1 -> 2: warnings became { code, message } (v1 kept sentences); process values and
// set-aside processes are new fields that a v1 file simply does not have.
const V1_WARNING_CODES = [
  [/far outliers/, 'outliers'], [/never reached a stable rate/, 'warmup-unstable'], [/processes disagree/, 'processes-disagree'],
  [/interrupted after/, 'interrupted'], [/target after/, 'target-missed'], [/load average/, 'load'], [/governor/, 'governor']
];
const warningOf = (text) => (typeof text === 'string' ? { code: (V1_WARNING_CODES.find(([pattern]) => pattern.test(text)) || [null, 'note'])[1], message: text } : text);

export const STEPS = {
  1: (data) => ({
    ...data,
    schemaVersion: 2,
    warnings: (data.warnings || []).map(warningOf),
    cells: data.cells.map((cell) => (cell && Array.isArray(cell.warnings) ? { ...cell, warnings: cell.warnings.map(warningOf) } : cell))
  })
};

export function migrate(data, targetVersion, file, steps = STEPS) {
  let current = data;
  while (current.schemaVersion < targetVersion) {
    const step = steps[current.schemaVersion];
    if (!step) {
      throw new UserError(`${file} has schemaVersion ${current.schemaVersion}, which this nodebench cannot migrate to ${targetVersion}; rerun the benchmarks with this version.`);
    }
    const from = current.schemaVersion;
    current = step(current);
    if (current.schemaVersion !== from + 1) throw new Error(`migration step from schemaVersion ${from} must produce ${from + 1}, got ${current.schemaVersion}`);
  }
  return current;
}
