// nodebench bisect: find the first Node release between a good and a bad one where a benchmark got
// slower (measured with the same engine as `matrix`, judged by intervals, not exit codes), or where
// a V8 flag's default changed (--flag, no benchmarks). Every step is kept in a state file next to
// the per-step result files, so an interrupted bisect picks up where it stopped.
import path from 'node:path';
import semver from 'semver';
import { ensureRuntime, listReleases } from '../runtimes/index.js';
import { parseRuntimeSpec } from '../runtimes/spec.js';
import { runtimeFlags } from '../flags/index.js';
import { findFlag } from '../flags/parse.js';
import { diffFlags, formatDefault } from '../flags/diff.js';
import { runMatrix } from '../engine.js';
import { compareCells } from '../stats/compare.js';
import { createProgress } from '../progress.js';
import { readJsonIfExists, writeOutput } from '../fs-atomic.js';
import { checkOutput } from '../results/file.js';
import { UserError } from '../errors.js';
import { positiveInt } from './shared.js';

const log = (m) => process.stderr.write(`${m}\n`);

function parseThreshold(text) {
  const match = /^(\d+(?:\.\d+)?)%?$/.exec(String(text).trim());
  const value = match ? Number(match[1]) / 100 : NaN;
  if (!(value > 0 && value < 1)) throw new UserError(`--threshold takes a percentage between 0 and 100 such as 10%, not "${text}".`);
  return value;
}

function exactVersion(spec, name, releases) {
  const parsed = parseRuntimeSpec(spec);
  if (parsed.kind !== 'exact' || !releases.includes(parsed.version)) {
    throw new UserError(`${name} must be an exact released Node version such as 14.21.3, not "${spec}".`);
  }
  return parsed.version;
}

export function releasesBetween(releases, good, bad) {
  const [low, high] = semver.lt(good, bad) ? [good, bad] : [bad, good];
  const between = releases.filter((v) => semver.gte(v, low) && semver.lte(v, high)).sort(semver.compare);
  return semver.lt(good, bad) ? between : between.reverse();
}

// Binary search over `versions` (versions[0] good, the last bad) for the first bad one. `judge`
// answers 'good', 'bad', or { undecided: reason }; answers already in `known` are not asked again.
export async function bisectVersions(versions, judge, { known = new Map(), onStep = () => {} } = {}) {
  let lo = 0;
  let hi = versions.length - 1;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    const version = versions[mid];
    const verdict = known.has(version) ? known.get(version) : await judge(version);
    known.set(version, verdict);
    if (verdict.undecided) return { undecided: verdict.undecided, lastGood: versions[lo], firstBad: versions[hi], at: version };
    if (verdict.kind === 'good') lo = mid;
    else hi = mid;
    await onStep({ version, verdict, left: versions.slice(lo + 1, hi), lastGood: versions[lo], firstBad: versions[hi] });
  }
  return { lastGood: versions[lo], firstBad: versions[hi] };
}

const stepsLeft = (n) => (n > 0 ? Math.ceil(Math.log2(n + 1)) : 0);

function progressLine({ version, verdict, left, lastGood, firstBad }) {
  return `bisect: ${version} is ${verdict.kind} (${verdict.summary}); ${left.length} release(s) left between ${lastGood} and ${firstBad}, about ${stepsLeft(left.length)} more step(s)`;
}

async function runtimeOf(version) {
  return ensureRuntime(version, { log });
}

// The state of an earlier bisect with the same key, to resume; another bisect's state is started
// over. A file that is not a bisect state (a report, say) is never overwritten unasked.
async function loadState(file, key) {
  let state;
  try {
    state = await readJsonIfExists(file);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    throw new UserError(`${file} is not a bisect state file (not JSON); choose another --out, or remove it.`);
  }
  if (state !== null && !(typeof state === 'object' && state.key && state.steps && typeof state.steps === 'object')) {
    throw new UserError(`${file} is not a bisect state file (other JSON); choose another --out, or remove it.`);
  }
  if (state && JSON.stringify(state.key) === JSON.stringify(key)) return state;
  return { key, steps: {} };
}

function changedGcDefaults(a, b) {
  return diffFlags(a.flags, b.flags).changed.slice(0, 12)
    .map((c) => `  --${c.name}: ${formatDefault(c.before)} -> ${formatDefault(c.after)}`);
}

async function flagsDiffLines(lastGood, firstBad) {
  const a = await runtimeFlags(await runtimeOf(lastGood));
  const b = await runtimeFlags(await runtimeOf(firstBad));
  const { added, removed, changed } = diffFlags(a.flags, b.flags);
  return [`V8 flags from ${lastGood} to ${firstBad}: ${changed.length} default(s) changed, ${added.length} added, ${removed.length} removed${changed.length ? '; first the GC, compiler and memory ones:' : ''}`, ...changedGcDefaults(a, b)];
}

