// nodebench report FILE: the tables of an existing result file, in a chosen format.
import { readResult } from '../results/file.js';
import { renderTables } from '../report/table.js';
import { flagDefaultNotes } from '../report/flag-notes.js';
import { renderMetricsTables } from '../report/metrics-table.js';
import { renderServiceTables } from '../report/service-table.js';
import { renderMarkdown } from '../report/markdown.js';
import { renderCsv } from '../report/csv.js';
import { UserError } from '../errors.js';

const FORMATS = {
  table: (result, opts) => renderTables(result, opts) + flagDefaultNotes(result) + renderServiceTables(result) + (opts.metrics ? `\n${renderMetricsTables(result)}` : ''),
  markdown: (result, opts) => renderMarkdown(result, opts),
  csv: (result) => renderCsv(result)
};

export function register(program) {
  program.command('report')
    .description('print the tables of a result file again, as a terminal table, Markdown or CSV')
    .argument('<file>', 'result file')
    .option('--format <format>', `one of ${Object.keys(FORMATS).join(', ')}`, 'table')
    .option('--baseline <column>', 'column the ratios compare to, "<runtime>/<flag set>"')
    .option('--metrics', 'also show GC, CPU, event-loop delay and memory per cell')
    .option('--warnings', 'list every warning cell by cell instead of counting them')
    .option('--no-color', 'plain output')
    .action(async (file, opts) => {
      const render = FORMATS[opts.format];
      if (!render) throw new UserError(`--format "${opts.format}" is not known; use ${Object.keys(FORMATS).join(', ')}.`);
      const result = await readResult(file);
      process.stdout.write(render(result, { baseline: opts.baseline, metrics: opts.metrics, verbose: opts.warnings, color: opts.color && process.stdout.isTTY && !process.env.NO_COLOR }));
    });
}
