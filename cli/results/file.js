// Reading and writing result files. Writes are atomic (temp file + rename) and happen after every
// finished process, so Ctrl-C or a kill keeps everything measured so far.
import fs from 'node:fs/promises';
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

export async function readResult(file) {
  let text;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if (err.code === 'ENOENT') throw new UserError(`Result file ${file} does not exist; give the path of a file written by nodebench matrix or run.`);
    throw err;
  }
  let data;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new UserError(`Result file ${file} is not valid JSON (${err.message}); it may be truncated: rerun, or pass another file.`);
  }
  if (!data || typeof data.schemaVersion !== 'number' || !Array.isArray(data.cells)) {
    throw new UserError(`${file} is not a nodebench result file (no schemaVersion or cells); pass a file written by nodebench.`);
  }
  if (data.schemaVersion > SCHEMA_VERSION) {
    throw new UserError(`${file} has schemaVersion ${data.schemaVersion}, newer than this nodebench understands (${SCHEMA_VERSION}); upgrade nodebench.`);
  }
  return data;
}
