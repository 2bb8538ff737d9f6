// diff --fail-on-regression N --confirm: before a job fails, the comparisons that look slower
// (gate.js suspicious) are measured again — both sides of each, interleaved in one fresh run on
// this machine (the engine as a black box: runEngine on a matrix of just those benchmarks) — and the
// gate fails only on what that run decides slower by more than N%. The two sides differ either in
// runtime or flags (two columns of one suite file, run back to back in each block) or in code on one
// runtime (a code change between two result files: each side's own suite file, or its own command,
// as two rows of one column, paired by round).
// The confirmation alone decides. The first measurement chose the candidates, so it is biased
// toward "slower" among them (they were picked for looking slow); pooling it with the new processes
// would count that selection as evidence. The new run is independent of the choice, its sides ran
// in the same rounds (paired ratios, no drift between invocations), and its comparisons are judged
// together at one false discovery rate (stats/decision.js, on the one-sided p-value of "B is not
// slower": nothing else can fail the gate; weighted by how slow the first measurement made each
// look, firstLook), so that re-measuring ten unchanged benchmarks does not fail one by chance. A
// candidate the machine was too busy to re-measure (fewer than MIN_QUIET quiet processes on a side)
// is not confirmed, and says so.
// Its cost is bounded before it starts: the files' own process times give an estimate, and the
// candidates that do not fit in --confirm-minutes keep their first comparison (those the first
// measurement fails come first, so the budget goes where a false alarm would land). What it measured
// is never thrown away: a second diff resumes an interrupted confirmation of the same candidates,
// judges a complete one as it is, and writes beside a file that holds anything else.
import path from 'node:path';
import fs from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { runEngine, NODEBENCH_VERSION } from '../engine.js';
import { createProgress } from '../progress.js';
import { pairedRatio, pairedPrior } from '../stats/compare.js';
import { median } from '../stats/basic.js';
import { judgeAll } from '../stats/decision.js';
import { tTwoSidedP } from '../stats/distributions.js';
import { formatChange, formatSeconds, displayName } from '../text/format.js';
import { UserError } from '../errors.js';
import { checkOutput, readResult } from '../results/file.js';
import { hostInfo } from '../results/host.js';
import { ResumeMismatch } from '../results/resume.js';
import { describeSuite, suiteFile } from '../matrix/discover-suites.js';
import { COMMAND_SUITE } from '../matrix/commands.js';
import { suspicious, beyond, confirmedBeyond } from './gate.js';
import { columnKey, benchmarkName } from '../cell-identity.js';
import { rerunSpec, namedBinaries } from '../runtimes/recorded.js';
import { shellWord, terminalText } from '../text/escape.js';
import { MEASURES, measureOfResult } from '../measure.js';

// What --format json records of the rule (gate.confirm), so the decision reads from the files.
export const CONFIRM_RULE = 'comparisons the first measurement cannot clear (not faster, not same, 95% interval reaching past -threshold%) are measured again: both sides (two runtimes or flag sets, or two versions of the code on one runtime), interleaved in one run, as many as fit in the time budget (those the first measurement fails first, then the slowest-looking); the gate fails only on those that run decides slower by more than the threshold, and on those left out that the first measurement decided so';
export const CONFIRM_EVIDENCE = 'the re-measurement alone decides (the first measurement chose the candidates, so counting it again would count the selection as evidence); its comparisons are paired by round (two columns back to back in one block; two versions of a suite as two rows of the same rounds) and judged together at one false discovery rate on the one-sided p-value of "B is not slower", weighted by how slow the first measurement made each look (weighted Benjamini-Hochberg: the weights are independent of the new run); a side with fewer than 3 quiet processes is not confirmed';

// The sampler and timing options a confirmation keeps from the files' run.
const KEPT_RUN_OPTIONS = ['samples', 'minSampleMs', 'warmupMinMs', 'warmupMaxMs', 'maxSampleMs', 'minSamples', 'timeoutSec', 'rerunDisturbed', 'disturbancePct'];
// With 10 processes a side, a real 5% slowdown of a promises benchmark was re-measured at 0.91-1.02
// and confirmed in 0 of 4 gate trials (bench/verdicts.js gate, 2026-11-23): the re-measurement
// needs about three times that. A fixed count, not processes added until a comparison is decided:
// that is optional stopping, which decided 11% of A/A ratios in bench/pairing-modes.js against 0-3%.
export const COUNTED_LINE = `confirm: both files count instructions, which repeat between processes to within ${MEASURES.instructions.repeatability * 100}%: the first comparison decides, nothing is re-measured.`;

export const MIN_CONFIRM_PROCESSES = 30;
// Two columns of the default matrix's candidates at 30 processes a cell were 1,380 processes, about
// 1h26m on a 2-core VM (2026-11-27): more than a CI job waits for a gate. Ten minutes re-measure a
// handful of comparisons at full strength; --confirm-minutes sets another bound.
export const DEFAULT_CONFIRM_MINUTES = 10;

export const defaultConfirmProcesses = (run) => Math.max(MIN_CONFIRM_PROCESSES, 6 * (run?.processes || 1));

export function defaultConfirmFile(fileB) {
  const dir = path.dirname(fileB);
  return path.join(dir, `${path.basename(fileB).replace(/\.json$/i, '')}.confirm.json`);
}