async function flagDefaultOf(version, flagName) {
  const runtime = await runtimeOf(version);
  const flag = findFlag((await runtimeFlags(runtime)).flags, flagName);
  return { runtime, value: flag ? flag.default : 'absent' };
}

async function bisectFlag(opts, versions, stateFile) {
  const flagName = opts.flag.replace(/^-+/, '');
  const state = await loadState(stateFile, { kind: 'flag', flag: flagName, good: versions[0], bad: versions.at(-1) });
  const save = () => writeOutput(stateFile, `${JSON.stringify(state, null, 1)}\n`);
  const good = await flagDefaultOf(versions[0], flagName);
  const bad = await flagDefaultOf(versions.at(-1), flagName);
  const show = (v) => (v === 'absent' ? 'absent' : formatDefault(v));
  if (JSON.stringify(good.value) === JSON.stringify(bad.value)) {
    throw new UserError(`--${flagName} defaults to ${show(good.value)} on both ${versions[0]} and ${versions.at(-1)}; pick releases where it differs (see nodebench flags diff).`);
  }
  log(`bisect: --${flagName} is ${show(good.value)} on ${versions[0]} and ${show(bad.value)} on ${versions.at(-1)}; ${versions.length - 2} release(s) between, about ${stepsLeft(versions.length - 2)} step(s)`);
  const known = new Map(Object.entries(state.steps));
  const outcome = await bisectVersions(versions, async (version) => {
    const { runtime, value } = await flagDefaultOf(version, flagName);
    const kind = JSON.stringify(value) === JSON.stringify(good.value) ? 'good' : 'bad';
    return { kind, summary: `--${flagName} ${show(value)}`, v8: runtime.v8, value };
  }, {
    known,
    onStep: async (step) => {
      state.steps[step.version] = step.verdict;
      await save();
      log(progressLine(step));
    }
  });
  const first = await runtimeOf(outcome.firstBad);
  const last = await runtimeOf(outcome.lastGood);
  return [
    `first release with --${flagName} ${show(bad.value)}: Node ${first.version} (V8 ${first.v8}); the one before, Node ${last.version} (V8 ${last.v8}), has ${show(good.value)}`,
    ...(await flagsDiffLines(outcome.lastGood, outcome.firstBad))
  ];
}

// Measures `candidate` interleaved with the good release in one run (so no drift between
// invocations), with more processes each round while the interval straddles the midpoint.
async function measureAgainstGood(candidate, ctx, processes) {
  const out = path.join(ctx.dir, `${ctx.prefix}-${candidate}-p${processes}.json`);
  const matrix = {
    runtimes: [{ spec: ctx.good, label: null }, { spec: candidate, label: null }],
    flagSets: ctx.flagSets,
    suites: [{ name: ctx.suite, benchmarks: [ctx.benchmark], params: {} }],
    run: { processes, maxProcesses: processes, samples: ctx.samples },
    baseDir: process.cwd()
  };
  const { result, interrupted } = await runMatrix(matrix, { out, progress: createProgress(), command: ['bisect', ...process.argv.slice(3)] });
  if (interrupted) throw new UserError(`bisect interrupted while measuring ${candidate}; run the same command again to resume from ${ctx.stateFile}.`, { exitCode: 130 });
  const cellOf = (version) => result.cells.find((c) => c.runtime === version);
  const a = cellOf(ctx.good);
  const b = cellOf(candidate);
  if (a.status !== 'ok' || b.status !== 'ok') {
    const failed = a.status !== 'ok' ? a : b;
    return { failed: `${failed.runtime} ${failed.status}: ${failed.error}`, out };
  }
  return { comparison: compareCells(a, b), out };
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
    if (processes * 2 > ctx.maxProcesses) {
      return { undecided: `${version}'s interval ${fmtRatio(c)} straddles the midpoint ${ctx.midpoint.toFixed(3)} even with ${processes} processes; the change may be gradual over several releases or smaller than --threshold` };
    }
    processes *= 2;
    log(`bisect: ${version} is not clear yet (${fmtRatio(c)}); measuring again with ${processes} processes`);
  }
}

