// Writing result files. Writes are atomic (temp file + rename); the runner saves as processes finish
// (at most every few seconds) and at the end, so Ctrl-C keeps everything and a kill nearly all.
import fsSync from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomic } from '../fs-atomic.js';
import { UserError } from '../errors.js';

export const SCHEMA_VERSION = 2;

export function defaultResultPath(dir = 'results', now = new Date()) {
  const stamp = now.toISOString().replace(/[:]/g, '-').replace(/\..+$/, '');
  return path.join(dir, `${stamp}-${os.hostname()}.json`);
}

export async function writeResult(file, result) {
  await writeFileAtomic(file, `${JSON.stringify(result, null, 1)}\n`);
}

// Reading (migration and schema validation) lives in read.js.
export { readResult } from './read.js';

// Checked before a run starts, so that hours of measuring never end in a file that cannot be
// written, or replace an earlier result unasked.
export function checkOutput(file, { force = false } = {}) {
  let stat = null;
  try {
    stat = fsSync.statSync(file);
  } catch (err) {
    if (err.code !== 'ENOENT') throw new UserError(`Cannot use ${file} as the result file (${err.code}); choose another --out.`);
  }
  if (stat?.isDirectory()) throw new UserError(`${file} is a directory; give --out the path of a file, e.g. ${path.join(file, 'result.json')}.`);
  if (stat && !force) throw new UserError(`${file} already exists; pass --force to replace it, or choose another --out.`);
  const dir = path.dirname(file);
  try {
    fsSync.mkdirSync(dir, { recursive: true });
    fsSync.accessSync(dir, fsSync.constants.W_OK);
  } catch (err) {
    throw new UserError(`Cannot write the result file in ${dir} (${err.code}); choose another --out.`);
  }
}
