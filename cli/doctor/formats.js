// nodebench doctor's output formats, each a function of (report, options) -> text (output/emit.js):
// the report of doctor/run.js as a table for a terminal (options.width: its columns), or as JSON.
import { renderDoctor } from './table.js';
import { terminalText } from '../text/escape.js';
import { renderJson } from '../render/json.js';

export const DOCTOR_FORMATS = {
  // The runtime's path and the machine's names are the machine's own words: escaped.
  table: (report, { width = 100 } = {}) => terminalText(renderDoctor(report, { width }), { keepNewlines: true }),
  json: renderJson
};
