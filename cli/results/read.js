// Reading a result file: JSON, migrated to the current schemaVersion, then validated against
// result.schema.json, so that report, diff and merge never meet a cell without a status or a
// summary. Every problem is one sentence naming the file and the first thing wrong in it.
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
import { formatBytes, displayName } from '../text/format.js';
import { openRegularFile, readRegularFile, kindOf } from '../fs-atomic.js';
import { perOpSamples } from '../stats/summary.js';
import { benchmarkName, columnKey } from '../cell-identity.js';
import { MEASURES, measureOfResult, measureOfCell } from '../measure.js';

const require = createRequire(import.meta.url);
let validator;

// Compiled on first use: commands that never read a result file do not pay for it.
function schemaValidator() {
  if (!validator) {
    // strictNumbers: a number in JSON can be 1e400, which parses as Infinity and would pass "number".
    const ajv = new Ajv({ allErrors: true, strict: false, strictNumbers: true });
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
  // A FIFO would be waited on for ever, /dev/zero read until the string is too long for V8.
  if (err.code === 'ENOTREGULAR') return new UserError(`Result file ${file} is ${err.kind}, not a file; give the path of a result file written by nodebench ${WRITERS}.`);
  return err;
}

const WRITERS = 'matrix, run or merge';
const crafted = (file, what) => new UserError(`${file}${what}; nodebench writes no such file: pass a file written by nodebench ${WRITERS}.`);

// How deep a result's values may nest. nodebench's own files nest about 8 deep, a suite's params
// a few levels more; JSON.parse takes any depth, but JSON.stringify (history add, merge, a worker's
// request), structuredClone and every recursive walk overflow the stack somewhere past a few
// thousand levels.
export const MAX_NESTING = 64;
const SHOWN_LEVELS = 7;

// Whether `value` nests deeper than `limit`: a walk with stacks of its own, which no depth can
// overflow. It visits every object and array once (a tenth of what JSON.parse spent on them).
function nestsDeeper(value, limit) {
  const values = [value];
  const depths = [1];
  while (values.length) {
    const at = values.pop();
    const depth = depths.pop();
    if (depth > limit) return true;
    // Indexes for arrays: most of a result's values are numbers in arrays of samples.
    const keys = Array.isArray(at) ? null : Object.keys(at);
    for (let i = 0, n = keys ? keys.length : at.length; i < n; i++) {
      const child = at[keys ? keys[i] : i];
      if (child !== null && typeof child === 'object') {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

// Where `value` first nests deeper than `limit`, by its first levels ("suites[0].params.a.a.a…"),
// or null. The path is looked for only once the fast walk found something.
export function tooDeep(value, limit = MAX_NESTING) {
  if (value === null || typeof value !== 'object' || !nestsDeeper(value, limit)) return null;
  const stack = [[value, 1, '']];
  for (;;) {
    const [at, depth, where] = stack.pop();
    if (depth > limit) return `${where}…`;
    for (const key of Object.keys(at)) {
      const child = at[key];
      if (child === null || typeof child !== 'object') continue;
      const named = depth >= SHOWN_LEVELS ? where : Array.isArray(at) ? `${where}[${key}]` : `${where}${where ? '.' : ''}${key}`;
      stack.push([child, depth + 1, named]);
    }
  }
}

// One measure per file: the run's (run.measure) is every cell's and every process's. diff and report
// go by the run's to choose what to compare and by the cell's to read its values, so a file whose
// cells hold times under a run of counts (or counts under a run of times) would compare nanoseconds
// with instructions.
function checkMeasures(result, file) {
  const named = result.run?.measure;
  if (named !== undefined && !Object.hasOwn(MEASURES, named)) throw crafted(file, ` has run.measure ${JSON.stringify(String(named)).slice(0, 40)}, which nodebench does not measure (${Object.keys(MEASURES).join(' or ')})`);
  const measure = measureOfResult(result).id;
  for (const [i, cell] of result.cells.entries()) {
    const which = `: cells[${i}] (${displayName(benchmarkName(cell))} on ${displayName(columnKey(cell))})`;
    if (measureOfCell(cell).id !== measure) throw crafted(file, `${which} is measured in ${measureOfCell(cell).id}, its run in ${measure}`);
    const j = (cell.processes || []).findIndex((p) => measureOfCell(p).id !== measure);
    if (j >= 0) throw crafted(file, `${which}, process ${j + 1}, is measured in ${measureOfCell(cell.processes[j]).id}, its run in ${measure}`);
  }
}

// What the schema cannot say: each process's keptSamples name samples it has, once each. An index
// past the samples made every figure NaN, and a gate judged NaN as no change.
function checkKeptSamples(result, file) {
  for (const [i, cell] of result.cells.entries()) {
    for (const [j, record] of (cell.processes || []).entries()) {
      if (!Array.isArray(record.keptSamples)) continue;
      const count = perOpSamples(record).length;
      const seen = new Set();
      for (const index of record.keptSamples) {
        const which = `: cells[${i}] (${displayName(benchmarkName(cell))} on ${displayName(columnKey(cell))}), process ${j + 1} keeps sample ${index}`;
        if (index >= count) throw crafted(file, `${which} of its ${count} (keptSamples)`);
        if (seen.has(index)) throw crafted(file, `${which} twice (keptSamples)`);
        seen.add(index);
      }
    }
  }
}

const notJson = (file, err) => new UserError(`Result file ${file} is not valid JSON (${err.message}); it may be truncated: rerun, or pass another file.`);

async function parseStreaming(file) {
  let handle;
  try {
    handle = await openRegularFile(file);
  } catch (err) {
    throw readFailure(err, file);
  }
  const pipeline = chain([handle.createReadStream(), parser(), streamValues()]);
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
    return await readRegularFile(file, 'utf8');
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
  const deep = tooDeep(data);
  if (deep) throw crafted(file, ` nests its values more than ${MAX_NESTING} deep (at ${deep})`);
  const result = validateResult(migrate(data, SCHEMA_VERSION, file), file);
  checkMeasures(result, file);
  checkKeptSamples(result, file);
  return result;
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
    // Named before anything is opened; the readers below open it without waiting and look again.
    if (!stat.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'ENOTREGULAR', kind: kindOf(stat) });
    size = stat.size;
  } catch (err) {
    throw readFailure(err, file);
  }
  checkMemory(file, size);
  bytesRead += size;
  if (size > streamReadBytes()) return checkedResult(await parseStreaming(file), file);
  return parseResult(await readResultText(file), file);
}
