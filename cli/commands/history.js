// nodebench history add | show | check: keep result files in a store, show each benchmark's trend
// across runtime versions or dates, and fail CI on a new change point that is a slowdown.
import path from 'node:path';
import { addAndSay, readStore, DEFAULT_STORE } from '../history/store.js';
import { analyseHistory, crossesReleases, gateFailures } from '../history/analysis.js';
import { ORDERS } from '../history/series.js';
import { changeLine } from '../history/table.js';
import { terminalText } from '../text/escape.js';
import { displayName } from '../text/format.js';
import { HISTORY_FORMATS, HISTORY_CHECK_FORMATS } from '../history/formats.js';
import { chooseFormat, emit, addFormatOptions, formatFrom } from '../output/emit.js';
import { listReleases } from '../runtimes/index.js';
import { parseThreshold } from '../threshold.js';
import { UserError } from '../errors.js';
import { list } from '../arguments.js';

function addSelection(command) {
  return command
    .option('--store <dir>', 'the history store', DEFAULT_STORE)
    .option('--suite <names>', 'only these suites (comma-separated)')
    .option('--benchmark <names>', 'only these benchmarks (comma-separated; name or suite/name)')
    .option('--flags <names>', 'only these flag sets (comma-separated names, e.g. baseline)')
    .option('--by <order>', `order each series by runtime ${ORDERS.join(' or ')}: one point per runtime version (its runs pooled), or one per run with a line per runtime`, 'version');
}

function selection(opts) {
  if (!ORDERS.includes(opts.by)) throw new UserError(`--by "${opts.by}" is not known; use ${ORDERS.join(' or ')}.`);
  const filter = (name) => {
    if (opts[name] === undefined) return undefined;
    const values = list(opts[name]);
    if (!values.length) throw new UserError(`--${name} is empty; give a comma-separated list, or leave the option out.`);
    return values;
  };
  return { by: opts.by, suites: filter('suite'), benchmarks: filter('benchmark'), flagSets: filter('flags') };
}

// The known releases, to say how many lie between the two sides of a change; the cached list
// (a day old at most) when there is one. Without it the bisect command is still given.
async function knownReleases() {
  try {
    return await listReleases();
  } catch {
    return null;
  }
}

async function analysisOf(opts) {
  const chosen = selection(opts);
  const entries = await readStore(opts.store);
  const analysis = analyseHistory(entries, chosen);
  if (!crossesReleases(analysis)) return analysis;
  return analyseHistory(entries, { ...chosen, releases: await knownReleases() });
}

export function register(program) {
  const history = program.command('history')
    .description('keep every result in a history store and show each benchmark\'s trend across runtime versions or dates, with its change points')
    .addHelpText('after', `
Examples:
  nodebench history add results/*.json --store results/history
  nodebench history show --benchmark chain-native --format html --out trend.html
  nodebench history show --by date --suite promises
  nodebench history check --fail-on-regression 5        exit 1 on a new change point slower by more than 5%`);

  history.command('add')
    .description('add result files to the history store (each once; a run on another host or with other suite parameters is refused unless allowed)')
    .argument('<files...>', 'result files written by nodebench matrix, run or merge')
    .option('--store <dir>', 'the history store (created on first use)', DEFAULT_STORE)
    .option('--label <text>', 'a name for these runs in charts and change points, e.g. v2.3.0 or "after the Bluebird upgrade"')
    .option('--commit <sha>', 'the commit the runs measured')
    .option('--allow-other-host', 'keep runs of another machine too (each host gets its own series)')
    .option('--allow-other-params', 'keep runs with other suite parameters too (each parameter set gets its own series)')
    .action(async (files, opts) => {
      await addAndSay(opts.store, files, { label: opts.label, commit: opts.commit, allowOtherHost: Boolean(opts.allowOtherHost), allowOtherParams: Boolean(opts.allowOtherParams) });
    });

  addSelection(history.command('show')
    .description('per benchmark and flag set, the series of estimates with their 95% intervals and the change points between them'))
    .option('--format <format>', `one of ${Object.keys(HISTORY_FORMATS).join(', ')}`, 'table')
    .option('--out <file>', 'write to this file instead of stdout (for html: trend.html)')
    .action(async (opts) => {
      const render = chooseFormat(HISTORY_FORMATS, opts.format);
      await emit(render, await analysisOf(opts), { out: opts.out, options: { store: opts.store } });
    });

  addFormatOptions(addSelection(history.command('check')
    .description('fail (exit 1) when the newest history add revealed a change point that is a slowdown beyond the threshold'))
    .option('--fail-on-regression <percent>', 'the slowdown a new change point must exceed to fail', '5'), HISTORY_CHECK_FORMATS)
    .action(async (opts) => {
      const render = formatFrom(HISTORY_CHECK_FORMATS, opts);
      const limit = parseThreshold(opts.failOnRegression, { option: '--fail-on-regression' });
      const analysis = await analysisOf(opts);
      // GitHub Actions shows $GITHUB_STEP_SUMMARY on the run's summary page: the change points.
      await emit(render, { analysis, store: opts.store }, {
        out: opts.out,
        summary: process.env.GITHUB_STEP_SUMMARY ? HISTORY_CHECK_FORMATS.markdown : undefined
      });
      const failures = gateFailures(analysis, limit);
      if (failures.length) {
        const lines = failures.map((f) => `  ${terminalText(displayName(f.label))}: ${f.changes.map(({ series, change }) => changeLine(series, change, analysis, { withBenchmark: false })).join('; ')}`);
        process.stderr.write(`nodebench: ${failures.length} benchmark(s) have a new change point slower by more than ${limit}% in ${path.normalize(opts.store)}:\n${lines.join('\n')}\n`);
        process.exitCode = 1;
      }
    });
}