// --confirm-a/--confirm-b: a path that must be a suite file on this machine (a folder: its index.js).
export function givenSuiteFile(value, option) {
  const file = path.resolve(value);
  if (!fs.existsSync(file)) throw new UserError(`${option} ${value} does not exist; give the path of that side's suite file on this machine.`);
  return suiteFile(file);
}

// --confirm-a-cwd/--confirm-b-cwd: the folder a side's whole commands run in on this machine.
export function givenFolder(value, option) {
  const dir = path.resolve(value);
  let isDir = false;
  try {
    isDir = fs.statSync(dir).isDirectory();
  } catch {
    // Said below.
  }
  if (!isDir) throw new UserError(`${option} ${value} is not a folder on this machine; give the folder that side's whole commands run in.`);
  return dir;
}

// The suite each --confirm-a (or -b) file is, by the name it gives itself when nodebench describes
// it (the name the result file records): suite name -> file.
async function suitesByName(files, result, { option, resultFile }) {
  const byName = new Map();
  const ran = result.suites.filter((s) => s.kind !== 'command').map((s) => s.name);
  for (const file of files) {
    const { name } = await describeSuite(file, { timeoutSec: result.run?.timeoutSec });
    if (!ran.includes(name)) throw new UserError(`${option} ${file} is suite "${name}", which ${resultFile} did not run (it ran ${ran.join(', ') || 'no suite'}); give the file of one of its suites.`);
    if (byName.has(name)) throw new UserError(`${option} names two files of suite "${name}" (${byName.get(name)}, ${file}); give one.`);
    byName.set(name, file);
  }
  return byName;
}

// What nodebench can run again of one side of a comparison: its runtime and flags, and its code —
// the suite file (recorded, or the one the user gave for it) with its parameters, or the command:
// the one the user named after -- (checked against the recorded one in changeOf), never the
// program, shell line or environment a result file names, in the side's folder.
function sideOf(result, cell, given) {
  const runtime = result.runtimes.find((r) => r.label === cell.runtimeLabel);
  const suite = result.suites.find((s) => s.name === cell.suite);
  const side = { runtime, flags: cell.flags || [], flagSet: cell.flagSet, suite, benchmark: cell.benchmark };
  if (suite?.kind === 'command') {
    side.recorded = suite.benchmarks?.find((b) => b.name === cell.benchmark)?.command;
    if (side.recorded) side.command = { name: side.recorded.name, argv: given.command, shell: false, cwd: given.cwd || side.recorded.cwd, env: {}, warmupRuns: side.recorded.warmupRuns };
  } else if (suite) {
    side.file = given.files.get(suite.name) || suite.file;
    side.params = suite.params || {};
  }
  return side;
}

// specs: each recorded runtime -> what to run for it (runtimes/recorded.js: by exact version, or a
// binary the user named with --node; never a path the files name).
const sameRuntime = (a, b, specs) => (a.sha256 && b.sha256 ? a.sha256 === b.sha256 : a.version === b.version && specs.get(a) === specs.get(b));
const commandCode = ({ argv, shell, cwd, env, warmupRuns }) => ({ argv, shell, cwd, env, warmupRuns });
const sameCode = (a, b) => (a.recorded ? isDeepStrictEqual(commandCode(a.command), commandCode(b.command)) : a.file === b.file && isDeepStrictEqual(a.params, b.params));
const line = (argv) => argv.map(shellWord).join(' ');
const commandText = (c) => `${line(c.argv)} in ${c.cwd}`;
const codeText = (s) => (s.recorded ? commandText(s.command) : s.file);

// A whole command is re-measured only as the user names it (after --), and only when that is what
// both files measured: an argument array, without a shell line or variables of its own, which would
// let a result file choose what runs (a shell line, NODE_OPTIONS or LD_PRELOAD in --env).
function checkNamedCommand(where, a, b, argv) {
  const [ra, rb] = [a.recorded, b.recorded];
  if ([ra, rb].some((c) => c.shell || Object.keys(c.env || {}).length)) {
    throw new UserError(`--confirm cannot re-measure ${where}: its command ran through a shell or with variables of its own (exec --shell or --env), which --confirm does not take from a result file; compare without --confirm.`);
  }
  if (!isDeepStrictEqual(ra.argv, rb.argv)) throw new UserError(`--confirm cannot re-measure ${where}: A and B ran different commands (${line(ra.argv)}; ${line(rb.argv)}); it re-measures one command, named after --, in each side's folder, so compare without --confirm.`);
  if (!argv) throw new UserError(`--confirm cannot re-measure ${where}: it is the whole command ${line(ra.argv)}, and nodebench does not run a command a result file names; if you trust it, name it yourself after -- (... --confirm -- ${line(ra.argv)}), or compare without --confirm.`);
  if (!isDeepStrictEqual(argv, ra.argv)) throw new UserError(`--confirm cannot re-measure ${where}: A and B measured the command ${line(ra.argv)}, not the one after -- (${line(argv)}); name the command they measured, or compare without --confirm.`);
  if (![ra, rb].every((c) => Number.isInteger(c.warmupRuns ?? 0) && (c.warmupRuns ?? 0) >= 0 && (c.warmupRuns ?? 0) <= 100)) {
    throw new UserError(`--confirm cannot re-measure ${where}: its result files record a warm-up count nodebench does not write (0 to 100 runs); compare without --confirm.`);
  }
}

