#!/usr/bin/env node
// Figures behind the verdicts (docs/statistics.md, docs/precision.md): how often diff calls an
// unchanged cell changed, how often the gate fails on nothing and catches a real 5% slowdown, with
// and without --confirm, and what the optimised-away rule flags.
//
//   node bench/verdicts.js aa FILE FILE [FILE ...]
//       A/A between result files of the same code (each file against the next, e.g. two default-matrix
//       runs): cells diff calls faster or slower at p < 0.05 per cell, at a 5% false discovery rate
//       (Benjamini-Hochberg, what diff uses) and with Benjamini-Yekutieli, with the 1% drift default
//       and with --drift auto; and how many it calls same within ±2% or undecided.
//   node bench/verdicts.js gate [--trials 20] [--runtimes 16.20.2,24.21.0] [--threshold 2] [--keep DIR | --reread DIR]
//                               [--confirm-processes N] [--only aa|slower] [--slowdown 5] [--no-confirm] [--busy-loops N]
//                               [--from-trial K]
//       `trials` A/A pairs of invocations of the promises suite (bench/fixtures/promises-marked.js) at
//       the shipped run options, and as many invocations with chain-native `slowdown`% slower: the real
//       CLI, `nodebench diff A B --fail-on-regression threshold --confirm --json`, counted with and
//       without the confirmation; plus the A/A share of cells flagged over those pairs. --no-confirm
//       runs the gate as a CI job between two files does by default (no re-measuring), on two files of
//       the same runtimes and flags (the slowdown set through the environment, see firstGateMode),
//       e.g. issue 36's `--slowdown 20 --threshold 5 --no-confirm`. --busy-loops N keeps N busy loops
//       (`while :; do :; done`) running beside for the whole run, issue 36's hostile host. --from-trial K
//       starts at trial K (counted from 0): a second stream of trials, beside the first in the same
//       --keep DIR, takes its own trials (e.g. `--trials 12` and `--from-trial 12 --trials 20`).
//   node bench/verdicts.js folding [--runtimes 4.9.1,...] [--keep DIR | --reread DIR] [SHIPPED.json ...]
//       the folding fixture (test/fixtures/suites/folding) on the given runtimes (default: the
//       default matrix's and 18, 20, 22): per benchmark and runtime, the fastest sample over the
//       fastest empty batch and the verdict; hits (empty or dropped work flagged), false alarms (work on
//       changing inputs flagged); and the cells flagged in the given result files of shipped suites.
//   node bench/verdicts.js simulate [PAIRS]
//       simulated A/A pairs of 140-cell files with a shift shared by each suite's cells (0, 2%, 5%):
//       cells flagged per method and drift setting, and one 10% slowdown caught or not.
// --json prints the figures as JSON.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import YAML from 'yaml';
import { readResult } from '../cli/results/file.js';
import { pairCells, diffResults } from '../cli/diff/compare.js';
import { confirmedBeyond } from '../cli/diff/gate.js';
import { judgeAll } from '../cli/stats/decision.js';
import { INVOCATION_DRIFT } from '../cli/stats/compare.js';
import { median } from '../cli/stats/basic.js';
import { FOLDED_RATIO, looksFolded } from '../cli/stats/folding.js';
import { keptProcesses } from '../cli/cell-identity.js';
import { keptSamples } from '../cli/stats/summary.js';
import { prng } from '../cli/stats/random.js';
import { rate } from './lib/trial-rates.js';
import { rateText } from './lib/targets.js';
import { answerHelp, log, runContext } from './lib/preamble.js';
import { startBusyLoops } from './lib/busy-loops.js';

answerHelp(import.meta.url);

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'cli', 'nodebench.js');
const decided = (verdict) => verdict === 'faster' || verdict === 'slower';

function parseArgs(argv) {
  const value = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
  const options = new Set(['--trials', '--runtimes', '--threshold', '--keep', '--reread', '--confirm-processes', '--only', '--slowdown', '--busy-loops', '--from-trial']);
  const files = argv.slice(1).filter((a, i, all) => !a.startsWith('--') && !options.has(all[i - 1]));
  return {
    mode: argv[0], files, json: argv.includes('--json'),
    trials: Number(value('--trials', 20)), threshold: Number(value('--threshold', 2)),
    runtimes: value('--runtimes', null)?.split(','), keep: value('--keep', null), reread: value('--reread', null),
    confirmProcesses: value('--confirm-processes', null), only: value('--only', null),
    slowdown: Number(value('--slowdown', 5)), confirm: !argv.includes('--no-confirm'), busyLoops: Number(value('--busy-loops', 0)),
    fromTrial: Number(value('--from-trial', 0))
  };
}

