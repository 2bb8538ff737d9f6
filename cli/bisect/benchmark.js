// Bisect on a benchmark: each step measures a release interleaved with the good one (the engine of
// `matrix`, one run per step, its result file next to the state file) and judges it by intervals.
// In instructions (--measure instructions, cli/measure.js) a step counts two processes per release
// under valgrind, as a counted matrix does, and never more: processes of deterministic code agree to
// parts per million, so an interval that straddles the midpoint is a change too small (or a count
// that varies between processes), not too few processes.
import path from 'node:path';
import { runEngine } from '../engine.js';
import { compareCells } from '../stats/compare.js';
import { createProgress } from '../progress.js';
import { UserError } from '../errors.js';
import { log, stepsLeft, runtimeOf, loadState, saveState, searchWithState } from './search.js';
import { flagsDiffLines } from './flag.js';
import { benchmarkName } from '../cell-identity.js';
import { INSTRUCTIONS_RUN } from '../options.js';
import { MEASURES } from '../measure.js';
import { readResult } from '../results/file.js';

const counts = (ctx) => ctx.measure === MEASURES.instructions.id;

// Measures `candidate` interleaved with the good release in one run (so no drift between
// invocations), with more processes each round while the interval straddles the midpoint.
async function measureAgainstGood(candidate, ctx, processes) {
  const out = path.join(ctx.dir, `${ctx.prefix}-${candidate}-${counts(ctx) ? 'instructions' : `p${processes}`}.json`);
  const matrix = {
    runtimes: [{ spec: ctx.good, label: null }, { spec: candidate, label: null }],
    flagSets: ctx.flagSets,
    suites: [{ name: ctx.suite, benchmarks: [ctx.benchmark], params: {} }],
    run: { ...(counts(ctx) ? { ...INSTRUCTIONS_RUN, timeBudgetMin: undefined, measure: ctx.measure } : { processes, maxProcesses: processes, samples: ctx.samples }), ...(ctx.pairing ? { pairing: ctx.pairing } : {}) },
    baseDir: process.cwd()
  };
  const { result, interrupted } = await runEngine(matrix, { out, progress: createProgress(), command: ['bisect', ...process.argv.slice(3)] });
  if (interrupted) throw new UserError(`bisect interrupted while measuring ${candidate}; run the same command again to resume from ${ctx.stateFile}.`, { exitCode: 130 });
  return { ...judgePair(result, ctx.good, candidate), out };
}

// The candidate's cell against the good one's in one run's result: { comparison } or { failed }.
function judgePair(result, good, candidate) {
  const cellOf = (version) => result.cells.find((c) => c.runtime === version);
  const a = cellOf(good);
  const b = cellOf(candidate);
  if (a.status !== 'ok' || b.status !== 'ok') {
    const failed = a.status !== 'ok' ? a : b;
    return { failed: `${failed.runtime} ${failed.status}: ${failed.error}` };
  }
  return { comparison: compareCells(a, b) };
}

const fmtRatio = (c) => `${c.ratio.toFixed(3)}x [${c.ci.low.toFixed(3)}, ${c.ci.high.toFixed(3)}]`;

async function judgeMeasured(version, ctx) {
  let processes = ctx.processes;
  for (;;) {
    const measured = await measureAgainstGood(version, ctx, processes);
    if (measured.failed) return { undecided: `${version} could not be measured (${measured.failed}); see ${measured.out}` };
    const c = measured.comparison;
    // A release is bad when its whole interval is past the midpoint between "no change" and the
    // threshold in the bad direction, good when its whole interval is on the near side.
    const { low, high } = c.ci;
    const badSide = ctx.direction < 0 ? high < ctx.midpoint : low > ctx.midpoint;
    const goodSide = ctx.direction < 0 ? low > ctx.midpoint : high < ctx.midpoint;
    const summary = `${fmtRatio(c)} vs ${ctx.good}, ${processes} processes, ${path.basename(measured.out)}`;
    if (badSide || goodSide) return { kind: badSide ? 'bad' : 'good', summary, ratio: c.ratio, ci: c.ci, resultFile: measured.out, v8: undefined };
    if (counts(ctx)) {
      return { undecided: `${version}'s interval ${fmtRatio(c)} straddles the midpoint ${ctx.midpoint.toFixed(3)} in instructions, which more processes would not narrow: the change is spread over several releases, or the benchmark's count varies between processes (I/O, randomness, threads: see the warnings in ${path.basename(measured.out)})` };
    }
    if (processes * 2 > ctx.maxProcesses) {
      return { undecided: `${version}'s interval ${fmtRatio(c)} straddles the midpoint ${ctx.midpoint.toFixed(3)} even with ${processes} processes; the change may be gradual over several releases or smaller than --threshold` };
    }
    processes *= 2;
    log(`bisect: ${version} is not clear yet (${fmtRatio(c)}); measuring again with ${processes} processes`);
  }
}

