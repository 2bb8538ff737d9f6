// Reading a result file: JSON, migrated to the current schemaVersion, then validated against
// result.schema.json, so that report, diff and merge never meet a cell without a status or a
// summary. Every problem is one sentence naming the file and the first thing wrong in it.
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { UserError } from '../errors.js';
import { SCHEMA_VERSION } from './file.js';
import { migrate } from './migrate.js';

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

export async function readResult(file) {
  return parseResult(await readResultText(file), file);
}

// The file's text as written (history add keeps it byte for byte), or a UserError.
export async function readResultText(file) {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    if (err.code === 'ENOENT') throw new UserError(`Result file ${file} does not exist; give the path of a file written by nodebench matrix or run.`);
    if (err.code === 'EISDIR') throw new UserError(`${file} is a directory; give the path of a result file inside it (results/*.json).`);
    if (err.code === 'EACCES') throw new UserError(`Result file ${file} cannot be read (permission denied); check its permissions.`);
    throw err;
  }
}

// The text of a result file (read from disk, or from a history store's compressed copy) as the
// current schema's object; `file` names it in errors.
export function parseResult(text, file) {
  let data;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new UserError(`Result file ${file} is not valid JSON (${err.message}); it may be truncated: rerun, or pass another file.`);
  }
  if (!data || typeof data !== 'object' || typeof data.schemaVersion !== 'number' || !Array.isArray(data.cells)) {
    throw new UserError(`${file} is not a nodebench result file (no schemaVersion or cells); pass a file written by nodebench.`);
  }
  if (data.schemaVersion > SCHEMA_VERSION) {
    throw new UserError(`${file} has schemaVersion ${data.schemaVersion}, newer than this nodebench understands (${SCHEMA_VERSION}); upgrade nodebench.`);
  }
  return validateResult(migrate(data, SCHEMA_VERSION, file), file);
}
