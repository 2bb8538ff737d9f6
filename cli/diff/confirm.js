// diff --fail-on-regression N --confirm: before a job fails, the comparisons that look slower
// (gate.js suspicious) are measured again — both columns of each, interleaved in one fresh run on
// this machine (the engine as a black box: runEngine on a matrix of just those benchmarks and the
// two sides' runtimes, flag sets, suite files and parameters) — and the gate fails only on what that
// run decides slower by more than N%.
// The confirmation alone decides. The first measurement chose the candidates, so it is biased
// toward "slower" among them (they were picked for looking slow); pooling it with the new processes
// would count that selection as evidence. The new run is independent of the choice, its columns ran
// in the same blocks (paired ratios, no drift between invocations), and its comparisons are judged
// together at one false discovery rate (stats/decision.js, on the one-sided p-value of "B is not
// slower": nothing else can fail the gate; weighted by how slow the first measurement made each
// look, firstLook), so that re-measuring ten unchanged benchmarks does not fail one by chance. A candidate the machine was too busy to re-measure (fewer than MIN_QUIET
// quiet processes on a side) is not confirmed, and says so.
import path from 'node:path';
import fs from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { runEngine } from '../engine.js';
import { createProgress } from '../progress.js';
import { pairedRatio, pairedPrior } from '../stats/compare.js';
import { judgeAll } from '../stats/decision.js';
import { tTwoSidedP } from '../stats/distributions.js';
import { formatChange } from '../text/format.js';
import { UserError } from '../errors.js';
import { checkOutput } from '../results/file.js';
import { suspicious } from './gate.js';
import { columnKey } from '../cell-identity.js';
import { rerunSpec, namedBinaries } from '../runtimes/recorded.js';

// What --format json records of the rule (gate.confirm), so the decision reads from the files.
export const CONFIRM_RULE = 'comparisons the first measurement cannot clear (not faster, not same, 95% interval reaching past -threshold%) are measured again: both columns, interleaved in one run; the gate fails only on those that run decides slower by more than the threshold';
export const CONFIRM_EVIDENCE = 'the re-measurement alone decides (the first measurement chose the candidates, so counting it again would count the selection as evidence); its comparisons are paired by block and judged together at one false discovery rate on the one-sided p-value of "B is not slower", weighted by how slow the first measurement made each look (weighted Benjamini-Hochberg: the weights are independent of the new run); a side with fewer than 3 quiet processes is not confirmed';

// The sampler and timing options a confirmation keeps from the files' run.
const KEPT_RUN_OPTIONS = ['samples', 'minSampleMs', 'warmupMinMs', 'warmupMaxMs', 'maxSampleMs', 'timeoutSec', 'rerunDisturbed', 'disturbancePct'];
// With 10 processes a side, a real 5% slowdown of a promises benchmark was re-measured at 0.91-1.02
// and confirmed in 0 of 4 gate trials (bench/verdicts.js gate, 2026-11-23): the re-measurement
// needs about three times that. A fixed count, not processes added until a comparison is decided:
// that is optional stopping, which decided 11% of A/A ratios in bench/pairing.js against 0-3%.
export const MIN_CONFIRM_PROCESSES = 30;

export const defaultConfirmProcesses = (run) => Math.max(MIN_CONFIRM_PROCESSES, 6 * (run?.processes || 1));

export function defaultConfirmFile(fileB) {
  const dir = path.dirname(fileB);
  return path.join(dir, `${path.basename(fileB).replace(/\.json$/i, '')}.confirm.json`);
}

// What nodebench can run again of one side of a comparison.
function sideOf(result, cell) {
  const runtime = result.runtimes.find((r) => r.label === cell.runtimeLabel);
  const suite = result.suites.find((s) => s.name === cell.suite);
  return { runtime, flags: cell.flags || [], flagSet: cell.flagSet, suite };
}

// specs: each recorded runtime -> what to run for it (runtimes/recorded.js: by exact version, or a
// binary the user named with --node; never a path the files name).
const sameRuntime = (a, b, specs) => (a.sha256 && b.sha256 ? a.sha256 === b.sha256 : a.version === b.version && specs.get(a) === specs.get(b));

