// nodebench diff A.json B.json: what got faster or slower from A to B, by how much, how sure we are.
// Also one file, two of its columns: nodebench diff R.json --from 4.9.1/baseline --to 6.17.1/baseline.
// The comparison is diff/compare.js's, the formats diff/formats.js's; this file reads the options.
import path from 'node:path';
import { terminalText, markdownText } from '../text/escape.js';
import { readResult } from '../results/file.js';
import { ALPHA, INVOCATION_DRIFT } from '../stats/compare.js';
import { EQUIVALENCE } from '../stats/decision.js';
import { AUTO_MIN_CELLS } from '../stats/drift-estimate.js';
import { compareResults } from '../diff/compare.js';
import { DIFF_FORMATS } from '../diff/formats.js';
import { chooseFormat, emit, wantsColor } from '../output/emit.js';
import { gateFailures, gateHeadline, gateMessage, mergeFailures } from '../diff/gate.js';
import { confirmRows, givenSuiteFile, givenFolder, DEFAULT_CONFIRM_MINUTES } from '../diff/confirm.js';
import { metricGateFailures } from '../diff/metrics.js';
import { parseThreshold } from '../threshold.js';
import { UserError } from '../errors.js';
import { METRIC_IDS } from '../stats/metrics.js';
import { explainComparisons } from '../explain/index.js';
import { EXPLAIN_FORMATS } from '../explain/formats.js';
import { createProgress } from '../progress.js';
import { list } from '../arguments.js';
import { measureOfResult } from '../measure.js';

// The options that only mean something with --confirm (opts key, as written).
const CONFIRM_OPTIONS = [['confirmProcesses', '--confirm-processes'], ['confirmMinutes', '--confirm-minutes'], ['confirmOut', '--confirm-out'],
  ['confirmA', '--confirm-a'], ['confirmB', '--confirm-b'], ['confirmACwd', '--confirm-a-cwd'], ['confirmBCwd', '--confirm-b-cwd']];
// A day: a bound past which a typo (600 for 60) would hold a CI runner, not a budget anyone means.
const MAX_CONFIRM_MINUTES = 1440;
const collect = (value, previous = []) => [...previous, value];