// ---- A/A between result files -------------------------------------------------------------------

function judgeRows(rows) {
  const compared = rows.filter((r) => r.comparison);
  const items = compared.map((r) => ({ ratio: r.comparison.ratio, low: r.comparison.ci.low, high: r.comparison.ci.high, p: r.comparison.p }));
  const by = judgeAll(items, { method: 'by' }).judged;
  return {
    cells: compared.length,
    raw: compared.filter((r) => r.comparison.p < 0.05).length,
    bh: compared.filter((r) => decided(r.comparison.verdict)).length,
    by: by.filter((j) => decided(j.verdict)).length,
    same: compared.filter((r) => r.comparison.verdict === 'same').length,
    undecided: compared.filter((r) => r.comparison.verdict === 'undecided').length,
    flagged: compared.filter((r) => decided(r.comparison.verdict)).map((r) => `${r.label} ${r.column} ${((r.comparison.ratio - 1) * 100).toFixed(1)}%`)
  };
}

export function aaBetween(resultA, resultB, names) {
  const pairs = pairCells(resultA, resultB, { fileA: names[0], fileB: names[1] });
  return Object.fromEntries([['drift1', INVOCATION_DRIFT], ['auto', 'auto']].map(([key, driftCv]) => [key, judgeRows(diffResults(pairs, { driftCv }))]));
}

async function aaMode(files) {
  if (files.length < 2) throw new Error('aa needs two result files or more');
  const pairs = [];
  for (let i = 0; i + 1 < files.length; i++) {
    pairs.push({ a: files[i], b: files[i + 1], ...aaBetween(await readResult(files[i]), await readResult(files[i + 1]), [files[i], files[i + 1]]) });
  }
  return { pairs };
}

function aaLines({ pairs }) {
  const share = (n, of) => `${n} of ${of} (${((n / of) * 100).toFixed(1)}%)`;
  return pairs.flatMap((p) => [`A/A ${path.basename(p.a)} vs ${path.basename(p.b)}:`, ...['drift1', 'auto'].map((key) => {
    const f = p[key];
    return `  ${key === 'drift1' ? `--drift ${INVOCATION_DRIFT * 100}` : '--drift auto'}: faster or slower at p < 0.05 per cell ${share(f.raw, f.cells)}; Benjamini-Hochberg (diff) ${share(f.bh, f.cells)}; Benjamini-Yekutieli ${share(f.by, f.cells)}; same within ±2% ${f.same}, undecided ${f.undecided}${f.flagged.length ? `; flagged: ${f.flagged.join('; ')}` : ''}`;
  })]);
}

// ---- simulated whole-matrix A/A under a shared shift ---------------------------------------------

// Two invocations of a 140-cell matrix (5 suites of 28 cells; 5 processes per cell, 3% process CV):
// each side of each cell moves by its own drift (2%) and by a shift its whole suite shares in that
// invocation (`shift`, the correlated part); `slowed` cells of B are 5% slower. Returns diff's rows.
function simulatedPair(seed, { shift, slowed = 0, factor = 1.05, cells = 140, suites = 5 }) {
  const random = prng(seed);
  const gaussian = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const suiteShift = () => Array.from({ length: suites }, () => shift * gaussian());
  const [shiftA, shiftB] = [suiteShift(), suiteShift()];
  const cell = (i, offset, slow) => {
    const suite = `s${i % suites}`;
    const center = 1000 * Math.exp(offset + 0.02 * gaussian()) * slow;
    const processes = Array.from({ length: 5 }, (_, round) => {
      const value = center * Math.exp(0.03 * gaussian());
      return { round, iterationsPerSample: 1000, warmup: { batches: 1, ms: 1, stable: true }, samplesNsPerOp: [value, value * 1.001, value * 0.999] };
    });
    return { runtime: '24.21.0', runtimeLabel: '24.21.0', flagSet: 'baseline', flags: [], suite, benchmark: `b${i}`, status: 'ok', processes };
  };
  const pairs = Array.from({ length: cells }, (_, i) => ({
    label: `s${i % suites}/b${i}`, column: '24.21.0/baseline',
    a: cell(i, shiftA[i % suites], 1), b: cell(i, shiftB[i % suites], i < slowed ? factor : 1)
  }));
  return (driftCv) => diffResults(pairs, { driftCv });
}