// The first release where suite/benchmark changed by more than `threshold` (a fraction) against
// the good end, measured interleaved with it. flags: a string of V8/Node flags for every
// measurement, or undefined. Returns the lines to print.
// measure: 'time' or 'instructions'.
export async function bisectMeasured({ suite, benchmark, flags, processes, maxProcesses, samples, threshold, measure = 'time', pairing }, versions, stateFile) {
  const ctx = {
    measure,
    pairing,
    good: versions[0],
    suite,
    benchmark,
    flagSets: [{ name: flags ? 'flags' : 'baseline', flags: flags ? flags.split(/\s+/).filter(Boolean) : [] }],
    processes: measure === 'time' ? processes : INSTRUCTIONS_RUN.processes,
    maxProcesses: measure === 'time' ? maxProcesses : INSTRUCTIONS_RUN.processes,
    samples,
    threshold,
    dir: path.dirname(stateFile),
    prefix: path.basename(stateFile, '.json'),
    stateFile
  };
  // A time bisect's state keeps the key it always had; a count's names its measure, so that neither
  // resumes the other's steps.
  const state = await loadState(stateFile, { kind: 'benchmark', suite: ctx.suite, benchmark: ctx.benchmark, flags: ctx.flagSets[0].flags, threshold: ctx.threshold, good: ctx.good, bad: versions.at(-1), ...(counts(ctx) ? { measure } : {}) });
  const save = () => saveState(stateFile, state);
  let ends = state.ends;
  if (!ends) {
    log(`bisect: measuring ${ctx.good} against ${versions.at(-1)} first`);
    const measured = await measureAgainstGood(versions.at(-1), ctx, ctx.processes);
    if (measured.failed) throw new UserError(`The bad release could not be measured (${measured.failed}); fix that first.`);
    ends = { ratio: measured.comparison.ratio, ci: measured.comparison.ci, resultFile: measured.out };
    state.ends = ends;
    await save();
  }
  const changed = ends.ci.high < 1 - ctx.threshold || ends.ci.low > 1 + ctx.threshold;
  if (!changed) {
    const what = counts(ctx) ? 'in instructions per operation (as a rate ratio, above 1 is fewer)' : '';
    const fix = counts(ctx) ? 'lower --threshold' : 'lower --threshold or use more --processes';
    throw new UserError(`${versions.at(-1)} against ${ctx.good} is ${ends.ratio.toFixed(3)}x [${ends.ci.low.toFixed(3)}, ${ends.ci.high.toFixed(3)}]${what ? ` ${what}` : ''}, not clearly beyond --threshold ${+(ctx.threshold * 100).toFixed(2)}%; there is nothing to bisect (${fix}).`);
  }
  ctx.direction = ends.ratio < 1 ? -1 : 1;
  ctx.midpoint = Math.sqrt(ends.ratio);
  log(`bisect: ${versions.at(-1)} is ${ends.ratio.toFixed(3)}x [${ends.ci.low.toFixed(3)}, ${ends.ci.high.toFixed(3)}] of ${ctx.good}; a release is bad past ${ctx.midpoint.toFixed(3)}x. ${versions.length - 2} release(s) between, about ${stepsLeft(versions.length - 2)} step(s)`);
  const outcome = await searchWithState(versions, (version) => judgeMeasured(version, ctx), { state, file: stateFile });
  if (outcome.undecided) {
    return [`no verdict: ${outcome.undecided}.`, `The first bad release is between ${outcome.lastGood} (good) and ${outcome.firstBad} (bad); the measurements are in ${stateFile}.`];
  }
  // The verdict's interval: the first bad release against the last good one, measured together.
  const verdictKey = `${outcome.lastGood}..${outcome.firstBad}`;
  let pair = state.verdict && state.verdict.key === verdictKey ? state.verdict.pair : null;
  // Counts of the same two releases would come back the same: the ends' measurement is the verdict's.
  if (!pair && counts(ctx) && outcome.lastGood === ctx.good && outcome.firstBad === versions.at(-1)) {
    pair = { ...judgePair(await readResult(ends.resultFile), ctx.good, outcome.firstBad), out: ends.resultFile };
  }
  if (!pair) {
    pair = await measureAgainstGood(outcome.firstBad, { ...ctx, good: outcome.lastGood, prefix: `${ctx.prefix}-verdict` }, Math.min(ctx.maxProcesses, ctx.processes * 2));
    state.verdict = { key: verdictKey, pair };
    await save();
  }
  const first = await runtimeOf(outcome.firstBad);
  const last = await runtimeOf(outcome.lastGood);
  const lines = [`first bad release: Node ${first.version} (V8 ${first.v8}); last good: Node ${last.version} (V8 ${last.v8})`];
  lines.push(pair.failed ? `  measuring the pair failed: ${pair.failed}`
    : counts(ctx) ? `  ${benchmarkName(ctx)} instructions/op ${outcome.lastGood} / ${outcome.firstBad} (counted under valgrind; below 1x is more instructions): ${fmtRatio(pair.comparison)} (95% interval, ${pair.comparison.method}; ${path.basename(pair.out)})`
      : `  ${benchmarkName(ctx)} ops/s ${outcome.firstBad} / ${outcome.lastGood}: ${fmtRatio(pair.comparison)} (95% interval, ${pair.comparison.method}; ${path.basename(pair.out)})`);
  lines.push(...(await flagsDiffLines(outcome.lastGood, outcome.firstBad)));
  return lines;
}
