// Reading and writing result files. Writes are atomic (temp file + rename) and happen after every
// finished process, so Ctrl-C or a kill keeps everything measured so far.
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomic } from '../fs-atomic.js';

export const SCHEMA_VERSION = 1;

export function defaultResultPath(dir = 'results', now = new Date()) {
  const stamp = now.toISOString().replace(/[:]/g, '-').replace(/\..+$/, '');
  return path.join(dir, `${stamp}-${os.hostname()}.json`);
}

export async function writeResult(file, result) {
  await writeFileAtomic(file, `${JSON.stringify(result, null, 1)}\n`);
}

// Reading (migration and schema validation) lives in read.js.
export { readResult } from './read.js';