function simulateMode({ trials = 40 }) {
  const rows = [];
  for (const shift of [0, 0.02, 0.05]) {
    for (const [drift, driftCv] of [['1%', INVOCATION_DRIFT], ['auto', 'auto']]) {
      const totals = { raw: 0, bh: 0, by: 0, anyBh: 0, anyBy: 0, cells: 0, caughtBh: 0, caughtBy: 0, caughtRaw: 0 };
      for (let seed = 1; seed <= trials; seed++) {
        const aa = judgeRows(simulatedPair(seed, { shift })(driftCv));
        totals.raw += aa.raw;
        totals.bh += aa.bh;
        totals.by += aa.by;
        totals.anyBh += aa.bh > 0;
        totals.anyBy += aa.by > 0;
        totals.cells += aa.cells;
        // One cell 10% slower among the 140: is it called slower?
        const slowRows = simulatedPair(1000 + seed, { shift, slowed: 1, factor: 1.1 })(driftCv);
        const target = slowRows[0].comparison;
        const byTarget = judgeAll(slowRows.map((r) => ({ ratio: r.comparison.ratio, low: r.comparison.ci.low, high: r.comparison.ci.high, p: r.comparison.p })), { method: 'by' }).judged[0];
        totals.caughtRaw += target.p < 0.05 && target.ratio < 1;
        totals.caughtBh += target.verdict === 'slower';
        totals.caughtBy += byTarget.verdict === 'slower';
      }
      rows.push({ shift, drift, trials, ...totals });
    }
  }
  return { cells: 140, suites: 5, processes: 5, processCv: 0.03, cellDrift: 0.02, rows };
}

function simulateLines(f) {
  const pct = (k, n) => `${((k / n) * 100).toFixed(1)}%`;
  return [
    `Simulated A/A between two ${f.cells}-cell files (${f.suites} suites, ${f.processes} processes per cell at ${f.processCv * 100}% CV, ${f.cellDrift * 100}% drift per cell and side, plus a shift each suite shares per invocation), ${f.rows[0].trials} pairs per line; "caught": one cell 10% slower among them`,
    'suite shift  diff drift  cells flagged: p<0.05   BH      BY     pairs with any flag: BH   BY     caught: p<0.05  BH     BY',
    ...f.rows.map((r) => `${`${(r.shift * 100).toFixed(0)}%`.padEnd(13)}${r.drift.padEnd(12)}${pct(r.raw, r.cells).padEnd(22)}${pct(r.bh, r.cells).padEnd(8)}${pct(r.by, r.cells).padEnd(28)}${pct(r.anyBh, r.trials).padEnd(7)}${pct(r.anyBy, r.trials).padEnd(15)}${pct(r.caughtRaw, r.trials).padEnd(7)}${pct(r.caughtBh, r.trials).padEnd(7)}${pct(r.caughtBy, r.trials)}`)
  ];
}

// ---- gate trials -------------------------------------------------------------------------------

const FIXTURE = path.join(root, 'bench', 'fixtures', 'promises-marked.js');
const SLOWED = 'promises/chain-native';
const MARK = { aa: ['--title=nodebench-aa'], slower: (percent) => [percent === 5 ? '--title=nodebench-slower' : `--title=nodebench-slower-${percent}`] };

function shippedRun() {
  const shipped = YAML.parse(fs.readFileSync(path.join(root, 'matrix.yaml'), 'utf8')).run;
  const { timeBudgetMin, ...run } = shipped;
  return { ...run, metrics: false };
}

async function invoke(dir, name, runtimes, flags, seed, reread, env = {}) {
  const out = path.join(dir, `${name}.json`);
  if (reread || fs.existsSync(out)) return out;
  const file = path.join(dir, `${name}.yaml`);
  fs.writeFileSync(file, YAML.stringify({ runtimes, flagSets: { baseline: flags }, suites: [{ name: FIXTURE }], run: shippedRun() }));
  const started = Date.now();
  const run = await execa(process.execPath, [cli, 'matrix', '--matrix', file, '--out', out, '--seed', String(seed), '--json'], { stdout: 'ignore', stderr: 'pipe', reject: false, env });
  if (run.exitCode !== 0) throw new Error(`${name}: nodebench matrix exited ${run.exitCode}: ${run.stderr.slice(-2000)}`);
  log(`  ${name}: ${((Date.now() - started) / 60000).toFixed(1)} min`);
  return out;
}