// Which change a candidate re-measures: 'column' (runtime or flags, the same code) or 'code' (the
// same runtime and flags, two versions of the code). Throws a UserError for one nodebench cannot
// re-measure here.
function changeOf(row, a, b, specs) {
  const where = `${row.label} (${row.column})`;
  const command = a.suite?.kind === 'command';
  if (!a.runtime || !b.runtime || !a.suite || !b.suite || (command && (!a.recorded || !b.recorded))) {
    throw new UserError(`--confirm cannot re-measure ${where}: its result files do not describe its runtime and ${command ? 'command' : 'suite'}; compare without --confirm.`);
  }
  if (command) checkNamedCommand(where, a, b, a.command.argv);
  const column = !sameRuntime(a.runtime, b.runtime, specs) || !isDeepStrictEqual(a.flags, b.flags);
  const code = !sameCode(a, b);
  const [optionA, optionB, what] = command ? ['--confirm-a-cwd <folder>', '--confirm-b-cwd <folder>', 'folder'] : ['--confirm-a <suite-file>', '--confirm-b <suite-file>', 'version'];
  if (!column && !code) {
    throw new UserError(`--confirm cannot re-measure ${where}: A and B ran it on the same runtime (Node ${a.runtime.version}), flags and ${command ? `command (${commandText(a.command)})` : `suite file (${a.file})`}, so nothing differs that could be re-measured side by side; if the code there changed between the two runs, give each side's ${what} with ${optionA} and ${optionB}, otherwise compare without --confirm.`);
  }
  if (column && code) {
    throw new UserError(`--confirm cannot re-measure ${where}: A and B differ in runtime or flags and also in ${command ? 'command' : 'suite file or parameters'} (${codeText(a)}; ${codeText(b)}); it re-measures one change at a time, so give both sides the same ${command ? 'folder' : 'file'} (${optionA.replace(/ .*/, '')} and ${optionB.replace(/ .*/, '')}) if the code did not change, or compare without --confirm.`);
  }
  const missing = [['A', a, optionA], ['B', b, optionB]].find(([, s]) => !fs.existsSync(s.command ? s.command.cwd : s.file));
  if (missing) {
    const [name, s, option] = missing;
    const thing = command ? `its command in ${s.command.cwd}` : `suite "${a.suite.name}" from ${s.file}`;
    throw new UserError(column
      ? `--confirm cannot re-measure ${where}: A and B ran ${thing}, which is not on this machine; give it to both sides with ${optionA} and ${optionB}, or compare without --confirm.`
      : `--confirm cannot re-measure ${where}: ${name} ran ${thing}, which is not on this machine; give ${name}'s ${what} with ${option}, or compare without --confirm.`);
  }
  return column ? 'column' : 'code';
}

// What one process of a cell took, from the file (its wall time; for files without one, its
// samples and warm-up plus a runtime's start): the estimate of what re-measuring it costs.
const START_MS = 100;
function processMs(cell) {
  const times = (cell?.processes || []).map((p) => p.wallMs ?? ((p.warmup?.ms || 0) + (p.samplesNsPerOp || []).reduce((s, ns) => s + ns * (p.iterationsPerSample || 1), 0) / 1e6 + START_MS));
  return times.length ? median(times) : 1000;
}

// One confirmation run per pair of sides: its matrix, which cell is which side of each candidate,
// and what a file must hold to be this confirmation (for resuming).
function planFor(change, a, b, entries, { run, processes, cost, specs }) {
  const twoRuntimes = change === 'column' && !sameRuntime(a.runtime, b.runtime, specs);
  const labelA = a.runtime.label;
  const labelB = twoRuntimes && b.runtime.label === labelA ? `${b.runtime.label}-B` : twoRuntimes ? b.runtime.label : labelA;
  // One runtime and a column change: the flags differ, so the sides are two flag sets.
  const twoFlagSets = change === 'column' && (!twoRuntimes || !isDeepStrictEqual(a.flags, b.flags));
  const flagSetA = a.flagSet;
  const flagSetB = twoFlagSets ? (b.flagSet === a.flagSet ? `${b.flagSet}-B` : b.flagSet) : a.flagSet;
  const runtimes = [{ spec: specs.get(a.runtime), label: labelA }, ...(twoRuntimes ? [{ spec: specs.get(b.runtime), label: labelB }] : [])];
  // A file of this confirmation records its runtimes by label and version (how it found them may differ).
  const versions = [[labelA, a.runtime.version], ...(twoRuntimes ? [[labelB, b.runtime.version]] : [])];
  const flagSets = [{ name: flagSetA, flags: a.flags }, ...(twoFlagSets ? [{ name: flagSetB, flags: b.flags }] : [])];
  // A code change: each side's suite under a name of its own (`as`, matrix/plan.js), each side's
  // command under a name of its own, so that both run as rows of the one column.
  const tag = (name, side) => (change === 'code' ? `${name}@${side}` : name);
  const suites = new Map();
  const commands = new Map();
  const pairs = entries.map(({ row, a: sa, b: sb }) => {
    const sides = [['A', sa], ['B', sb]].slice(0, change === 'code' ? 2 : 1).map(([side, s]) => {
      if (s.recorded) {
        const name = tag(s.command.name, side);
        commands.set(name, { ...s.command, name });
        return { suite: COMMAND_SUITE, benchmark: name };
      }
      const name = tag(s.suite.name, side);
      if (!suites.has(name)) suites.set(name, { name: s.file, ...(change === 'code' ? { as: name } : {}), benchmarks: [], params: s.params });
      if (!suites.get(name).benchmarks.includes(s.benchmark)) suites.get(name).benchmarks.push(s.benchmark);
      return { suite: name, benchmark: s.benchmark };
    });
    const [onA, onB = onA] = sides;
    return { row, a: { ...onA, label: labelA, flagSet: flagSetA }, b: { ...onB, label: labelB, flagSet: flagSetB }, code: change === 'code' ? { a: codeText(sa), b: codeText(sb) } : undefined };
  });
  const kept = Object.fromEntries(KEPT_RUN_OPTIONS.filter((k) => run[k] !== undefined).map((k) => [k, run[k]]));
  // What a file must hold to be this confirmation: each suite by the name it runs under, its file
  // and benchmarks; each command by its name and what it runs.
  const expect = [...[...suites].map(([name, s]) => JSON.stringify([name, s.name, [...s.benchmarks].sort()])),
    ...[...commands.values()].map((c) => JSON.stringify([COMMAND_SUITE, c.name, commandCode(c)]))].sort();
  return {
    change,
    pairs,
    expect,
    versions,
    cellsPerSide: pairs.length,
    estimateMs: entries.reduce((ms, e) => ms + cost(e.row), 0),
    matrix: {
      runtimes,
      flagSets,
      suites: [...suites.values()],
      commands: [...commands.values()],
      // Every process of both sides in the same rounds, no top-ups (a fixed, known cost, and no
      // optional stopping), no metrics processes (only timings decide). The minutes stop the run
      // (runEngine stopAfterMin) and, as its time budget (timeBudgetMin, set when it runs), keep
      // replacements of disturbed processes from crowding out the planned rounds: without it, a
      // busy host spent a 10-minute bound on 6 of 30 rounds and their replacements (2026-11-27).
      run: { ...kept, processes, maxProcesses: processes, metrics: false, baseline: `${labelA}/${flagSetA}` },
      baseDir: process.cwd()
    }
  };
}

