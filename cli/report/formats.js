// nodebench report's output formats, each a function of (result, options) -> text; the command and
// output/emit.js choose one and send it on. options: baseline, metrics, verbose, distribution, color.
// The end of a run (matrix, run, exec) is the same view of its result file.
import { renderTerminal } from './table.js';
import { renderMarkdown } from './markdown.js';
import { renderCsv } from './csv.js';
import { renderHtml } from './html.js';
import { renderDistributions } from './distribution.js';
import { renderJson } from '../render/json.js';

export const REPORT_FORMATS = {
  table: (result, opts) => `${renderTerminal(result, opts)}\n${opts.distribution ? `\n${renderDistributions(result)}` : ''}`,
  markdown: (result, opts) => renderMarkdown(result, opts),
  csv: (result, opts) => renderCsv(result, opts),
  html: (result, opts) => renderHtml(result, opts),
  // The result document itself (read, migrated to the current schema and validated): what
  // `matrix --json` prints too.
  json: renderJson
};

// What matrix, run and exec print when the run ends: its report, or (--json) the result itself. The
// run's warnings go to stderr with its last line (run-command.js), not twice.
export const RUN_END_FORMATS = {
  ...REPORT_FORMATS,
  table: (result, opts) => REPORT_FORMATS.table(result, { ...opts, runWarnings: false })
};