// diff (with --confirm unless confirm is false) through the CLI, its JSON kept beside the files (and
// read back with --reread). processes: --confirm-processes (null: diff's default), part of the saved names.
async function gateDiff(dir, name, a, b, { threshold, reread, confirmProcesses: processes, confirm }) {
  const tag = `${name}${processes ? `-p${processes}` : ''}${confirm ? '' : '-first'}`;
  const saved = path.join(dir, `${tag}.diff.json`);
  if (reread || fs.existsSync(saved)) return JSON.parse(fs.readFileSync(saved, 'utf8'));
  const started = Date.now();
  const extra = !confirm ? [] : ['--confirm', ...(processes ? ['--confirm-processes', String(processes)] : []), '--confirm-out', path.join(dir, `${tag}.confirm.json`)];
  const run = await execa(process.execPath, [cli, 'diff', a, b, '--fail-on-regression', String(threshold), ...extra, '--json'], { reject: false });
  if (run.exitCode !== 0 && run.exitCode !== 1) throw new Error(`${name}: diff exited ${run.exitCode}: ${run.stderr.slice(-2000)}`);
  const outcome = { exitCode: run.exitCode, minutes: (Date.now() - started) / 60000, diff: JSON.parse(run.stdout) };
  fs.writeFileSync(saved, JSON.stringify(outcome));
  log(`  ${name}: diff${confirm ? ' --confirm' : ''} exit ${run.exitCode}${confirm ? `, ${outcome.diff.gate.confirm.candidates.length} re-measured` : ''}, ${outcome.minutes.toFixed(1)} min`);
  return outcome;
}

// What the gate decides without a confirmation: the first comparison, as diff without --confirm.
const firstFailures = (diff, threshold) => diff.rows.filter((r) => r.comparison && r.comparison.verdict === 'slower' && (1 - r.comparison.ratio) * 100 > threshold);
// The benchmarks failing the gate by today's rule, judged again from a saved diff: a re-measured
// comparison by confirmedBeyond (so trials saved under an earlier rule count as the gate decides
// now, without re-reading their confirmation files, which a new diff would resume where a time
// limit stopped them), anything else as the saved gate said.
function failedLabels(diff, threshold) {
  const candidates = (diff.gate.confirm?.candidates || []).filter((c) => c.confirmation);
  const remeasured = new Set(candidates.map((c) => `${c.label}\0${c.column}`));
  const failing = new Set(candidates.filter((c) => confirmedBeyond(c.confirmation, threshold)).map((c) => c.label));
  for (const f of diff.gate.failures) if (f.columns.some((col) => !remeasured.has(`${f.label}\0${col.column}`))) failing.add(f.label);
  return [...failing];
}

// only: 'aa' or 'slower' to run one kind of trial (e.g. the slowdown again with more processes).
async function gateMode(options) {
  const { trials, runtimes = ['16.20.2', '24.21.0'], keep, reread, only, slowdown, fromTrial = 0 } = options;
  const dir = reread || keep || fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-verdicts-'));
  fs.mkdirSync(dir, { recursive: true });
  const started = Date.now();
  const aa = [];
  const slow = [];
  const slowerName = (i) => (slowdown === 5 ? `t${i}-slower` : `t${i}-slower${slowdown}`);
  if (!options.confirm && fromTrial) throw new Error('--from-trial goes with --confirm trials only: the trials without it chain each file to the next');
  if (!options.confirm) return firstGateMode(options, { dir, started, slowerName });
  for (let i = fromTrial; i < trials; i++) {
    log(`trial ${i + 1} of ${trials} (${dir})`);
    const a = await invoke(dir, `t${i}-a`, runtimes, [], 1000 + 3 * i, reread);
    if (only !== 'slower') {
      const b = await invoke(dir, `t${i}-aa`, runtimes, MARK.aa, 1001 + 3 * i, reread);
      aa.push(aaTrial(await gateDiff(dir, `t${i}-aa`, a, b, options), options.threshold));
    }
    if (only === 'aa') continue;
    const s = await invoke(dir, slowerName(i), runtimes, MARK.slower(slowdown), 1002 + 3 * i, reread);
    slow.push(slowTrial(await gateDiff(dir, slowerName(i), a, s, options), options.threshold));
  }
  return { ...gateFigures({ ...options, aa, slow, runtimes, started, dir }), loads: invocationLoads(dir) };
}