// The order in which candidates get the time budget: those the first measurement fails the gate
// on (where a false alarm would land), then the slowest-looking; the rest keep their first comparison.
function withinBudget(candidates, { limit, budgetMs, cost }) {
  const order = candidates.map((row, i) => ({ row, i, fails: beyond(row.comparison, limit) ? 1 : 0, look: firstLook(row.comparison) }))
    .sort((x, y) => (y.fails - x.fails) || (y.look - x.look) || (x.i - y.i));
  const chosen = new Set();
  let used = 0;
  for (const { row } of order) {
    if (used + cost(row) > budgetMs) continue;
    chosen.add(row);
    used += cost(row);
  }
  return { chosen: candidates.filter((r) => chosen.has(r)), left: candidates.filter((r) => !chosen.has(r)) };
}

// candidates: diff rows (gate.js suspicious). Checks every one can be re-measured here, chooses
// those that fit in `minutes`, and groups them by pair of sides, one run per group (a diff of one
// runtime pair and flag set, or of one code change, is one run). Returns { plans, left }.
export function planConfirmation(candidates, resultA, resultB, { processes, minutes = DEFAULT_CONFIRM_MINUTES, limit = 0, given = {}, specs } = {}) {
  const none = { files: new Map(), cwd: null };
  const entries = candidates.map((row) => {
    const a = sideOf(resultA, row.a, given.a || none);
    const b = sideOf(resultB, row.b, given.b || none);
    return { row, a, b, change: changeOf(row, a, b, specs) };
  });
  const cost = (row) => processes * (processMs(row.a) + processMs(row.b));
  const { chosen, left } = withinBudget(candidates, { limit, budgetMs: minutes * 60_000, cost });
  if (!chosen.length) {
    const cheapest = candidates.reduce((x, y) => (cost(y) < cost(x) ? y : x));
    throw new UserError(`Re-measuring even the quickest comparison the first measurement cannot clear (${cheapest.label}, ${cheapest.column}) takes about ${formatSeconds(cost(cheapest) / 1000)} at ${processes} processes per cell, more than --confirm-minutes ${minutes}; raise --confirm-minutes to ${Math.ceil(cost(cheapest) / 60_000)}, or lower --confirm-processes.`);
  }
  const groups = new Map();
  for (const entry of entries.filter((e) => chosen.includes(e.row))) {
    const { a, b, change } = entry;
    const key = JSON.stringify([change, a.runtime.label, a.runtime.version, a.flags, b.runtime.label, b.runtime.version, b.flags]);
    if (!groups.has(key)) groups.set(key, { change, a, b, entries: [] });
    groups.get(key).entries.push(entry);
  }
  const plans = [...groups.values()].map((g) => planFor(g.change, g.a, g.b, g.entries, { run: resultB.run || {}, processes, cost, specs }));
  return { plans, left, leftMs: left.reduce((ms, row) => ms + cost(row), 0) };
}

// What to run for each runtime the candidates' cells name (a Map from the record), found before
// anything runs: a path runtime of the files needs a binary the user names (nodes, --node).
async function rerunSpecs(candidates, resultA, resultB, { fileA, fileB, nodes }) {
  const named = namedBinaries(nodes || []);
  const specs = new Map();
  for (const row of candidates) {
    for (const [result, cell, file] of [[resultA, row.a, fileA], [resultB, row.b, fileB]]) {
      const record = result.runtimes.find((r) => r.label === cell.runtimeLabel);
      if (record && !specs.has(record)) specs.set(record, await rerunSpec(record, { file, named }));
    }
  }
  return specs;
}

