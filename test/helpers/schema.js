// Validates a result object against the shipped JSON Schema.
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { root } from './cli.js';

const schema = JSON.parse(fs.readFileSync(path.join(root, 'cli', 'results', 'result.schema.json'), 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);
// A process record alone, against the schema's definition of one.
export const validProcess = ajv.getSchema(`${schema.$id}#/definitions/process`);

export function schemaErrors(result) {
  return validate(result) ? [] : validate.errors.map((e) => `${e.instancePath} ${e.message}`);
}
