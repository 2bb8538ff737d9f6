// nodebench matrix: run matrix.yaml (runtimes x flag sets x suites), with CLI overrides.
import path from 'node:path';
import { loadMatrix, defaultMatrixFile } from '../matrix/load.js';
import { runEngine } from '../engine.js';
import { checkOutput } from '../results/file.js';
import { createProgress } from '../progress.js';
import { UserError } from '../errors.js';
import { list, runOptionsFrom, addRunOptions, addResumeOption, resultPathFrom, newResultsFolderNote } from '../arguments.js';
import { printOutcome, addRunEndFormat, runEndFormat } from '../run-command.js';
import { parseShard } from '../matrix/shard.js';
import { addHistoryOption } from '../options.js';
import { checkStoreForRun, addAndSay } from '../history/store.js';

function pickFlagSets(flagSets, names, file) {
  if (!names) return flagSets;
  return names.map((name) => {
    const found = flagSets.find((f) => f.name === name);
    if (!found) throw new UserError(`Flag set "${name}" is not in ${file}; it has ${flagSets.map((f) => f.name).join(', ')}.`);
    return found;
  });
}

export function register(program) {
  const command = program.command('matrix')
    .description('run the benchmark matrix (runtimes x V8 flag sets x suites) from matrix.yaml')
    .option('--matrix <file>', 'matrix file (default ./matrix.yaml, else the one shipped with nodebench)')
    .option('--runtimes <specs>', 'comma-separated runtimes instead of the file\'s, e.g. 6,16,lts')
    .option('--flags <names>', 'comma-separated flag set names from the file, e.g. baseline')
    .option('--suites <names>', 'comma-separated suites (names under suites/ or paths), e.g. promises,json')
    .option('--summary', 'print only what changed at the end (the ratios decided slower, then faster, each largest first), not the tables')
    .option('--shard <i/n>', 'run only this runner\'s share of the benchmarks (e.g. 2/4, or auto from GitLab, Buildkite, CircleCI, Kubernetes or NODEBENCH_SHARD_INDEX/_COUNT); join the files with nodebench merge');
  addRunEndFormat(addHistoryOption(addRunOptions(addResumeOption(command)))).action(async (opts) => {
    const render = runEndFormat(opts);
    const file = path.resolve(opts.matrix || defaultMatrixFile());
    const matrix = await loadMatrix(file);
    for (const option of ['runtimes', 'flags', 'suites']) {
      if (opts[option] !== undefined && !list(opts[option]).length) throw new UserError(`--${option} is empty; give a comma-separated list, or leave the option out to use the matrix file's.`);
    }
    if (opts.runtimes) matrix.runtimes = list(opts.runtimes).map((spec) => ({ spec, label: null }));
    matrix.flagSets = pickFlagSets(matrix.flagSets, opts.flags && list(opts.flags), matrix.file);
    if (opts.suites) matrix.suites = list(opts.suites).map((name) => ({ name, benchmarks: null, params: {} }));
    matrix.run = runOptionsFrom(matrix.run, opts);
    matrix.baseDir = path.dirname(file);
    if (opts.shard) matrix.shard = parseShard(opts.shard);
    const out = resultPathFrom(opts);
    // Before checkOutput, which makes the folder.
    const note = newResultsFolderNote(opts, out);
    checkOutput(out, { force: opts.force, resume: Boolean(opts.resume) });
    // Before hours of measuring: a store this run could not be added to is refused now.
    if (opts.history) await checkStoreForRun(opts.history, { measure: matrix.run.measure });
    const progress = createProgress();
    if (note) progress.log(note);
    const outcome = await runEngine(matrix, { out, progress, refresh: opts.refresh, resume: Boolean(opts.resume) });
    process.exitCode = await printOutcome(outcome, { render, out, baseline: opts.baseline || matrix.run.baseline, color: opts.color, summary: opts.summary, progress });
    if (opts.history && outcome.interrupted) {
      progress.log(`not added to the history ${opts.history}: the run is unfinished; complete it with --resume ${out} --history ${opts.history}`);
    } else if (opts.history) {
      await addAndSay(opts.history, [out], { commit: process.env.GITHUB_SHA || undefined }).catch((err) => {
        throw err instanceof UserError ? new UserError(`${out} is written but not in the history: ${err.message}`) : err;
      });
    }
  });
}