// What a file must hold to be the confirmation `plan` writes: null when it is, else why not.
const listed = (names) => (names.length > 3 ? `${names.slice(0, 3).join(', ')}, …` : names.join(', '));
export function planDifference(previous, plan, host, compared = []) {
  if (previous.nodebench?.command?.[0] !== 'diff') return 'it is not a confirmation but the result of another command';
  // A confirmation answers for files that existed when it started: one older than A or B was made
  // for other files, perhaps of other code (a --confirm-out kept between CI jobs), and must not
  // decide this gate.
  const finished = (result) => result.finishedAt || result.createdAt;
  const later = compared.find(({ result }) => !(Date.parse(finished(result)) <= Date.parse(previous.createdAt)));
  if (later) return `it was started at ${previous.createdAt}, before ${shown(later.file)} was finished (${finished(later.result)}): it confirms other files`;
  if (previous.nodebench.version !== NODEBENCH_VERSION) return `it was written by nodebench ${previous.nodebench.version}, this is ${NODEBENCH_VERSION}`;
  const was = previous.host || {};
  if (was.hostname !== host.hostname || was.cpuModel !== host.cpuModel || was.cores !== host.cores) return `it was measured on ${was.hostname} (${was.cpuModel}, ${was.cores} cores)`;
  const { matrix } = plan;
  if (!isDeepStrictEqual(previous.run.processes, matrix.run.processes)) return `it has ${previous.run.processes} processes per cell, now ${matrix.run.processes}`;
  // The time budget is the bound of whichever diff started it: more minutes, the same confirmation.
  const otherOption = Object.keys(matrix.run).filter((k) => k !== 'timeBudgetMin').find((k) => !isDeepStrictEqual(previous.run[k], matrix.run[k]));
  if (otherOption) return `its run option ${otherOption} is ${JSON.stringify(previous.run[otherOption])}, now ${JSON.stringify(matrix.run[otherOption])}`;
  const columns = (versions, flagSets) => versions.flatMap((v) => flagSets.map((f) => JSON.stringify([...v, f.name, f.flags])));
  if (!isDeepStrictEqual(columns(previous.runtimes.map((r) => [r.label, r.version]), previous.flagSets), columns(plan.versions, matrix.flagSets))) {
    return `it re-measured other columns (${listed(previous.runtimes.flatMap((r) => previous.flagSets.map((f) => `${r.label}/${f.name}`)))})`;
  }
  // The benchmarks, with each side's code: suite files (and the parameters asked for) or commands.
  const had = previous.suites.flatMap((s) => (s.kind === 'command'
    ? s.benchmarks.map((b) => JSON.stringify([COMMAND_SUITE, b.name, b.command && commandCode(b.command)]))
    : [JSON.stringify([s.name, s.file, s.benchmarks.map((b) => b.name).sort()])])).sort();
  const paramsDiffer = matrix.suites.some((s) => {
    const old = previous.suites.find((p) => p.file === s.name && p.name === (s.as || p.name));
    return old && Object.entries(s.params || {}).some(([k, v]) => !isDeepStrictEqual(old.params?.[k], v));
  });
  if (!isDeepStrictEqual(had, plan.expect) || paramsDiffer) {
    return `it re-measured other benchmarks (${listed([...new Set(previous.cells.map(benchmarkName))])})`;
  }
  return null;
}

// Where plan i's confirmation goes: `base` (B.confirm.json, -2, -3 for further plans), or beside it
// (B.confirm.2.json, ...) when a file there holds anything but this confirmation, which is kept.
const MAX_BESIDE = 100;
const nameFor = (base, k) => (k === 1 ? base : base.replace(/(\.json)?$/i, `.${k}.json`));

async function placeFor(base, plan, { log, after = 0, compared = [] }) {
  const host = hostInfo();
  const kept = [];
  for (let k = after + 1; k <= MAX_BESIDE; k++) {
    const file = nameFor(base, k);
    if (!fs.existsSync(file)) {
      if (kept.length) log(`nodebench: ${kept.map((x) => `${shown(x.file)} is kept (${x.why})`).join('; ')}; this confirmation goes to ${shown(file)}`);
      return { file, previous: null, k };
    }
    let previous = null;
    let why;
    try {
      checkOutput(file, { resume: true, option: '--confirm-out' });
      previous = await readResult(file);
      why = planDifference(previous, plan, host, compared);
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      why = 'it is not a nodebench result file';
    }
    if (!why) return { file, previous, k };
    kept.push({ file, why });
  }
  throw new UserError(`${shown(base)} and ${MAX_BESIDE - 1} files beside it hold other confirmations; remove some, or give another --confirm-out.`);
}

const shown = (file) => path.relative(process.cwd(), file) || file;

