// nodebench explain: where the time went between two columns for one benchmark. Parses options,
// asks the domain (cli/explain/) for the one document, writes it in the chosen format.
import { UserError } from '../errors.js';
import { createProgress } from '../progress.js';
import { positiveInt, positiveNumber, nonNegativeInt, list } from '../arguments.js';
import { explainComparison, EXPLAIN_DEFAULTS, COUNTED_PROCESSES } from '../explain/index.js';
import { findValgrind } from '../process/valgrind.js';
import { EXPLAIN_FORMATS } from '../explain/formats.js';
import { chooseFormat, emit } from '../output/emit.js';
import { checkWritable } from '../fs-atomic.js';
import { addRunOption } from '../options.js';
import { readResult } from '../results/file.js';
import { measureOfResult } from '../measure.js';

export function register(program) {
  addRunOption(program.command('explain')
    .description('where the time went between two columns for one benchmark: CPU self time per function side by side, GC per operation, deoptimisations, V8 flags that differ (extra profiled processes per side; keeps the .cpuprofile files); with --measure instructions, instructions per function side by side, counted under valgrind\'s callgrind, JIT code named from V8\'s perf map (docs/instructions.md)')
    .argument('[result]', 'result file whose columns to compare (leave out with --suite and runtime specs)')
    .argument('[resultB]', 'a second result file holding the --to column (as diff A.json B.json)')
    .requiredOption('--from <column>', 'side A: a column of the result file (14.21.3/baseline), or with --suite alone RUNTIME[/FLAGS] (16, "16.20.2/--max-semi-space-size=64")')
    .requiredOption('--to <column>', 'side B, as --from')
    .requiredOption('--benchmark <name>', 'SUITE/BENCHMARK, e.g. promises/chain-native (BENCHMARK alone when it is unique)')
    .option('--suite <file>', 'the suite file to run (a user\'s file; with a result file: where its suite is on this machine)')
    .option('--node <binaries>', 'with a result file: node binaries of yours to run for its path runtimes, each standing in for the one of its version (comma-separated); a binary a result file names is never run')
    .option('--measure <measure>', 'time (CPU self time from profiles) or instructions (self instructions per function from callgrind, exact: Linux with valgrind); default: the result file\'s measure, else time')
    .option('--processes <n>', `profiled processes per side (default ${EXPLAIN_DEFAULTS.processes}; two or more give intervals); with --measure instructions, counted processes per side (default ${COUNTED_PROCESSES}; two or more show their spread)`, positiveInt('processes'))
    .option('--metrics-processes <n>', `--trace-gc processes per side (default ${EXPLAIN_DEFAULTS.metricsProcesses}; 0: no GC figures)`, nonNegativeInt('metrics-processes'))
    .option('--duration <seconds>', `measured window of each process (default ${EXPLAIN_DEFAULTS.windowMs / 1000})`, positiveNumber('duration'))
    .option('--interval <us>', `profiler sampling interval in microseconds (default ${EXPLAIN_DEFAULTS.intervalUs})`, positiveInt('interval'))
    .option('--profile-dir <dir>', 'where to keep the .cpuprofile files (default ./nodebench-explain-<time>)')
    .option('--format <format>', `one of ${Object.keys(EXPLAIN_FORMATS).join(', ')}`, 'table')
    .option('--out <file>', 'write the output to this file instead of stdout'), 'timeoutSec')
    .action(async (resultFile, resultFileB, opts) => {
      const render = chooseFormat(EXPLAIN_FORMATS, opts.format);
      if (opts.measure !== undefined && !['time', 'instructions'].includes(opts.measure)) throw new UserError(`--measure "${opts.measure}" is not a measure; give time or instructions.`);
      // A file of counts is explained in counts unless --measure says otherwise.
      const measure = opts.measure ?? (resultFile ? measureOfResult(await readResult(resultFile)).id : 'time');
      const counted = measure === 'instructions';
      // Options of the profiler and the metrics processes, which a count runs neither of: said, not
      // silently dropped.
      const timeOnly = [['interval', '--interval'], ['duration', '--duration'], ['metricsProcesses', '--metrics-processes'], ['profileDir', '--profile-dir']].find(([key]) => opts[key] !== undefined);
      if (counted && timeOnly) throw new UserError(`${timeOnly[1]} applies to explain in time (the profiler and its metrics processes), and ${opts.measure ? '--measure instructions' : 'a result file of counts, explained in counts,'} runs neither; leave out ${timeOnly[1]}.`);
      // Before anything runs: no valgrind is the one sentence run and matrix say.
      if (counted) await findValgrind();
      if (opts.interval !== undefined && opts.interval < 50) throw new UserError(`--interval ${opts.interval} is below 50 µs, where the profiler's own cost swamps the benchmark; use 50 or more.`);
      // Before minutes of profiling: a --out that cannot be written (/dev/full, a FIFO with no
      // reader, a read-only folder) is the sentence it would be at the end.
      if (opts.out) await checkWritable(opts.out);
      const progress = createProgress();
      const document = await explainComparison(
        { resultFile, resultFileB, suite: opts.suite, from: opts.from, to: opts.to, benchmark: opts.benchmark, nodes: opts.node === undefined ? undefined : list(opts.node) },
        {
          measure, processes: opts.processes, metricsProcesses: opts.metricsProcesses, intervalUs: opts.interval, profileDir: opts.profileDir,
          windowMs: opts.duration === undefined ? undefined : opts.duration * 1000,
          timeoutMs: opts.timeout === undefined ? undefined : opts.timeout * 1000
        },
        { log: (m) => progress.log(m) }
      );
      await emit(render, document, { out: opts.out });
    });
}