function checkRerunnable(row, a, b, specs) {
  const where = `${row.label} (${row.column})`;
  if (!a.runtime || !b.runtime || !a.suite || !b.suite) throw new UserError(`--confirm cannot re-measure ${where}: its result files do not describe its runtime and suite; compare without --confirm.`);
  if (!a.suite.file || a.suite.file !== b.suite.file || !fs.existsSync(a.suite.file)) {
    throw new UserError(`--confirm cannot re-measure ${where}: A and B ran suite "${a.suite.name}" from ${a.suite.file === b.suite.file ? `${a.suite.file}, which is not on this machine` : `different files (${a.suite.file}, ${b.suite.file})`}; it re-runs runtimes and flag sets, not two versions of a suite, so compare without --confirm.`);
  }
  if (!isDeepStrictEqual(a.suite.params, b.suite.params)) {
    throw new UserError(`--confirm cannot re-measure ${where}: A and B ran suite "${a.suite.name}" with different parameters; it re-runs runtimes and flag sets, so compare without --confirm.`);
  }
  if (sameRuntime(a.runtime, b.runtime, specs) && isDeepStrictEqual(a.flags, b.flags)) {
    throw new UserError(`--confirm cannot re-measure ${where}: A and B ran it on the same runtime (Node ${a.runtime.version}), flags and suite file, so what changed between them is not something nodebench can run side by side; compare without --confirm, or measure both versions in one run.`);
  }
}

// One confirmation run per pair of sides: its matrix and which of its columns is which side.
function planFor(a, b, rows, { run, processes, specs }) {
  const twoRuntimes = !sameRuntime(a.runtime, b.runtime, specs);
  const labelA = a.runtime.label;
  const labelB = twoRuntimes && b.runtime.label === labelA ? `${b.runtime.label}-B` : twoRuntimes ? b.runtime.label : labelA;
  // Same runtime: the flags differ (checkRerunnable), so the sides are two flag sets.
  const twoFlagSets = !twoRuntimes || !isDeepStrictEqual(a.flags, b.flags);
  const flagSetA = a.flagSet;
  const flagSetB = twoFlagSets ? (b.flagSet === a.flagSet ? `${b.flagSet}-B` : b.flagSet) : a.flagSet;
  const runtimes = [{ spec: specs.get(a.runtime), label: labelA }, ...(twoRuntimes ? [{ spec: specs.get(b.runtime), label: labelB }] : [])];
  const flagSets = [{ name: flagSetA, flags: a.flags }, ...(twoFlagSets ? [{ name: flagSetB, flags: b.flags }] : [])];
  // rows: [{ row, suite }] (the suite as the files describe it, the same in A and B).
  const bySuite = new Map();
  for (const { row, suite } of rows) {
    if (!bySuite.has(suite.name)) bySuite.set(suite.name, { name: suite.file, benchmarks: [], params: suite.params || {} });
    const entry = bySuite.get(suite.name);
    if (!entry.benchmarks.includes(row.a.benchmark)) entry.benchmarks.push(row.a.benchmark);
  }
  const kept = Object.fromEntries(KEPT_RUN_OPTIONS.filter((k) => run[k] !== undefined).map((k) => [k, run[k]]));
  return {
    sides: { a: { label: labelA, flagSet: flagSetA, runtime: a.runtime.version }, b: { label: labelB, flagSet: flagSetB, runtime: b.runtime.version } },
    rows: rows.map((r) => r.row),
    matrix: {
      runtimes,
      flagSets,
      suites: [...bySuite.values()],
      // Every process of both columns in the same rounds, no top-ups (a fixed, known cost, and no
      // optional stopping), no metrics processes (only timings decide).
      run: { ...kept, processes, maxProcesses: processes, metrics: false, baseline: `${labelA}/${flagSetA}` },
      baseDir: process.cwd()
    }
  };
}