// The progress line with the bound beside its estimate of the time left ("time budget ends in"):
// the bound's clock starts with the first process, as runEngine's stopAfterMin does.
function boundedProgress(progress, minutes) {
  let endsAt = null;
  return {
    log: (m) => progress.log(m),
    done: () => progress.done(),
    update: (p) => {
      endsAt ??= Date.now() + minutes * 60_000;
      progress.update({ ...p, budgetEndsAt: endsAt });
    }
  };
}
const roundsDone = (cell) => cell.processes.filter((p) => !p.rerun).length;
const processesOf = (result) => result.cells.reduce((n, c) => n + c.processes.length, 0);
// The processes of the planned rounds, without replacements of disturbed ones.
const roundsOf = (result) => result.cells.reduce((n, c) => n + roundsDone(c), 0);

// Runs the plans one after the other (a plan beyond the first writes `out` with -2, -3 before .json),
// each resuming or reusing what an earlier diff measured of it. Returns [{ plan, file, result, measured }].
// compared: [{ file, result }] of A and B, whose confirmation an earlier one must be younger than.
// announce(file): called once, before the first process runs (not when every plan is reused).
// Names, versions and hosts in the messages come from files: escaped, newlines too.
export async function runConfirmation(plans, { out, minutes = null, progress = createProgress(), command = ['diff', '--confirm'], log = (m) => process.stderr.write(`${terminalText(m)}\n`), compared = [], announce = () => {} }) {
  const runs = [];
  let announced = false;
  const startedAt = Date.now();
  for (const [i, plan] of plans.entries()) {
    // The plans share the bound: a later one gets what the earlier ones left.
    const stopAfterMin = minutes === null ? null : Math.max(0.01, minutes - (Date.now() - startedAt) / 60_000);
    const bounded = () => (stopAfterMin === null ? progress : boundedProgress(progress, stopAfterMin));
    // A resumed run keeps the run options it was started with (results/resume.js), the budget too.
    const matrixFor = (previous) => ({ ...plan.matrix, run: { ...plan.matrix.run, timeBudgetMin: previous ? previous.run.timeBudgetMin : stopAfterMin ?? undefined } });
    const base = i === 0 ? out : out.replace(/(\.json)?$/i, `-${i + 1}.json`);
    let place = await placeFor(base, plan, { log, compared });
    let measured = place.previous ? (place.previous.status === 'complete' ? 'reused' : 'resumed') : 'new';
    let result;
    let interrupted;
    let timeUp = false;
    if (measured === 'reused') {
      result = place.previous;
      log(`nodebench: ${shown(place.file)} holds this confirmation, complete (${processesOf(result)} processes): judged as it is (delete it, or give another --confirm-out, to measure again)`);
    } else {
      if (!announced) announce(place.file);
      announced = true;
      if (measured === 'resumed') {
        const perProcess = plan.estimateMs / (2 * plan.cellsPerSide * plan.matrix.run.processes);
        const toRun = place.previous.cells.reduce((n, c) => n + Math.max(0, plan.matrix.run.processes - roundsDone(c)), 0);
        log(`nodebench: ${shown(place.file)} holds ${processesOf(place.previous)} processes of this confirmation (${place.previous.status}): resuming it, ${toRun} to run, about ${formatSeconds((toRun * perProcess) / 1000)}`);
      }
      try {
        ({ result, interrupted, timeUp } = await runEngine(matrixFor(place.previous), { out: place.file, progress: bounded(), command, resume: measured === 'resumed', stopAfterMin }));
      } catch (err) {
        // Planned otherwise in a way the check above does not see (a suite file edited since): kept.
        if (!(err instanceof ResumeMismatch)) throw err;
        log(`nodebench: ${shown(place.file)} is kept (${err.difference})`);
        place = await placeFor(base, plan, { log, after: place.k, compared });
        measured = 'new';
        ({ result, interrupted, timeUp } = await runEngine(matrixFor(null), { out: place.file, progress: bounded(), command, stopAfterMin }));
      }
      if (interrupted && !timeUp) throw new UserError(`The confirmation was interrupted; the ${processesOf(result)} processes it measured are kept in ${shown(place.file)}, and the same diff --confirm continues it.`, { exitCode: 130 });
    }
    runs.push({ plan, file: place.file, result, measured, timeUp });
  }
  return runs;
}

// Fewer quiet processes than this on a side, and the cell's estimate leans on processes that ran
// while other programs held the CPU (results/cell.js keeps them all when too few are quiet).
export const MIN_QUIET = 3;
const quiet = (cell) => cell.processes.filter((p) => !p.setAside).length;

// What the re-measurement of a candidate gave: an ok pair of cells with enough quiet processes, or
// why not. `keep`: the first comparison stands (the benchmark did not run), else it is not confirmed.
// sides: the two cells share a column (a code change), so the side is named too.
function usable(a, b, { sides = false } = {}) {
  if (a?.status !== 'ok' || b?.status !== 'ok') return { problem: `re-measuring gave ${a ? a.status : 'no cell'} / ${b ? b.status : 'no cell'}${b?.error ? ` (${b.error})` : ''}`, keep: true };
  const few = [a, b].find((c) => quiet(c) < MIN_QUIET);
  if (!few) return null;
  const which = sides ? ` (side ${few === a ? 'A' : 'B'})` : '';
  return { problem: `the machine was too busy to re-measure it: ${few.processes.length - quiet(few)} of ${few.processes.length} processes of ${columnKey(few)}${which} ran while other programs held the CPU`, keep: false };
}

// The confirmation asks one question, "is B slower?": the p-value of "not slower", from the
// two-sided p of the paired ratio.
const slowerP = (ratio) => (ratio.ratio < 1 ? ratio.p / 2 : 1 - ratio.p / 2);