// Without --confirm: the sides are the same runtimes and flags (the slowdown set through the
// environment), as two files of a code change are, so diff estimates drift between them. trials + 1
// plain invocations and trials slower ones, in turn: A/A pairs are each plain file against the
// next one (the slower file ran between them), slowdown pairs each plain file against the slower
// file right after it.
async function firstGateMode(options, { dir, started, slowerName }) {
  const { trials, runtimes = ['16.20.2', '24.21.0'], reread, only, slowdown, threshold } = options;
  const aa = [];
  const slow = [];
  let a = await invoke(dir, 'p0', runtimes, [], 1000, reread);
  for (let i = 0; i < trials; i++) {
    log(`trial ${i + 1} of ${trials} (${dir})`);
    if (only !== 'aa') {
      const s = await invoke(dir, slowerName(i), runtimes, [], 2000 + i, reread, { NODEBENCH_TRIAL_SLOWDOWN: String(slowdown) });
      slow.push(slowTrial(await gateDiff(dir, slowerName(i), a, s, options), threshold));
    }
    const next = await invoke(dir, `p${i + 1}`, runtimes, [], 1001 + i, reread);
    if (only !== 'slower') aa.push(aaTrial(await gateDiff(dir, `t${i}-aa`, a, next, options), threshold));
    a = next;
  }
  return { ...gateFigures({ ...options, aa, slow, runtimes, started, dir }), loads: invocationLoads(dir) };
}

// The 1-minute load averages each invocation's result file recorded at its start and end: how busy
// the machine was while the trials measured (other work included).
function invocationLoads(dir) {
  const loads = fs.readdirSync(dir).filter((name) => /^(p\d+|t\d+-(a|aa|slower\d*))\.json$/.test(name)).flatMap((name) => {
    const { host } = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
    return [host.loadAverageStart?.[0], host.loadAverageEnd?.[0]].filter(Number.isFinite);
  });
  return loads.length ? { median: median(loads), min: Math.min(...loads), max: Math.max(...loads), readings: loads.length } : null;
}

function aaTrial(same, threshold) {
  return {
    firstFails: firstFailures(same.diff, threshold).length > 0, confirmedFails: failedLabels(same.diff, threshold).length > 0, failed: failedLabels(same.diff, threshold),
    candidates: same.diff.gate.confirm?.candidates.length ?? 0, minutes: same.minutes, share: judgeRows(same.diff.rows)
  };
}

function slowTrial(slower, threshold) {
  const chainRows = slower.diff.rows.filter((r) => r.label === SLOWED && r.comparison);
  const confirmed = slower.diff.gate.confirm?.candidates || [];
  const candidates = confirmed.filter((c) => c.label === SLOWED);
  return {
    firstCaught: firstFailures(slower.diff, threshold).some((r) => r.label === SLOWED),
    caught: failedLabels(slower.diff, threshold).includes(SLOWED),
    columns: chainRows.length,
    firstColumns: firstFailures(slower.diff, threshold).filter((r) => r.label === SLOWED).length,
    confirmedColumns: candidates.filter((c) => c.confirmation && confirmedBeyond(c.confirmation, threshold)).length,
    screened: candidates.length,
    others: failedLabels(slower.diff, threshold).filter((l) => l !== SLOWED),
    ratios: chainRows.map((r) => r.comparison.ratio),
    confirmedRatios: candidates.filter((c) => c.confirmation).map((c) => c.confirmation.ratio),
    candidates: confirmed.length, minutes: slower.minutes
  };
}

