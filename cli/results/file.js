// Writing result files. Writes are atomic (temp file + rename); the runner saves as processes finish
// (at most every few seconds) and at the end, so Ctrl-C keeps everything and a kill nearly all.
import fsSync from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeOutput, outputTarget, fileInPath } from '../fs-atomic.js';
import { UserError } from '../errors.js';

export { SCHEMA_VERSION } from './migrate.js';

export function defaultResultPath(dir = 'results', now = new Date()) {
  const stamp = now.toISOString().replace(/[:]/g, '-').replace(/\..+$/, '');
  return path.join(dir, `${stamp}-${os.hostname()}.json`);
}

// The same text as JSON.stringify(result, null, 1), produced cell by cell: a result of a million
// cells is larger than the longest string V8 can hold, so it is never made into one string.
const CHUNK_CHARS = 1 << 20;

function* resultText(result) {
  const { cells, ...rest } = result;
  if (!Array.isArray(cells) || !cells.length) {
    yield `${JSON.stringify(result, null, 1)}\n`;
    return;
  }
  // The rest ends with '"cells": []\n}': the array is opened there and each cell written at depth 2.
  const head = JSON.stringify({ ...rest, cells: [] }, null, 1);
  let chunk = `${head.slice(0, head.lastIndexOf('[]'))}[\n`;
  for (let i = 0; i < cells.length; i++) {
    chunk += `  ${JSON.stringify(cells[i], null, 1).replace(/\n/g, '\n  ')}${i < cells.length - 1 ? ',' : ''}\n`;
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  yield `${chunk} ]\n}\n`;
}

export async function writeResult(file, result) {
  await writeOutput(file, resultText(result));
}

// Reading (migration and schema validation) lives in read.js.
export { readResult } from './read.js';

// Checked before a run starts, so that hours of measuring never end in a file that cannot be
// written, or replace an earlier result unasked. A run saves its file as it goes and reads it back
// to resume: it must be a file, not a device, a FIFO or a /proc path (`what`: the result file, the
// bisect state file). `resume`: the file a --resume continues, which must exist and is only checked
// to be a file (a FIFO there would block the read for ever).
export function checkOutput(file, { force = false, what = 'the result file', option = '--out', resume = false } = {}) {
  const target = outputTarget(file);
  if (target instanceof UserError) throw target;
  if (target.how === 'through') throw new UserError(`${file} is a ${target.what}, not a file: ${what} is saved as the run goes and read back to resume it; give ${resume ? '--resume' : option} the path of a file${what === 'the result file' && !resume ? ' (--json prints the result on stdout)' : ''}.`);
  if (resume) return;
  let stat = null;
  try {
    stat = fsSync.statSync(file);
  } catch (err) {
    if (err.code === 'ENOTDIR' && fileInPath(path.dirname(file))) throw new UserError(`Cannot write ${file}: ${fileInPath(path.dirname(file))} is a file, not a folder; choose another --out.`);
    if (err.code !== 'ENOENT') throw new UserError(`Cannot use ${file} as the result file (${err.code}); choose another --out.`);
  }
  if (stat?.isDirectory()) throw new UserError(`${file} is a folder; give --out the path of a file, e.g. ${path.join(file, 'result.json')}.`);
  if (stat && !force) throw new UserError(`${file} already exists; pass --force to replace it, or choose another --out.`);
  const dir = path.dirname(file);
  try {
    fsSync.mkdirSync(dir, { recursive: true });
    fsSync.accessSync(dir, fsSync.constants.W_OK);
  } catch (err) {
    const blocker = fileInPath(dir);
    throw new UserError(blocker ? `Cannot write ${file}: ${blocker} is a file, not a folder; choose another --out.`
      : `Cannot write the result file in ${dir} (${err.code}); choose another --out.`);
  }
}