// How slow the first measurement made a candidate look: the normal probability that its log ratio
// is below 0, Φ(-log ratio / se), floored at 5%. It weights the candidate in the confirmation's
// false discovery rate (stats/fdr.js, weighted): the first measurement cannot decide, but it may say
// where to look; being independent of the new run, it does not spend the new run's evidence twice.
export function firstLook(comparison) {
  const z = Math.log(comparison.ratio) / comparison.se;
  if (!Number.isFinite(z)) return 0.5;
  const p = tTwoSidedP(z, Infinity);
  return Math.max(0.05, z > 0 ? p / 2 : 1 - p / 2);
}

const cellOf = (result, side) => result.cells.find((c) => c.suite === side.suite && c.benchmark === side.benchmark && c.runtimeLabel === side.label && c.flagSet === side.flagSet);

// The confirmation's verdict on each candidate: the paired ratio of side B to side A in the new
// run, judged over all re-measured candidates at one false discovery rate (one-sided: only "slower"
// can fail the gate). Returns { byRow: Map row -> comparison (diff's shape: ratio, ci, p, q,
// verdict, method, pairs), candidates: [...], verdicts }. A candidate whose benchmark did not run
// again, or that the time budget left out (`left`, with the reason `leftOut`), keeps its first
// comparison; one the machine was too busy to re-measure is not confirmed; each says so.
export function judgeConfirmation(runs, { alpha, equivalence, left = [], leftOut = 'not re-measured' } = {}) {
  const entries = [];
  for (const { plan, file, result } of runs) {
    const pairs = plan.pairs.map((p) => ({ ...p, cellA: cellOf(result, p.a), cellB: cellOf(result, p.b) }))
      .map((p) => ({ ...p, unusable: usable(p.cellA, p.cellB, { sides: Boolean(p.code) }) }));
    const okPairs = pairs.filter((p) => !p.unusable);
    const priors = new Map([...new Set(okPairs.map((p) => p.row.a.suite))].map((suite) => [suite, pairedPrior(okPairs.filter((p) => p.row.a.suite === suite).map((p) => [p.cellA, p.cellB]))]));
    for (const p of pairs) {
      entries.push({ ...p, file, ratio: p.unusable ? null : pairedRatio(p.cellA, p.cellB, priors.get(p.row.a.suite)), problem: p.unusable?.problem || null });
    }
  }
  for (const row of left) entries.push({ row, file: null, ratio: null, problem: leftOut, unusable: { keep: true, reason: leftOut } });
  const { judged, summary } = judgeAll(entries.map((e) => e.ratio && { ...e.ratio, p: slowerP(e.ratio), weight: firstLook(e.row.comparison) }), { alpha, equivalence });
  const byRow = new Map();
  const candidates = entries.map((e, i) => {
    const first = e.row.comparison;
    const confirmation = e.ratio ? {
      ratio: e.ratio.ratio, ci: { level: 0.95, low: e.ratio.low, high: e.ratio.high }, p: slowerP(e.ratio), q: judged[i].q,
      verdict: judged[i].verdict, method: e.ratio.method, pairs: e.ratio.pairs, paired: e.ratio.paired,
      cells: { a: e.cellA.summary, b: e.cellB.summary }
    } : null;
    if (confirmation) byRow.set(e.row, confirmation);
    else if (e.unusable.keep) byRow.set(e.row, { ...first, notRemeasured: e.unusable.reason || 'could not be re-measured' });
    return {
      label: e.row.label, column: e.row.column, file: e.file, code: e.code,
      first: { ratio: first.ratio, ci: first.ci, p: first.p, q: first.q, verdict: first.verdict, weight: firstLook(first) },
      confirmation, problem: e.problem, kept: e.unusable ? e.unusable.keep : undefined
    };
  });
  return { byRow, candidates, verdicts: summary };
}

const range = (c) => `${formatChange(c.ci.low)} .. ${formatChange(c.ci.high)}`;
const qText = (q) => (q < 0.001 ? 'q < 0.001' : `q = ${q.toFixed(3)}`);

function confirmedOutcome(again, limit) {
  if (confirmedBeyond(again, limit)) return ', confirmed';
  return beyond(again, limit) ? `, not confirmed: its 95% interval reaches within ${limit}%` : ', not confirmed';
}