function gateFigures({ aa, slow, runtimes, threshold, confirmProcesses, confirm, slowdown, busyLoops, started, dir }) {
  const count = (list, key) => rate(list.filter((x) => x[key]).length, list.length);
  const cells = aa.reduce((n, t) => n + t.share.cells, 0);
  return {
    ...runContext(),
    slice: { suite: 'promises (bench/fixtures/promises-marked.js)', runtimes, run: shippedRun(), threshold, slowdown, confirm, confirmProcesses: confirmProcesses || 'default', busyLoops },
    aa: {
      trials: aa.length,
      gateFailsFirst: count(aa, 'firstFails'), gateFailsConfirmed: count(aa, 'confirmedFails'),
      failed: aa.flatMap((t) => t.failed),
      candidatesMedian: median(aa.map((t) => t.candidates)),
      cells, flaggedBh: aa.reduce((n, t) => n + t.share.bh, 0), flaggedRaw: aa.reduce((n, t) => n + t.share.raw, 0), flaggedBy: aa.reduce((n, t) => n + t.share.by, 0),
      confirmMinutesMedian: median(aa.map((t) => t.minutes))
    },
    slowdown: {
      trials: slow.length,
      caughtFirst: count(slow, 'firstCaught'), caughtConfirmed: count(slow, 'caught'),
      columns: slow.reduce((n, t) => n + t.columns, 0), columnsFirst: slow.reduce((n, t) => n + t.firstColumns, 0), columnsConfirmed: slow.reduce((n, t) => n + t.confirmedColumns, 0),
      screened: slow.reduce((n, t) => n + t.screened, 0),
      otherFailures: slow.flatMap((t) => t.others),
      ratiosMedian: median(slow.flatMap((t) => t.ratios)), confirmedRatiosMedian: median(slow.flatMap((t) => t.confirmedRatios)),
      candidatesMedian: median(slow.map((t) => t.candidates)), confirmMinutesMedian: median(slow.map((t) => t.minutes))
    },
    minutes: (Date.now() - started) / 60000,
    files: dir
  };
}

function gateLines(f) {
  const pct = (n, of) => `${n} of ${of} (${((n / of) * 100).toFixed(1)}%)`;
  return [
    `Gate trials (${f.date.slice(0, 16)}Z, ${f.host.cores} cores ${f.host.cpu}, load ${f.load.map((x) => x.toFixed(1)).join(' ')} at the end${f.loads ? `; 1-min load at the invocations' starts and ends: median ${f.loads.median.toFixed(1)}, ${f.loads.min.toFixed(1)}-${f.loads.max.toFixed(1)}` : ''}): ${f.slice.suite} on ${f.slice.runtimes.join(', ')}, shipped run options without metrics, nodebench diff A B --fail-on-regression ${f.slice.threshold}${f.slice.confirm ? ` --confirm${f.slice.confirmProcesses === 'default' ? '' : ` --confirm-processes ${f.slice.confirmProcesses}`}` : ' (no --confirm: the gate between two files as a CI job runs it)'}${f.slice.busyLoops ? `; ${f.slice.busyLoops} busy loop(s) ran beside throughout` : ''}`,
    ...(f.aa.trials ? (f.slice.confirm ? aaGateLines(f, pct) : aaFirstLines(f, pct)) : []),
    ...(f.slowdown.trials ? slowGateLines(f) : []),
    `total ${f.minutes.toFixed(1)} min; files in ${f.files}`
  ];
}

function aaGateLines(f, pct) {
  return [
    `A/A: the gate failed in ${rateText(f.aa.gateFailsConfirmed)} of pairs with --confirm (target: 0 of 20, issue 36), ${rateText(f.aa.gateFailsFirst)} on the first comparison alone${f.aa.failed.length ? `; failed: ${f.aa.failed.join(', ')}` : ''}; median ${f.aa.candidatesMedian} comparisons re-measured per pair, ${f.aa.confirmMinutesMedian.toFixed(1)} min`,
    `A/A cells called faster or slower: ${pct(f.aa.flaggedBh, f.aa.cells)} with Benjamini-Hochberg (diff), ${pct(f.aa.flaggedBy, f.aa.cells)} with Benjamini-Yekutieli, ${pct(f.aa.flaggedRaw, f.aa.cells)} at p < 0.05 per cell (1% drift)`
  ];
}

function aaFirstLines(f, pct) {
  return [
    `A/A: the gate failed in ${rateText(f.aa.gateFailsConfirmed)} of pairs (target: 0 of 20)${f.aa.failed.length ? `; failed: ${f.aa.failed.join(', ')}` : ''}`,
    `A/A cells called faster or slower: ${pct(f.aa.flaggedBh, f.aa.cells)} with Benjamini-Hochberg (diff), ${pct(f.aa.flaggedBy, f.aa.cells)} with Benjamini-Yekutieli, ${pct(f.aa.flaggedRaw, f.aa.cells)} at p < 0.05 per cell`
  ];
}