export function register(program) {
  program.command('diff')
    .description('compare two result files (or two columns of one): ratio, 95% interval, p-value and verdict per benchmark')
    .argument('<a>', 'result file A (before)')
    .argument('[b]', 'result file B (after); default: A itself, with --from/--to')
    .argument('[command...]', 'with --confirm, after --: the whole command (nodebench exec) to re-measure, as the files measured it; nodebench never runs one a result file names')
    .option('--from <column>', 'column of A to compare from, e.g. 14.21.3/baseline')
    .option('--to <column>', 'column of B to compare to, e.g. 16.20.2/baseline')
    .option('--fail-on-regression [percent]', 'exit 1 if a benchmark is decided slower by more than percent (a decimal below 100, default 0; at a 5% false discovery rate over all the comparisons), or was ok in A and failed, timed out or is missing in B; a passing gate says so on stderr')
    .option('--allow-missing', 'with --fail-on-regression: do not fail for benchmarks missing or unfinished in B')
    .option('--metric <id>', `with --fail-on-regression: also fail when this runtime metric is decided higher by more than the threshold (repeatable; ${METRIC_IDS.join(', ')}); needs two or more metrics processes per cell on each side`, (value, previous = []) => [...previous, value])
    .option('--confirm', 'with --fail-on-regression: re-measure the comparisons the first measurement cannot clear of a slowdown beyond the threshold (both sides interleaved on this machine: two runtimes or flag sets, or, between two files of one runtime and flags, each side\'s own suite file or command) and fail only on what that run decides slower by more than the threshold over its whole 95% interval')
    .option('--confirm-processes <n>', 'with --confirm: processes per cell of the re-measurement (default six times the files\' processes, at least 30)')
    .option('--confirm-minutes <minutes>', `with --confirm: the most the re-measurement may take, estimated from the files' process times before it starts; the comparisons that do not fit keep their first comparison, those the first measurement fails re-measured first (default ${DEFAULT_CONFIRM_MINUTES})`)
    .option('--confirm-out <file>', 'with --confirm: result file of the re-measurement (default B.confirm.json beside B); an interrupted one is resumed by the same diff, a complete one of the same comparisons is judged again as it is, and a file holding anything else is kept and written beside')
    .option('--confirm-a <suite-file>', 'with --confirm: side A\'s version of a suite on this machine, in place of the file A records (gone from this machine, or holding other code now, as when one checkout ran both); for a change of runtime or flags whose file is gone, give the same file to --confirm-b; repeatable, one per suite, matched by the name the suite gives itself', collect)
    .option('--confirm-b <suite-file>', 'with --confirm: side B\'s version of a suite, as --confirm-a', collect)
    .option('--confirm-a-cwd <folder>', 'with --confirm, for a whole command (nodebench exec) named after --: the folder side A runs it in, in place of the one A records')
    .option('--confirm-b-cwd <folder>', 'with --confirm: the folder side B runs the command in, as --confirm-a-cwd')
    .option('--equivalence <percent>', `a change whose 90% interval lies within ±percent (two one-sided tests at 5%) is "same" (default ${EQUIVALENCE * 100}); one that is neither decided faster or slower nor same is "undecided"`)
    .option('--drift <percent>', `drift between two separate runs to allow for, in percent, instead of the default "auto" for two files: estimated per suite from how the two files' cells scatter (from ${AUTO_MIN_CELLS} cells on, never below ${INVOCATION_DRIFT * 100}%; a shift all cells share stays a change); within one file there is none (measure your machine's with nodebench doctor --full)`)
    .option('--format <format>', `one of ${Object.keys(DIFF_FORMATS).join(', ')} (Markdown also goes to $GITHUB_STEP_SUMMARY when that is set)`, 'table')
    .option('--json', 'same as --format json')
    .option('--out <file>', 'write to this file instead of stdout (for html: diff.html)')
    .option('--explain', 'then, for each benchmark decided slower, say where the time went (nodebench explain: extra profiled processes of both columns on this machine), after the table or Markdown')
    .option('--profile-dir <dir>', 'with --explain: where to keep the .cpuprofile files (default ./nodebench-explain-<time>)')
    .option('--node <binaries>', 'with --explain or --confirm: node binaries of yours to run for the path runtimes of the files, each standing in for the one of its version (comma-separated); a binary a result file names is never run')
    .option('--no-color', 'plain output')
    .action(async (first, second, rest, opts, command) => {
      // Every option is checked before any file is read, so a typo fails fast with exit 2.
      const [fileA, fileB, named] = splitOperands([first, second, ...rest].filter((x) => x !== undefined), command.parent?.rawArgs || []);
      const limit = parseThreshold(opts.failOnRegression, { option: '--fail-on-regression' });
      // A rate falls by at most 100%; only a gated metric (--metric) can rise by more.
      if (limit >= 100 && !opts.metric?.length) throw new UserError(`--fail-on-regression ${opts.failOnRegression} can never fail: a benchmark's rate falls by at most 100%; give a percentage below 100, like 5.`);
      const render = chooseFormat(DIFF_FORMATS, opts.json ? 'json' : opts.format);
      if (opts.explain && render !== DIFF_FORMATS.table && render !== DIFF_FORMATS.markdown) throw new UserError('--explain goes with --format table or markdown; for an HTML or JSON explanation run nodebench explain on the benchmark with --format html or json.');
      if (opts.profileDir !== undefined && !opts.explain) throw new UserError('--profile-dir goes with --explain; add it, or leave --profile-dir out.');
      const nodes = opts.node === undefined ? [] : list(opts.node);
      if (opts.node !== undefined && !(opts.explain || opts.confirm)) throw new UserError('--node names binaries for what --explain and --confirm run again; add one of them, or leave --node out.');
      if (!fileB && !(opts.from && opts.to)) throw new UserError('Give a second result file, or --from and --to columns to compare within one file.');
      const confirmOptions = CONFIRM_OPTIONS.filter(([key]) => opts[key] !== undefined).map(([, option]) => option);
      if ((opts.confirm || confirmOptions.length) && limit === undefined) throw new UserError('--confirm re-measures what would fail the gate; give --fail-on-regression too (e.g. --fail-on-regression 5 --confirm).');
      if (named && !opts.confirm) throw new UserError(`The command after -- (${named.join(' ')}) is the one --confirm re-measures; add --confirm, or leave it out.`);
      if (confirmOptions.length && !opts.confirm) throw new UserError(`${confirmOptions.join(', ')} ${confirmOptions.length > 1 ? 'go' : 'goes'} with --confirm; add it, or leave ${confirmOptions.length > 1 ? 'them' : 'it'} out.`);
      const unknownMetric = (opts.metric || []).find((id) => !METRIC_IDS.includes(id));
      if (unknownMetric) throw new UserError(`--metric "${unknownMetric}" is not a runtime metric; use one of ${METRIC_IDS.join(', ')}.`);
      if (opts.metric && limit === undefined) throw new UserError('--metric gates on a runtime metric; give --fail-on-regression too (e.g. --fail-on-regression 10 --metric gc-share).');
      const confirmProcesses = opts.confirmProcesses === undefined ? undefined : Number(opts.confirmProcesses);
      if (confirmProcesses !== undefined && !(Number.isInteger(confirmProcesses) && confirmProcesses >= 3 && confirmProcesses <= 100)) throw new UserError(`--confirm-processes takes a whole number from 3 to 100, not "${opts.confirmProcesses}".`);
      const confirmMinutes = opts.confirmMinutes === undefined ? DEFAULT_CONFIRM_MINUTES : Number(opts.confirmMinutes);
      if (!(Number.isFinite(confirmMinutes) && confirmMinutes > 0 && confirmMinutes <= MAX_CONFIRM_MINUTES) || String(opts.confirmMinutes).trim() === '') throw new UserError(`--confirm-minutes takes a number of minutes above 0 and at most ${MAX_CONFIRM_MINUTES}, like ${DEFAULT_CONFIRM_MINUTES}, not "${opts.confirmMinutes}".`);
      // Paths are checked before any file is read; which suite each file is, once there is something to re-measure.
      const given = {
        a: { files: (opts.confirmA || []).map((f) => givenSuiteFile(f, '--confirm-a')), cwd: opts.confirmACwd === undefined ? null : givenFolder(opts.confirmACwd, '--confirm-a-cwd') },
        b: { files: (opts.confirmB || []).map((f) => givenSuiteFile(f, '--confirm-b')), cwd: opts.confirmBCwd === undefined ? null : givenFolder(opts.confirmBCwd, '--confirm-b-cwd') },
        command: named
      };
      const separateRuns = Boolean(fileB) && path.resolve(fileA) !== path.resolve(fileB);
      // Two separate runs: the drift between them is estimated from the files, never below the 1%
      // measured on a quiet machine (stats/drift-estimate.js); a fixed --drift replaces the estimate.
      let driftCv = separateRuns ? 'auto' : 0;
      if (String(opts.drift).trim().toLowerCase() === 'auto') {
        if (!separateRuns) throw new UserError('--drift auto estimates the drift between two separate result files; the columns of one file ran interleaved, so there is none to estimate (leave --drift out).');
        driftCv = 'auto';
      } else if (opts.drift !== undefined) {
        driftCv = Number(opts.drift) / 100;
        if (!Number.isFinite(driftCv) || driftCv < 0 || String(opts.drift).trim() === '') throw new UserError(`--drift takes a percentage like 1, or auto, not "${opts.drift}".`);
      }
      // Without --equivalence, the band is the measure's (cli/measure.js: ±2% in time, ±1% in instructions).
      const equivalence = opts.equivalence === undefined ? undefined : Number(opts.equivalence) / 100;
      if (equivalence !== undefined && (!Number.isFinite(equivalence) || equivalence < 0 || equivalence >= 1 || String(opts.equivalence).trim() === '')) throw new UserError(`--equivalence takes a percentage from 0 to below 100, like 2, not "${opts.equivalence}".`);
      const resultA = await readResult(fileA);
      const resultB = fileB ? await readResult(fileB) : resultA;
      const measure = measureOfResult(resultA).id;
      if (opts.profileDir !== undefined && measure === 'instructions') throw new UserError('--profile-dir keeps the profiles of explain in time, and these files hold instruction counts, which --explain explains in counts without profiles; leave out --profile-dir.');
      const rows = compareResults(resultA, resultB, { from: opts.from, to: opts.to, fileA, fileB: fileB || fileA, driftCv, equivalence });
      // A gate on a metric no benchmark measured on both sides would pass on nothing.
      const unmeasured = (opts.metric || []).filter((id) => !(rows.metrics || []).some((c) => c.metric === id));
      if (unmeasured.length) {
        const why = measure === 'instructions' ? 'files of instruction counts run no metrics processes' : 'metrics processes need run.metricsMs above 0 and two or more per cell';
        throw new UserError(`--metric ${unmeasured.join(', ')} has nothing to gate: no benchmark has it measured on both sides (${why}); leave it out, or compare files of runs that measured it.`);
      }
      const confirmation = opts.confirm ? await confirmRows(rows, { resultA, resultB, fileA, fileB: fileB || fileA, nodes, limit, alpha: ALPHA, equivalence, processes: confirmProcesses, minutes: confirmMinutes, given, out: opts.confirmOut, command: ['diff', '--confirm', ...process.argv.slice(2)] }) : null;
      const failures = limit === undefined ? null : mergeFailures(
        gateFailures(rows, { limit, allowMissing: Boolean(opts.allowMissing), confirmed: confirmation ? confirmation.byRow : null }),
        metricGateFailures(rows.metrics, { metrics: opts.metric || [], limit })
      );
      const gate = failures ? { confirm: confirmation, metrics: opts.metric || [], measure } : null;
      const context = { fileA, fileB: fileB || fileA, resultA, resultB, failures, limit, gate };
      // The explanations run extra processes first, then print under the diff in its format.
      // Files of counts are explained in counts, as `explain` explains them.
      const explanation = opts.explain ? await explainSlower(rows, { fileA, fileB: fileB || fileA, nodes, markdown: render === DIFF_FORMATS.markdown, profileDir: opts.profileDir, measure }) : '';
      await emit((document, options) => `${render(document, options)}${explanation}`, { rows, context }, {
        out: opts.out,
        options: { color: wantsColor({ color: opts.color, out: opts.out }) },
        summary: process.env.GITHUB_STEP_SUMMARY ? (document) => `${DIFF_FORMATS.markdown(document)}\n` : undefined
      });
      if (failures?.length) {
        // Benchmark and column names come from suite files: gateMessage escapes each.
        process.stderr.write(`nodebench: ${gateMessage(failures, { limit, ...gate })}\n`);
        process.exitCode = 1;
      } else if (failures) {
        // A CI log says that the gate ran and passed, not only nothing.
        process.stderr.write(`nodebench: gate passed: ${gateHeadline(failures, { limit, ...gate }).text}\n`);
      }
    });
}