// The lines diff prints about a confirmation (text and Markdown), for `limit` in percent.
export function confirmationLines(confirmation, { limit, processes, files }) {
  if (!confirmation.candidates.length) return [`confirm: every comparison is cleared (faster, same, or a slowdown beyond ${limit}% ruled out): nothing to re-measure.`];
  const v = confirmation.verdicts;
  const remeasured = confirmation.candidates.filter((c) => c.file).length;
  const some = remeasured < confirmation.candidates.length ? `${remeasured} of them (as many as fit in --confirm-minutes ${confirmation.minutes})` : 'them';
  const lines = [`confirm: ${confirmation.candidates.length} comparison(s) could not be cleared (a slowdown beyond ${limit}% not ruled out); re-measured ${some}, both sides interleaved in one run (${processes} processes per cell, ${files.join(', ')}), and asked "slower?" together at a ${v.alpha * 100}% false discovery rate (${v.method}, one-sided, weighted by the first look):`];
  for (const run of (confirmation.runs || []).filter((r) => r.stoppedAtLimit)) {
    lines.push(`  (${shown(run.file)} stopped at --confirm-minutes ${confirmation.minutes} with ${run.processes} of its ${run.planned} planned processes${run.replacements ? ` and ${run.replacements} replacements of disturbed ones` : ''}: the machine ran slower than the files' process times; the same diff --confirm continues it)`);
  }
  for (const run of (confirmation.runs || []).filter((r) => r.measured !== 'new')) {
    lines.push(`  (${shown(run.file)}: ${run.measured === 'reused' ? 'a complete confirmation of these comparisons from an earlier diff, judged as it is' : 'resumed from an earlier diff, its processes kept'})`);
  }
  for (const c of confirmation.candidates) {
    const again = c.confirmation;
    const outcome = !again ? `${c.problem}; ${c.kept ? `the first comparison stands (${c.first.verdict})` : 'not confirmed'}`
      : `re-measured ${formatChange(again.ratio)} (${range(again)}, ${qText(again.q)}): ${again.verdict === 'undecided' && again.ci.low > 1 ? 'not slower' : again.verdict}${confirmedOutcome(again, limit)}`;
    lines.push(`  ${displayName(c.label)} ${displayName(c.column)}: first ${formatChange(c.first.ratio)} (${range(c.first)}), ${outcome}`);
  }
  return lines;
}

// --confirm: re-measures the suspicious comparisons of `rows` into `out` (default beside B).
// given: { a: { files: [suite files], cwd }, b: ..., command: [argv] or null } from --confirm-a/-b,
// --confirm-a-cwd/-b-cwd and the words after --.
// Returns the confirmation (byRow: row -> its re-measured comparison) with the `lines` to print,
// or one without candidates.
export async function confirmRows(rows, { resultA, resultB, fileA, fileB, nodes, limit, alpha, equivalence, processes: asked, minutes = DEFAULT_CONFIRM_MINUTES, given = {}, out, command }) {
  // A count is not a sample of a noisy host: re-measuring it would return the same number, after
  // an hour of valgrind. The first comparison decides (byRow null), and the output says why.
  if (measureOfResult(resultA).id === 'instructions' && measureOfResult(resultB).id === 'instructions') {
    return { candidates: [], byRow: null, counted: true, verdicts: null, files: [], processes: 0, minutes, estimate: null, runs: [], lines: [COUNTED_LINE], rule: 'between two files that count instructions, the first comparison decides', evidence: COUNTED_LINE.replace(/^confirm: /, '') };
  }
  const candidates = suspicious(rows, { limit });
  const processes = asked ?? defaultConfirmProcesses(resultB.run);
  let confirmation = { candidates: [], byRow: new Map(), verdicts: null, files: [], processes, minutes, estimate: null, runs: [] };
  if (candidates.length) {
    const side = async (name, result, resultFile) => ({
      files: await suitesByName(given[name]?.files || [], result, { option: `--confirm-${name}`, resultFile }),
      cwd: given[name]?.cwd || null,
      command: given.command || null
    });
    const sides = { a: await side('a', resultA, fileA), b: await side('b', resultB, fileB) };
    const specs = await rerunSpecs(candidates, resultA, resultB, { fileA, fileB, nodes });
    const { plans, left, leftMs } = planConfirmation(candidates, resultA, resultB, { processes, minutes, limit, given: sides, specs });
    const file = path.resolve(out || defaultConfirmFile(fileB));
    checkOutput(file, { force: true, option: '--confirm-out' });
    const planned = plans.reduce((n, p) => n + 2 * p.cellsPerSide * processes, 0);
    const estimateMs = plans.reduce((ms, p) => ms + p.estimateMs, 0);
    const chosen = candidates.length - left.length;
    const rest = left.length ? `; the ${left.length} other(s), which the first measurement made look less slow, keep their first comparison (re-measuring them too would take about ${formatSeconds(leftMs / 1000)} more)` : '';
    const announce = (into) => process.stderr.write(`${terminalText(`nodebench: confirming ${chosen} comparison(s) the first measurement cannot clear${left.length ? ` (of ${candidates.length})` : ''}: re-measuring both sides, ${processes} processes per cell, ${planned} processes in all, about ${formatSeconds(estimateMs / 1000)} by the files' process times (--confirm-minutes ${minutes}), into ${shown(into)}${rest}`)}\n`);
    const compared = [{ file: fileA, result: resultA }, { file: fileB, result: resultB }];
    const runs = await runConfirmation(plans, { out: file, command, minutes, compared, announce });
    const leftOut = `not re-measured: beyond --confirm-minutes ${minutes}`;
    confirmation = {
      ...judgeConfirmation(runs, { alpha, equivalence, left, leftOut }),
      files: runs.map((r) => r.file),
      runs: runs.map((r) => ({ file: r.file, measured: r.measured, processes: roundsOf(r.result), replacements: processesOf(r.result) - roundsOf(r.result), planned: 2 * r.plan.cellsPerSide * processes, stoppedAtLimit: r.timeUp })),
      processes, minutes,
      estimate: { processes: planned, minutes: Math.round(estimateMs / 6000) / 10 }
    };
  }
  confirmation.lines = confirmationLines(confirmation, { limit, processes, files: confirmation.files.map(shown) });
  return { ...confirmation, rule: CONFIRM_RULE, evidence: CONFIRM_EVIDENCE };
}