function slowGateLines(f) {
  if (!f.slice.confirm) {
    return [
      `${f.slice.slowdown}% slowdown of ${SLOWED}: failed the gate in ${rateText(f.slowdown.caughtConfirmed)} of trials (target: at least 18 of 20); median ratio ${f.slowdown.ratiosMedian?.toFixed(3)}; other benchmarks failed in those trials: ${f.slowdown.otherFailures.length ? f.slowdown.otherFailures.join(', ') : 'none'}`
    ];
  }
  return [
    `${f.slice.slowdown}% slowdown of ${SLOWED}: caught in ${rateText(f.slowdown.caughtConfirmed)} of trials with --confirm (target >= 95%), ${rateText(f.slowdown.caughtFirst)} on the first comparison alone; by column ${f.slowdown.columnsConfirmed} of ${f.slowdown.columns} confirmed (${f.slowdown.screened} re-measured), ${f.slowdown.columnsFirst} on the first comparison; median ratio ${f.slowdown.ratiosMedian?.toFixed(3)} first, ${f.slowdown.confirmedRatiosMedian?.toFixed(3)} re-measured; other benchmarks failed in those trials: ${f.slowdown.otherFailures.length ? f.slowdown.otherFailures.join(', ') : 'none'}; median ${f.slowdown.candidatesMedian} re-measured, ${f.slowdown.confirmMinutesMedian.toFixed(1)} min`
  ];
}

// ---- optimised-away rule ------------------------------------------------------------------------

const FOLDING_SUITE = path.join(root, 'test', 'fixtures', 'suites', 'folding', 'index.js');
// What the fixture's benchmarks are: no work at all, or work dropped unused (must be flagged); work
// on inputs that do not change between calls (the runtime may fold or hoist it: either verdict is
// an answer, shown per runtime); work on inputs that change (must never be flagged).
const CLASSES = {
  empty: 'nothing', 'unused-result': 'nothing',
  'parse-constant-string': 'invariant', 'constant-index': 'invariant', 'constant-length': 'invariant', 'constant-math': 'invariant',
  'module-array-last': 'invariant', 'parse-context-string': 'invariant', 'context-array-last': 'invariant',
  'consumed-result': 'changing', 'opaque-constant-math': 'changing', xorshift: 'changing', 'moving-index': 'changing', 'moving-char': 'changing', 'parse-varying-string': 'changing'
};
const DEFAULT_FOLDING_RUNTIMES = ['4.9.1', '6.17.1', '14.21.3', '16.20.2', '18.20.8', '20.20.2', '22.23.3', '24.21.0'];
const flagged = (cell) => (cell.warnings || []).some((w) => (typeof w === 'string' ? w : w.code) === 'optimized-away');

// As the rule sees them: the kept processes (results/cell.js), fastest kept sample / fastest empty batch.
function processRatios(cell) {
  return keptProcesses(cell).filter((p) => p.emptyNsPerOp?.length).map((p) => Math.min(...keptSamples(p)) / Math.min(...p.emptyNsPerOp));
}