// candidates: diff rows (gate.js suspicious). Groups them by pair of sides, one run per group (a
// diff of one runtime pair and flag set, the usual case, is one run). Throws a UserError for a
// comparison nodebench cannot run again. specs: rerunSpecs'.
export function planConfirmation(candidates, resultA, resultB, { processes, specs } = {}) {
  const groups = new Map();
  for (const row of candidates) {
    const a = sideOf(resultA, row.a);
    const b = sideOf(resultB, row.b);
    checkRerunnable(row, a, b, specs);
    const key = JSON.stringify([a.runtime.label, a.runtime.version, a.flags, b.runtime.label, b.runtime.version, b.flags]);
    if (!groups.has(key)) groups.set(key, { a, b, rows: [] });
    groups.get(key).rows.push({ row, suite: a.suite });
  }
  return [...groups.values()].map((g) => planFor(g.a, g.b, g.rows, { run: resultB.run || {}, processes, specs }));
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

const cellOf = (result, row, side) => result.cells.find((c) => c.suite === row.a.suite && c.benchmark === row.a.benchmark && c.runtimeLabel === side.label && c.flagSet === side.flagSet);

// Runs the plans one after the other into `out` (a plan beyond the first gets -2, -3 before .json).
// Returns [{ plan, file, result }].
export async function runConfirmation(plans, { out, progress = createProgress(), command = ['diff', '--confirm'] }) {
  const runs = [];
  for (const [i, plan] of plans.entries()) {
    const file = i === 0 ? out : out.replace(/(\.json)?$/i, `-${i + 1}.json`);
    const { result, interrupted } = await runEngine(plan.matrix, { out: file, progress, command });
    if (interrupted) throw new UserError(`The confirmation run was interrupted; what it measured is in ${file}. Run diff again to confirm.`);
    runs.push({ plan, file, result });
  }
  return runs;
}

// Fewer quiet processes than this on a side, and the cell's estimate leans on processes that ran
// while other programs held the CPU (results/cell.js keeps them all when too few are quiet).
export const MIN_QUIET = 3;
const quiet = (cell) => cell.processes.filter((p) => !p.setAside).length;

// What the re-measurement of a candidate gave: an ok pair of cells with enough quiet processes, or
// why not. `keep`: the first comparison stands (the benchmark did not run), else it is not confirmed.
function usable(a, b) {
  if (a?.status !== 'ok' || b?.status !== 'ok') return { problem: `re-measuring gave ${a ? a.status : 'no cell'} / ${b ? b.status : 'no cell'}${b?.error ? ` (${b.error})` : ''}`, keep: true };
  const few = [a, b].find((c) => quiet(c) < MIN_QUIET);
  if (few) return { problem: `the machine was too busy to re-measure it: ${few.processes.length - quiet(few)} of ${few.processes.length} processes of ${columnKey(few)} ran while other programs held the CPU`, keep: false };
  return null;
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

// The confirmation's verdict on each candidate: the paired ratio of side B to side A in the new
// run, judged over all candidates at one false discovery rate (one-sided: only "slower" can fail
// the gate). Returns { byRow: Map row -> comparison (diff's shape: ratio, ci, p, q, verdict,
// method, pairs), candidates: [...], verdicts }. A candidate whose benchmark did not run again keeps
// its first comparison; one the machine was too busy to re-measure is not confirmed; both say so.
export function judgeConfirmation(runs, { alpha, equivalence } = {}) {
  const entries = [];
  for (const { plan, file, result } of runs) {
    const pairs = plan.rows.map((row) => ({ row, a: cellOf(result, row, plan.sides.a), b: cellOf(result, row, plan.sides.b) }))
      .map((p) => ({ ...p, unusable: usable(p.a, p.b) }));
    const okPairs = pairs.filter((p) => !p.unusable);
    const priors = new Map([...new Set(okPairs.map((p) => p.row.a.suite))].map((suite) => [suite, pairedPrior(okPairs.filter((p) => p.row.a.suite === suite).map((p) => [p.a, p.b]))]));
    for (const p of pairs) {
      entries.push({ ...p, file, ratio: p.unusable ? null : pairedRatio(p.a, p.b, priors.get(p.row.a.suite)), problem: p.unusable?.problem || null });
    }
  }
  const { judged, summary } = judgeAll(entries.map((e) => e.ratio && { ...e.ratio, p: slowerP(e.ratio), weight: firstLook(e.row.comparison) }), { alpha, equivalence });
  const byRow = new Map();
  const candidates = entries.map((e, i) => {
    const first = e.row.comparison;
    const confirmation = e.ratio ? {
      ratio: e.ratio.ratio, ci: { level: 0.95, low: e.ratio.low, high: e.ratio.high }, p: slowerP(e.ratio), q: judged[i].q,
      verdict: judged[i].verdict, method: e.ratio.method, pairs: e.ratio.pairs, paired: e.ratio.paired,
      cells: { a: e.a.summary, b: e.b.summary }
    } : null;
    if (confirmation) byRow.set(e.row, confirmation);
    else if (e.unusable.keep) byRow.set(e.row, { ...first, notRemeasured: true });
    return {
      label: e.row.label, column: e.row.column, file: e.file,
      first: { ratio: first.ratio, ci: first.ci, p: first.p, q: first.q, verdict: first.verdict, weight: firstLook(first) },
      confirmation, problem: e.problem, kept: e.unusable ? e.unusable.keep : undefined
    };
  });
  return { byRow, candidates, verdicts: summary };
}

const range = (c) => `${formatChange(c.ci.low)} .. ${formatChange(c.ci.high)}`;
const qText = (q) => (q < 0.001 ? 'q < 0.001' : `q = ${q.toFixed(3)}`);

// The lines diff prints about a confirmation (text and Markdown), for `limit` in percent.
export function confirmationLines(confirmation, { limit, processes, files }) {
  if (!confirmation.candidates.length) return [`confirm: every comparison is cleared (faster, same, or a slowdown beyond ${limit}% ruled out): nothing to re-measure.`];
  const v = confirmation.verdicts;
  const lines = [`confirm: ${confirmation.candidates.length} comparison(s) could not be cleared (a slowdown beyond ${limit}% not ruled out); re-measured both columns, interleaved in one run (${processes} processes per cell, ${files.join(', ')}), and asked "slower?" together at a ${v.alpha * 100}% false discovery rate (${v.method}, one-sided, weighted by the first look):`];
  for (const c of confirmation.candidates) {
    const again = c.confirmation;
    const outcome = !again ? `${c.problem}; ${c.kept ? `the first comparison stands (${c.first.verdict})` : 'not confirmed'}`
      : `re-measured ${formatChange(again.ratio)} (${range(again)}, ${qText(again.q)}): ${again.verdict === 'undecided' && again.ci.low > 1 ? 'not slower' : again.verdict}${again.verdict === 'slower' && (1 - again.ratio) * 100 > limit ? ', confirmed' : ', not confirmed'}`;
    lines.push(`  ${c.label} ${c.column}: first ${formatChange(c.first.ratio)} (${range(c.first)}), ${outcome}`);
  }
  return lines;
}

// --confirm: re-measures the suspicious comparisons of `rows` into `out` (default beside B).
// Returns the confirmation (byRow: row -> its re-measured comparison) with the `lines` to print,
// or one without candidates.
export async function confirmRows(rows, { resultA, resultB, fileA, fileB, nodes, limit, alpha, equivalence, processes: asked, out, command }) {
  const candidates = suspicious(rows, { limit });
  const processes = asked ?? defaultConfirmProcesses(resultB.run);
  let confirmation = { candidates: [], byRow: new Map(), verdicts: null, files: [], processes };
  if (candidates.length) {
    const specs = await rerunSpecs(candidates, resultA, resultB, { fileA, fileB, nodes });
    const plans = planConfirmation(candidates, resultA, resultB, { processes, specs });
    const file = path.resolve(out || defaultConfirmFile(fileB));
    checkOutput(file, { force: true, option: '--confirm-out' });
    process.stderr.write(`nodebench: confirming ${candidates.length} comparison(s) the first measurement cannot clear: re-measuring both columns, ${processes} processes per cell, into ${path.relative(process.cwd(), file) || file}\n`);
    const runs = await runConfirmation(plans, { out: file, command });
    confirmation = { ...judgeConfirmation(runs, { alpha, equivalence }), files: runs.map((r) => r.file), processes };
  }
  confirmation.lines = confirmationLines(confirmation, { limit, processes, files: confirmation.files.map((f) => path.relative(process.cwd(), f) || f) });
  return { ...confirmation, rule: CONFIRM_RULE, evidence: CONFIRM_EVIDENCE };
}
