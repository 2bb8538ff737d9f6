// Result files written by older nodebench versions are brought up to the current schemaVersion on
// read, one version at a time, so every reader (report, diff, merge) sees one shape only.
// Adding a schema version is one entry here: STEPS[n] turns a version-n file into a version-(n+1)
// file (and bumps its schemaVersion).
import { UserError } from '../errors.js';

export const STEPS = {
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
