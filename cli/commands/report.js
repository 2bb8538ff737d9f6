// nodebench report FILE: the tables of an existing result file, in a chosen format.
import { readResult } from '../results/file.js';
import { renderTerminal } from '../report/terminal.js';
import { renderMarkdown } from '../report/markdown.js';
import { renderCsv } from '../report/csv.js';
import { renderHtml } from '../report/html.js';
import { renderDistributions } from '../report/distribution.js';
import { writeOutput } from '../fs-atomic.js';
import { UserError } from '../errors.js';

const FORMATS = {
  table: (result, opts) => `${renderTerminal(result, opts)}\n${opts.distribution ? `\n${renderDistributions(result)}` : ''}`,
  markdown: (result, opts) => renderMarkdown(result, opts),
  csv: (result) => renderCsv(result),
  html: (result, opts) => renderHtml(result, opts)
};

export function register(program) {
  program.command('report')
    .description('print the tables of a result file again, as a terminal table, Markdown, CSV or a self-contained HTML page with charts')
    .argument('<file>', 'result file')
    .option('--format <format>', `one of ${Object.keys(FORMATS).join(', ')}`, 'table')
    .option('--baseline <column>', 'column the ratios compare to, "<runtime>/<flag set>"')
    .option('--metrics', 'table format: also show GC, CPU, event-loop delay and memory per cell for every suite (markdown, html and csv always have them)')
    .option('--distribution', 'table format: also show each cell\'s per-process rates as a one-line histogram (to spot bimodal benchmarks)')
    .option('--warnings', 'table format: list every warning cell by cell instead of counting them')
    .option('--out <file>', 'write the report to this file instead of stdout (for html: report.html)')
    .option('--no-color', 'plain output')
    .action(async (file, opts) => {
      const render = FORMATS[opts.format];
      if (!render) throw new UserError(`--format "${opts.format}" is not known; use ${Object.keys(FORMATS).join(', ')}.`);
      const result = await readResult(file);
      const text = render(result, { baseline: opts.baseline, metrics: opts.metrics, verbose: opts.warnings, distribution: opts.distribution, color: !opts.out && opts.color && process.stdout.isTTY && !process.env.NO_COLOR });
      if (opts.out) {
        await writeOutput(opts.out, text);
        process.stderr.write(`wrote ${opts.out}\n`);
      } else {
        process.stdout.write(text);
      }
    });
}
