// nodebench report FILE: the tables of an existing result file, in a chosen format.
import { readResult } from '../results/file.js';
import { REPORT_FORMATS } from '../report/formats.js';
import { chooseFormat, emit, wantsColor } from '../output/emit.js';

export function register(program) {
  program.command('report')
    .description('print the tables of a result file again, as a terminal table, Markdown, CSV or a self-contained HTML page with charts')
    .argument('<file>', 'result file')
    .option('--format <format>', `one of ${Object.keys(REPORT_FORMATS).join(', ')}`, 'table')
    .option('--baseline <column>', 'column the ratios compare to, "<runtime>/<flag set>"')
    .option('--metrics', 'table format: also show GC, CPU, event-loop delay and memory per cell for every suite (markdown, html and csv always have them)')
    .option('--distribution', 'table format: also show each cell\'s per-process rates as a one-line histogram (to spot bimodal benchmarks)')
    .option('--warnings', 'table format: list every warning cell by cell instead of counting them')
    .option('--summary', 'table format: print only what changed (the ratios decided slower, then faster, each largest first)')
    .option('--out <file>', 'write the report to this file instead of stdout (for html: report.html)')
    .option('--no-color', 'plain output')
    .action(async (file, opts) => {
      const render = chooseFormat(REPORT_FORMATS, opts.format);
      const result = await readResult(file);
      await emit(render, result, {
        out: opts.out,
        options: { file, baseline: opts.baseline, metrics: opts.metrics, verbose: opts.warnings, summary: opts.summary, distribution: opts.distribution, color: wantsColor({ color: opts.color, out: opts.out }) }
      });
    });
}
