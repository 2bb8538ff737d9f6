// Reading a result file: JSON, migrated to the current schemaVersion, then validated against
// result.schema.json, so that report, diff and merge never meet a cell without a status or a
// summary. Every problem is one sentence naming the file and the first thing wrong in it.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { constants } from 'node:buffer';
import { finished } from 'node:stream/promises';
import { createRequire } from 'node:module';
import v8 from 'node:v8';
import { parser } from 'stream-json';
import { streamValues } from 'stream-json/streamers/stream-values.js';
import chain from 'stream-chain';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { UserError } from '../errors.js';
import { migrate, SCHEMA_VERSION } from './migrate.js';
import { formatBytes } from '../text/format.js';

const require = createRequire(import.meta.url);
let validator;

// Compiled on first use: commands that never read a result file do not pay for it.
function schemaValidator() {
  if (!validator) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    validator = ajv.compile(require('./result.schema.json'));
  }
  return validator;
}

function describeSchemaError(error) {
  const where = error.instancePath ? error.instancePath.slice(1).replace(/\//g, '.') : 'the top level';
  const detail = error.keyword === 'enum' ? ` (${error.params.allowedValues.join(', ')})`
    : error.keyword === 'const' ? ` (${JSON.stringify(error.params.allowedValue)})` : '';
  return `${where} ${error.message}${detail}`;
}

export function validateResult(data, file) {
  const validate = schemaValidator();
  if (!validate(data)) {
    // A missing status also trips the status-dependent if/then rules; the plain error says more.
    const plain = validate.errors.find((e) => !e.schemaPath.includes('/allOf/') && e.keyword !== 'if') || validate.errors[0];
    throw new UserError(`${file} does not match the nodebench result schema: ${describeSchemaError(plain)}; pass a file written by nodebench matrix, run or merge.`);
  }
  return data;
}

// Above this size a result file is parsed as a stream: V8 cannot hold a string longer than
// MAX_STRING_LENGTH characters, and a file of a million cells is larger. Smaller files take
// JSON.parse, which is faster. NODEBENCH_STREAM_READ_BYTES lowers the limit,
// so that the tests read small files the streaming way too.
export function streamReadBytes(env = process.env) {
  const hook = Number(env.NODEBENCH_STREAM_READ_BYTES);
  return Number.isFinite(hook) && hook >= 0 ? hook : constants.MAX_STRING_LENGTH;
}

function readFailure(err, file) {
  if (err.code === 'ENOENT') return new UserError(`Result file ${file} does not exist; give the path of a file written by nodebench matrix or run.`);
  if (err.code === 'EISDIR') return new UserError(`${file} is a directory; give the path of a result file inside it (results/*.json).`);
  if (err.code === 'EACCES') return new UserError(`Result file ${file} cannot be read (permission denied); check its permissions.`);
  return err;
}

const notJson = (file, err) => new UserError(`Result file ${file} is not valid JSON (${err.message}); it may be truncated: rerun, or pass another file.`);

async function parseStreaming(file) {
  const pipeline = chain([fs.createReadStream(file), parser(), streamValues()]);
  const values = [];
  pipeline.on('data', ({ value }) => values.push(value));
  try {
    await finished(pipeline);
  } catch (err) {
    if (err.code) throw readFailure(err, file);
    throw notJson(file, err);
  }
  if (values.length !== 1) throw notJson(file, new Error(values.length ? 'more than one JSON value' : 'no JSON value'));
  return values[0];
}

// A parsed result holds about as many bytes of heap as its file, and what a command then makes of
// it (diff's comparisons, merge's copies) about as many again: bench/scale.js measured diff of two
// 1.2 GiB files running out of a 4 GiB heap. Files read by one process are counted together, so
// that running out is a sentence before the reading, not V8's abort after minutes of it.
const HEAP_PER_FILE_BYTE = 2;
let bytesRead = 0;

function checkMemory(file, size) {
  const needed = (bytesRead + size) * HEAP_PER_FILE_BYTE;
  const limit = v8.getHeapStatistics().heap_size_limit;
  if (needed <= limit) return;
  const others = bytesRead ? ` after ${formatBytes(bytesRead)} of other result files` : '';
  throw new UserError(`Reading ${file} (${formatBytes(size)})${others} needs about ${formatBytes(needed)} of memory, more than this Node's heap limit of ${formatBytes(limit)}; give Node more with NODE_OPTIONS=--max-old-space-size=${Math.ceil(needed / 2 ** 20 / 1024) * 1024 + 1024}, or pass smaller files.`);
}

// The file's text as written (history add keeps it byte for byte), or a UserError.
export async function readResultText(file) {
  try {
    return await fsp.readFile(file, 'utf8');
  } catch (err) {
    throw readFailure(err, file);
  }
}

// A parsed result file as the current schema's object; `file` names it in errors.
function checkedResult(data, file) {
  if (!data || typeof data !== 'object' || typeof data.schemaVersion !== 'number' || !Array.isArray(data.cells)) {
    throw new UserError(`${file} is not a nodebench result file (no schemaVersion or cells); pass a file written by nodebench.`);
  }
  if (data.schemaVersion > SCHEMA_VERSION) {
    throw new UserError(`${file} has schemaVersion ${data.schemaVersion}, newer than this nodebench understands (${SCHEMA_VERSION}); upgrade nodebench.`);
  }
  return validateResult(migrate(data, SCHEMA_VERSION, file), file);
}

// The text of a result file (read from disk, or from a history store's compressed copy) as the
// current schema's object; `file` names it in errors.
export function parseResult(text, file) {
  let data;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw notJson(file, err);
  }
  return checkedResult(data, file);
}

export async function readResult(file) {
  let size;
  try {
    const stat = await fsp.stat(file);
    if (stat.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    size = stat.size;
  } catch (err) {
    throw readFailure(err, file);
  }
  checkMemory(file, size);
  bytesRead += size;
  if (size > streamReadBytes()) return checkedResult(await parseStreaming(file), file);
  return parseResult(await readResultText(file), file);
}
