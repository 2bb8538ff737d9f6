// nodebench report's output formats, each a function of (result, options) -> text; the command and
// output/emit.js choose one and send it on. options: baseline, metrics, verbose, distribution, color.
import { renderTerminal } from './terminal.js';
import { renderMarkdown } from './markdown.js';
import { renderCsv } from './csv.js';
import { renderHtml } from './html.js';
import { renderDistributions } from './distribution.js';

export const REPORT_FORMATS = {
  table: (result, opts) => `${renderTerminal(result, opts)}\n${opts.distribution ? `\n${renderDistributions(result)}` : ''}`,
  markdown: (result, opts) => renderMarkdown(result, opts),
  csv: (result) => renderCsv(result),
  html: (result, opts) => renderHtml(result, opts)
};