async function foldingMode({ runtimes = DEFAULT_FOLDING_RUNTIMES, keep, reread, files }) {
  const dir = reread || keep || fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-folding-'));
  fs.mkdirSync(dir, { recursive: true });
  const out = path.join(dir, 'folding.json');
  if (!reread && !fs.existsSync(out)) {
    const run = await execa(process.execPath, [cli, 'run', FOLDING_SUITE, '--node', runtimes.join(','), '--processes', '3', '--max-processes', '3', '--samples', '5', '--out', out], { stdout: 'ignore', stderr: 'inherit', reject: false });
    if (run.exitCode !== 0) throw new Error(`nodebench run exited ${run.exitCode}`);
  }
  const result = await readResult(out);
  const cells = result.cells.filter((c) => c.status === 'ok').map((c) => {
    const ratio = median(processRatios(c));
    return {
      benchmark: c.benchmark, runtime: c.runtime, kind: CLASSES[c.benchmark] || 'unknown',
      // A file read again is judged by today's line, not the one its run applied.
      flagged: reread ? looksFolded({ ratio }) : flagged(c),
      ratio, ns: c.summary.estimate, emptyNs: c.summary.emptyNsPerOp
    };
  });
  const shipped = [];
  for (const file of files) {
    const r = await readResult(file);
    const measured = r.cells.filter((c) => c.status === 'ok' && c.summary.emptyNsPerOp);
    const closest = measured.map((c) => ({ cell: `${c.suite}/${c.benchmark} ${c.runtime}/${c.flagSet}`, ratio: median(processRatios(c)) })).filter((c) => Number.isFinite(c.ratio)).sort((x, y) => x.ratio - y.ratio)[0];
    shipped.push({ file, cells: measured.length, flagged: measured.filter(flagged).map((c) => `${c.suite}/${c.benchmark} ${c.runtime}/${c.flagSet}`), closest });
  }
  const of = (kind) => cells.filter((c) => c.kind === kind);
  return {
    date: new Date().toISOString(), runtimes: result.runtimes.map((r) => r.version), threshold: FOLDED_RATIO, file: out,
    hits: of('nothing').filter((c) => c.flagged).length, nothing: of('nothing').length,
    falseAlarms: of('changing').filter((c) => c.flagged).length, changing: of('changing').length,
    invariantFlagged: of('invariant').filter((c) => c.flagged).length, invariant: of('invariant').length,
    cells, shipped
  };
}

function foldingLines(f) {
  const runtimes = f.runtimes;
  const benchmarks = [...new Set(f.cells.map((c) => c.benchmark))];
  const width = Math.max(...benchmarks.map((b) => b.length)) + 2;
  const header = `${'benchmark'.padEnd(width)}${'kind'.padEnd(11)}${runtimes.map((r) => r.padEnd(10)).join('')}`;
  const rows = benchmarks.map((b) => `${b.padEnd(width)}${(CLASSES[b] || '?').padEnd(11)}${runtimes.map((r) => {
    const c = f.cells.find((x) => x.benchmark === b && x.runtime === r);
    return (c ? `${c.ratio.toFixed(2)}${c.flagged ? '!' : ''}` : '-').padEnd(10);
  }).join('')}`);
  return [
    `Optimised-away rule (${f.date.slice(0, 16)}Z): fastest sample / fastest empty batch, median process; ! = flagged (below ${f.threshold}x); ${f.file}`,
    header, ...rows,
    `hits: ${f.hits} of ${f.nothing} cells that do nothing (empty, unused result) flagged; false alarms: ${f.falseAlarms} of ${f.changing} cells of work on changing inputs; work on unchanging inputs flagged in ${f.invariantFlagged} of ${f.invariant} (folded or hoisted by the runtime)`,
    ...f.shipped.map((s) => `shipped suites ${s.file}: ${s.flagged.length} of ${s.cells} cells flagged${s.flagged.length ? ` (${s.flagged.join(', ')})` : ''}; closest to the empty cost: ${s.closest ? `${s.closest.cell} at ${s.closest.ratio.toFixed(0)}x` : 'n/a'}`)
  ];
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  let figures;
  let lines;
  if (args.mode === 'aa') {
    figures = await aaMode(args.files);
    lines = aaLines(figures);
  } else if (args.mode === 'gate') {
    const stopBusyLoops = startBusyLoops(args.reread ? 0 : args.busyLoops);
    try {
      figures = await gateMode({ ...args, runtimes: args.runtimes || undefined });
    } finally {
      stopBusyLoops();
    }
    lines = gateLines(figures);
  } else if (args.mode === 'simulate') {
    figures = simulateMode({ trials: args.files.length ? Number(args.files[0]) : 40 });
    lines = simulateLines(figures);
  } else if (args.mode === 'folding') {
    figures = await foldingMode({ ...args, runtimes: args.runtimes || undefined });
    lines = foldingLines(figures);
  } else {
    throw new Error('usage: node bench/verdicts.js aa FILE FILE [...] | simulate [PAIRS] | gate [--trials N] [--runtimes A,B] [--threshold P] [--keep DIR | --reread DIR] | folding [--runtimes ...] [--keep DIR | --reread DIR] [SHIPPED.json ...]  [--json]');
  }
  process.stdout.write(args.json ? `${JSON.stringify(figures, null, 1)}\n` : `${lines.join('\n')}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err.stack}\n`);
  process.exit(70);
});