async function bisectMeasured(opts, versions, stateFile) {
  const ctx = {
    good: versions[0],
    suite: opts.suite,
    benchmark: opts.benchmark,
    flagSets: [{ name: opts.flags ? 'flags' : 'baseline', flags: opts.flags ? opts.flags.split(/\s+/).filter(Boolean) : [] }],
    processes: opts.processes,
    maxProcesses: opts.maxProcesses,
    samples: opts.samples,
    threshold: parseThreshold(opts.threshold),
    dir: path.dirname(stateFile),
    prefix: path.basename(stateFile, '.json'),
    stateFile
  };
  const state = await loadState(stateFile, { kind: 'benchmark', suite: ctx.suite, benchmark: ctx.benchmark, flags: ctx.flagSets[0].flags, threshold: ctx.threshold, good: ctx.good, bad: versions.at(-1) });
  const save = () => writeOutput(stateFile, `${JSON.stringify(state, null, 1)}\n`);
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
    throw new UserError(`${versions.at(-1)} against ${ctx.good} is ${ends.ratio.toFixed(3)}x [${ends.ci.low.toFixed(3)}, ${ends.ci.high.toFixed(3)}], not clearly beyond --threshold ${(ctx.threshold * 100).toFixed(0)}%; there is nothing to bisect (lower --threshold or use more --processes).`);
  }
  ctx.direction = ends.ratio < 1 ? -1 : 1;
  ctx.midpoint = Math.sqrt(ends.ratio);
  log(`bisect: ${versions.at(-1)} is ${ends.ratio.toFixed(3)}x [${ends.ci.low.toFixed(3)}, ${ends.ci.high.toFixed(3)}] of ${ctx.good}; a release is bad past ${ctx.midpoint.toFixed(3)}x. ${versions.length - 2} release(s) between, about ${stepsLeft(versions.length - 2)} step(s)`);
  const known = new Map(Object.entries(state.steps));
  const outcome = await bisectVersions(versions, (version) => judgeMeasured(version, ctx), {
    known,
    onStep: async (step) => {
      state.steps[step.version] = step.verdict;
      await save();
      log(progressLine(step));
    }
  });
  if (outcome.undecided) {
    return [`no verdict: ${outcome.undecided}.`, `The first bad release is between ${outcome.lastGood} (good) and ${outcome.firstBad} (bad); the measurements are in ${stateFile}.`];
  }
  // The verdict's interval: the first bad release against the last good one, measured together.
  const verdictKey = `${outcome.lastGood}..${outcome.firstBad}`;
  let pair = state.verdict && state.verdict.key === verdictKey ? state.verdict.pair : null;
  if (!pair) {
    pair = await measureAgainstGood(outcome.firstBad, { ...ctx, good: outcome.lastGood, prefix: `${ctx.prefix}-verdict` }, Math.min(ctx.maxProcesses, ctx.processes * 2));
    state.verdict = { key: verdictKey, pair };
    await save();
  }
  const first = await runtimeOf(outcome.firstBad);
  const last = await runtimeOf(outcome.lastGood);
  const lines = [`first bad release: Node ${first.version} (V8 ${first.v8}); last good: Node ${last.version} (V8 ${last.v8})`];
  lines.push(pair.failed ? `  measuring the pair failed: ${pair.failed}`
    : `  ${ctx.suite}/${ctx.benchmark} ops/s ${outcome.firstBad} / ${outcome.lastGood}: ${fmtRatio(pair.comparison)} (95% interval, ${pair.comparison.method}; ${path.basename(pair.out)})`);
  lines.push(...(await flagsDiffLines(outcome.lastGood, outcome.firstBad)));
  return lines;
}

export function register(program) {
  program.command('bisect')
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
    .option('--out <file>', 'bisect state file (result files of each step go next to it); default results/bisect-GOOD-BAD-WHAT.json')
    .option('--refresh', 'ask the registry for the newest list of releases')
    .action(async (opts) => {
      if (!opts.flag && !(opts.suite && opts.benchmark)) {
        throw new UserError('bisect needs either --flag NAME or both --suite and --benchmark; e.g. --flag concurrent-marking or --suite gc --benchmark old-gen-marking.');
      }
      const releases = await listReleases({ refresh: opts.refresh });
      const good = exactVersion(opts.good, '--good', releases);
      const bad = exactVersion(opts.bad, '--bad', releases);
      if (good === bad) throw new UserError('--good and --bad are the same release; give two different ones.');
      const versions = releasesBetween(releases, good, bad);
      const what = opts.flag ? `flag-${opts.flag.replace(/^-+/, '')}` : `${opts.suite}-${opts.benchmark}`;
      const stateFile = path.resolve(opts.out || path.join('results', `bisect-${good}-${bad}-${what}.json`));
      checkOutput(stateFile, { force: true, what: 'the bisect state file' });
      log(`bisect: ${versions.length} releases from ${good} to ${bad}; state in ${path.relative(process.cwd(), stateFile)}`);
      const lines = opts.flag ? await bisectFlag(opts, versions, stateFile) : await bisectMeasured(opts, versions, stateFile);
      process.stdout.write(`${lines.join('\n')}\n`);
    });
}
