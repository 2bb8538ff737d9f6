// nodebench bisect: find the first Node release between a good and a bad one where a benchmark got
// slower (measured with the same engine as `matrix`, judged by intervals, not exit codes), or where
// a V8 flag's default changed (--flag, no benchmarks). Every step is kept in a state file next to
// the per-step result files, so an interrupted bisect picks up where it stopped. The bisect itself
// is cli/bisect/'s; this file reads the options.
import path from 'node:path';
import { listReleases } from '../runtimes/index.js';
import { checkOutput } from '../results/file.js';
import { exactVersion, releasesBetween } from '../bisect/releases.js';
import { bisectFlag } from '../bisect/flag.js';
import { log } from '../bisect/search.js';
import { bisectMeasured } from '../bisect/benchmark.js';
import { BISECT_FORMATS } from '../bisect/formats.js';
import { addFormatOptions, formatFrom, emit } from '../output/emit.js';
import { parseThreshold } from '../threshold.js';
import { UserError } from '../errors.js';
import { positiveInt } from '../arguments.js';
import { MEASURES } from '../measure.js';
import { checkRunOption } from '../options.js';
import { findValgrind } from '../process/valgrind.js';

export function register(program) {
  addFormatOptions(program.command('bisect')
    .description('find the first Node release between --good and --bad where a benchmark changed (or a V8 flag default did, with --flag)')
    .requiredOption('--good <version>', 'a release that is good, e.g. 14.21.3')
    .requiredOption('--bad <version>', 'a release that is bad, e.g. 16.13.2')
    .option('--flag <name>', 'bisect on this V8 flag\'s default alone, without benchmarks, e.g. concurrent-marking')
    .option('--suite <name>', 'suite of the benchmark, e.g. gc')
    .option('--benchmark <name>', 'the benchmark to measure')
    .option('--flags <flags>', 'V8/Node flags for every measurement, e.g. "--max-semi-space-size=64"')
    .option('--threshold <percent>', 'how large a change counts, e.g. 10%', '10%')
    .option('--processes <n>', 'processes per release and step at first', positiveInt('--processes'), 4)
    .option('--max-processes <n>', 'most processes per release when the verdict is unclear', positiveInt('--max-processes'), 12)
    .option('--samples <n>', 'samples per process', positiveInt('--samples'), 10)
    .option('--measure <measure>', 'time, or instructions: counted under valgrind (Linux), two processes per release and step', 'time')
    .option('--pairing <mode>', 'how processes share the machine: sequential, duet or concurrent (the default of instructions: two counted at once)')
    .option('--out <file>', 'bisect state file (result files of each step go next to it); default results/bisect-GOOD-BAD-WHAT.json')
    .option('--refresh', 'ask the registry for the newest list of releases'), BISECT_FORMATS, { out: false })
    .action(async (opts) => {
      const render = formatFrom(BISECT_FORMATS, opts);
      if (!opts.flag && !(opts.suite && opts.benchmark)) {
        throw new UserError('bisect needs either --flag NAME or both --suite and --benchmark; e.g. --flag concurrent-marking or --suite gc --benchmark old-gen-marking.');
      }
      if (!Object.hasOwn(MEASURES, opts.measure)) throw new UserError(`--measure "${opts.measure}" is not a measure; give time or instructions.`);
      const counted = opts.measure === MEASURES.instructions.id;
      if (counted && opts.flag) throw new UserError('--measure instructions applies to a bisect on a benchmark, and --flag reads flag defaults without measuring; leave out one of them.');
      // Said before any release is listed or installed, as matrix says it.
      if (counted) await findValgrind();
      if (opts.pairing !== undefined && checkRunOption('pairing', opts.pairing)) throw new UserError(`--pairing "${opts.pairing}" is not a way to pair processes; give sequential, duet or concurrent.`);
      const releases = await listReleases({ refresh: opts.refresh });
      const threshold = opts.flag ? undefined : parseThreshold(opts.threshold, { option: '--threshold', below: 100 }) / 100;
      const good = exactVersion(opts.good, '--good', releases);
      const bad = exactVersion(opts.bad, '--bad', releases);
      if (good === bad) throw new UserError('--good and --bad are the same release; give two different ones.');
      const versions = releasesBetween(releases, good, bad);
      const what = opts.flag ? `flag-${opts.flag.replace(/^-+/, '')}` : `${opts.suite}-${opts.benchmark}${counted ? '-instructions' : ''}`;
      const stateFile = path.resolve(opts.out || path.join('results', `bisect-${good}-${bad}-${what}.json`));
      checkOutput(stateFile, { force: true, what: 'the bisect state file' });
      log(`bisect: ${versions.length} releases from ${good} to ${bad}; state in ${path.relative(process.cwd(), stateFile)}`);
      const lines = opts.flag ? await bisectFlag(opts.flag, versions, stateFile)
        : await bisectMeasured({ suite: opts.suite, benchmark: opts.benchmark, flags: opts.flags, processes: opts.processes, maxProcesses: opts.maxProcesses, samples: opts.samples, threshold, measure: opts.measure, pairing: opts.pairing }, versions, stateFile);
      await emit(render, { lines });
    });
}