// diff's operands: one or two result files, then, after --, the command --confirm may run (commander
// cannot tell `diff R.json -- npm test` from `diff A.json B.json test`: the raw arguments can).
function splitOperands(operands, raw) {
  const dash = raw.indexOf('--');
  const after = dash < 0 ? 0 : raw.length - dash - 1;
  const files = operands.slice(0, operands.length - after);
  if (files.length > 2) throw new UserError(`diff takes one or two result files, not ${files.length} (${files.join(', ')}); a command for --confirm to re-measure goes after --.`);
  if (dash >= 0 && !after) throw new UserError('Nothing follows --; give the command for --confirm to re-measure after it (e.g. -- npm run build), or leave -- out.');
  return [files[0], files[1], after ? operands.slice(-after) : null];
}

// One explanation per row decided slower, as text to print under the diff. A row that cannot be
// re-run here (a whole command, a suite not on this machine) says why in one line.
async function explainSlower(rows, { fileA, fileB, nodes, markdown, profileDir, measure }) {
  const progress = createProgress();
  const explained = await explainComparisons(rows, { fileA, fileB, nodes }, { profileDir, measure }, { log: (m) => progress.log(m) });
  const render = markdown ? EXPLAIN_FORMATS.markdown : EXPLAIN_FORMATS.table;
  const [lead, safe] = markdown ? ['', markdownText] : ['explain: ', terminalText];
  const parts = explained.length
    ? explained.map((e) => (e.document ? render(e.document) : `${lead}${safe(e.label)} (${safe(e.column)}) not explained: ${safe(e.skipped)}\n`))
    : [`${lead}no benchmark was decided slower, so there is nothing to explain.\n`];
  return `\n${parts.join('\n')}`;
}
