#!/usr/bin/env node
// The figures behind docs/history.md.
//  (a) Change points on simulated series: how often a known shift is found, at the right point,
//      and how often a series without one shows a change point, for the shipped method and the
//      alternatives it was chosen over, at the noise the default matrix shows (docs/precision.md:
//      margins of ±3-6%, i.e. relative standard errors of 1.5-3%, plus the 1% drift between runs).
//      Each simulated point is a cell of 4-7 processes whose interval is computed by the real
//      stats code (stats/robust.js logInterval, with a suite variance prior) and read back as a
//      point exactly as the history store reads a cell (history/entry.js, history/series.js).
//  (b) The store at scale: result files of a 150-cell matrix, made from a real result file (its
//      cells cloned with their processes, estimates perturbed run to run), added one by one with
//      the real CLI; `history add` time, `history show --format html` time, the store's size.
//
//   node bench/history-figures.js [--detection] [--scale] [--series N] [--files N] [--template R.json] [--keep DIR] [--json]
// Without --detection or --scale both run. Without --template, (b) first measures one with
// `nodebench matrix --runtimes 16,lts --flags baseline --suites promises` (the shipped run options).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { changePoints, MIN_SEGMENT, ALPHA } from '../cli/history/changepoints.js';
import { cellPoint } from '../cli/history/entry.js';
import { poolRuns } from '../cli/history/series.js';
import { logInterval } from '../cli/stats/robust.js';
import { prng, shuffle } from '../cli/stats/random.js';
import { median, quantile } from '../cli/stats/basic.js';
import { tTwoSidedP } from '../cli/stats/distributions.js';
import { INVOCATION_DRIFT } from '../cli/stats/drift.js';
import { textTable } from '../cli/text/text-table.js';
import { answerHelp, log, runContext } from './lib/preamble.js';
import { synthesize, normalFrom } from './lib/synthetic-history.js';

answerHelp(import.meta.url);

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'cli', 'nodebench.js');

function parseArgs(argv) {
  const value = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
  const only = argv.includes('--detection') || argv.includes('--scale');
  return {
    detection: !only || argv.includes('--detection'),
    scale: !only || argv.includes('--scale'),
    series: Number(value('--series', 1000)),
    files: Number(value('--files', 200)),
    template: value('--template', null),
    keep: value('--keep', null),
    json: argv.includes('--json')
  };
}

// ---------------------------------------------------------------- (a) detection on simulated series

// One series of `n` runs of a cell. se: the range of relative standard errors a cell of this suite
// has (drawn once per series, as a benchmark keeps its spread); drift: the run-to-run drift beyond
// the cells' own intervals; disturbed: the share of runs that a busy host moved by ±8% without the
// interval showing it. shiftAt: the first run after a change of `shift` in the rate.
// Returns the points as the store reads them ({ y, v }) and their true variances (for the
// reference method).
function simulateSeries(random, { n = 30, se = [0.015, 0.03], drift = INVOCATION_DRIFT, disturbed = 0, shiftAt = null, shift = -0.05 }) {
  const normal = normalFrom(random);
  const relSe = se[0] + (se[1] - se[0]) * random();
  const processSd = relSe * Math.sqrt(5.5);
  // The suite's variance prior, as moderate.js fits it on the shipped suites (about 4.5 prior
  // degrees of freedom on the promises suite of the run in docs/precision.md).
  const prior = { d0: 4.5, s02: processSd ** 2, cells: 18 };
  const points = [];
  const truth = [];
  for (let i = 0; i < n; i++) {
    const processes = 4 + Math.floor(random() * 4);
    // ns/op on the log scale: a slowdown of the rate is a rise of the time.
    let centre = (shiftAt !== null && i >= shiftAt ? -Math.log(1 + shift) : 0) + drift * normal();
    if (random() < disturbed) centre += (random() < 0.5 ? -1 : 1) * 0.08;
    const logs = Array.from({ length: processes }, () => centre + processSd * normal());
    const interval = logInterval(logs, 'simulated per-process values', prior);
    const point = cellPoint({ opsPerSec: 1e9 / interval.estimate, ci: { low: interval.low, high: interval.high }, processes });
    points.push(poolRuns([{ y: Math.log(point.opsPerSec), se: point.logSe }]));
    truth.push({ y: Math.log(point.opsPerSec), v: processSd ** 2 / processes + drift ** 2 });
  }
  return { points, truth };
}

// E-divisive means (Matteson & James 2014; MongoDB's and Hunter's change points), on the estimates
// alone: the split that maximises the energy distance between the two sides, significant when a
// permutation of the segment rarely does better; then both sides again.
function energyBest(ys, minSegment) {
  const n = ys.length;
  // prefix[i][j]: sum of |y_a - y_b| over a < i, b < j.
  const prefix = Array.from({ length: n + 1 }, () => new Float64Array(n + 1));
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= n; j++) prefix[i][j] = prefix[i - 1][j] + prefix[i][j - 1] - prefix[i - 1][j - 1] + Math.abs(ys[i - 1] - ys[j - 1]);
  }
  const block = (a, b, c, d) => prefix[b][d] - prefix[a][d] - prefix[b][c] + prefix[a][c];
  let best = { k: -1, q: -Infinity };
  for (let k = minSegment; k <= n - minSegment; k++) {
    const left = k;
    const right = n - k;
    const between = (2 / (left * right)) * block(0, k, k, n);
    const withinLeft = block(0, k, 0, k) / (left * (left - 1));
    const withinRight = block(k, n, k, n) / (right * (right - 1));
    const q = ((left * right) / n) * (between - withinLeft - withinRight);
    if (q > best.q) best = { k, q };
  }
  return best;
}

function eDivisive(points, random, { minSegment = 2, permutations = 199, alpha = ALPHA } = {}) {
  const ys = points.map((p) => p.y);
  const cuts = [];
  const search = (a, b) => {
    if (b - a < 2 * minSegment) return;
    const segment = ys.slice(a, b);
    const found = energyBest(segment, minSegment);
    let beaten = 0;
    for (let r = 0; r < permutations; r++) if (energyBest(shuffle(segment, random), minSegment).q >= found.q) beaten++;
    if ((beaten + 1) / (permutations + 1) >= alpha) return;
    cuts.push(a + found.k);
    search(a, a + found.k);
    search(a + found.k, b);
  };
  search(0, ys.length);
  return cuts;
}

// What a gate against the previous run does: each point against the one before, by their intervals.
function previousPoint(points) {
  const cuts = [];
  for (let i = 1; i < points.length; i++) {
    const z = (points[i].y - points[i - 1].y) / Math.sqrt(points[i].v + points[i - 1].v);
    if (tTwoSidedP(z, Infinity) < ALPHA) cuts.push(i);
  }
  return cuts;
}

const METHODS = [
  { name: `interval-weighted binary segmentation, ${MIN_SEGMENT}+ points a side (shipped)`, find: ({ points }) => changePoints(points).changes.map((c) => c.index) },
  { name: `the same, ${3 - MIN_SEGMENT}+ point${MIN_SEGMENT === 2 ? '' : 's'} a side`, find: ({ points }) => changePoints(points, { minSegment: 3 - MIN_SEGMENT }).changes.map((c) => c.index) },
  { name: 'the same with the Bonferroni bound over the splits', find: ({ points }) => changePoints(points, { draws: 0 }).changes.map((c) => c.index) },
  { name: 'the same without the excess spread (intervals + 1% drift only)', find: ({ points }) => changePoints(points, { extra: 0 }).changes.map((c) => c.index) },
  { name: 'E-divisive means (estimates only, 199 permutations)', find: ({ points }, random) => eDivisive(points, random), slow: true },
  { name: 'each run against the previous one (p < 0.05)', find: ({ points }) => previousPoint(points) },
  { name: 'reference: the shipped search given the true variances', find: ({ truth }) => changePoints(truth, { extra: 0 }).changes.map((c) => c.index) }
];

// scenario: { label, shift, at: (random) => index | null, ... simulateSeries options }.
function evaluate(method, scenario, count, seed) {
  const random = prng(seed);
  const counts = { series: count, any: 0, exact: 0, near: 0, elsewhere: 0 };
  for (let r = 0; r < count; r++) {
    const at = scenario.at ? scenario.at(random) : null;
    const series = simulateSeries(random, { ...scenario, shiftAt: at });
    const cuts = method.find(series, random);
    if (cuts.length) counts.any++;
    if (at === null) continue;
    if (cuts.includes(at)) counts.exact++;
    if (cuts.some((k) => Math.abs(k - at) <= 1)) counts.near++;
    if (cuts.some((k) => Math.abs(k - at) > 1)) counts.elsewhere++;
  }
  return counts;
}

const SCENARIOS = {
  none: { label: 'no shift', at: null },
  random: { label: '5% slowdown at a random run (4th..27th)', at: (random) => 3 + Math.floor(random() * 25) },
  middle: { label: '5% slowdown at run 16', at: () => 15 },
  newest3: { label: '5% slowdown in the 3 newest runs', at: () => 27 },
  newest1: { label: '15% slowdown in the newest run only', at: () => 29, shift: -0.15 }
};

function detection({ series }) {
  const pct = (k, n) => `${((100 * k) / n).toFixed(1)}%`;
  const rows = [];
  const started = Date.now();
  METHODS.forEach((method, m) => {
    const n = method.slow ? Math.min(series, 500) : series;
    const r = Object.fromEntries(Object.entries(SCENARIOS).map(([key, scenario], s) => [key, evaluate(method, scenario, n, 1000 * m + s + 1)]));
    rows.push({ method: method.name, series: n, ...r });
    log(`  ${method.name}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  });
  const table = textTable([
    ['method (default matrix noise: se 1.5-3% + 1% drift, 30 runs)', 'series', 'no shift: false CP', '5% random: exact', '±1 run', 'found', 'a CP elsewhere', 'at run 16: exact', '3 newest: exact', '15% newest: found'],
    ...rows.map((r) => [r.method, String(r.series), pct(r.none.any, r.series), pct(r.random.exact, r.series), pct(r.random.near, r.series), pct(r.random.any, r.series), pct(r.random.elsewhere, r.series),
      pct(r.middle.exact, r.series), pct(r.newest3.exact, r.series), pct(r.newest1.exact, r.series)])
  ], { rightFrom: 1 });

  // The shipped method against the noise: how precise cells must be for a 5% shift to be placed
  // exactly, and what a host noisier than its intervals does.
  const shipped = METHODS[0];
  const withoutExcess = METHODS.find((m) => m.name.includes('without the excess spread'));
  const reference = METHODS.at(-1);
  const noise = [
    { label: 'se 1.5% (margins ±3%, a quiet host)', se: [0.015, 0.015] },
    { label: 'se 2.25% (margins ±4.5%, the median)', se: [0.0225, 0.0225] },
    { label: 'se 3% (margins ±6%)', se: [0.03, 0.03] },
    { label: 'se 1.5-3%, drift 2% between runs', drift: 0.02 },
    { label: 'se 1.5-3%, 5% of runs disturbed by ±8%', disturbed: 0.05 },
    { label: 'se 1.5-3%, a 10% slowdown', shift: -0.1 },
    { label: 'se 1.5-3%, 60 runs', n: 60, atLimit: 57 }
  ];
  const noiseRows = noise.map((variant, i) => {
    const { atLimit = 27, ...options } = variant;
    const none = evaluate(shipped, { ...options, at: null }, series, 50 + i);
    const noneWithoutExcess = evaluate(withoutExcess, { ...options, at: null }, series, 50 + i);
    const shifted = evaluate(shipped, { ...options, at: (random) => 3 + Math.floor(random() * (atLimit - 2)) }, series, 70 + i);
    const best = evaluate(reference, { ...options, at: (random) => 3 + Math.floor(random() * (atLimit - 2)) }, series, 70 + i);
    return { label: variant.label, none, noneWithoutExcess, shifted, best };
  });
  const noiseTable = textTable([
    ['shipped method, shift 5% at a random run unless said', 'no shift: false CP', 'without excess spread', 'exact', '±1 run', 'found', 'reference: exact', '±1 run'],
    ...noiseRows.map((r) => [r.label, pct(r.none.any, series), pct(r.noneWithoutExcess.any, series), pct(r.shifted.exact, series), pct(r.shifted.near, series), pct(r.shifted.any, series), pct(r.best.exact, series), pct(r.best.near, series)])
  ], { rightFrom: 1 });
  return { rows, noiseRows, text: `${table.join('\n')}\n\n${noiseTable.join('\n')}` };
}

// ---------------------------------------------------------------- (b) the store at scale


// Wall time of one CLI command, and its CPU time when GNU time is there: on a shared machine the
// wall time also counts the other tenants.
const GNU_TIME = '/usr/bin/time';
async function timed(args) {
  const started = process.hrtime.bigint();
  const withTime = fs.existsSync(GNU_TIME);
  const run = withTime ? await execa(GNU_TIME, ['-f', 'cpu %U %S', process.execPath, cli, ...args], { reject: false, stdin: 'ignore' })
    : await execa(process.execPath, [cli, ...args], { reject: false, stdin: 'ignore' });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  if (run.exitCode !== 0) throw new Error(`nodebench ${args.join(' ')} exited ${run.exitCode}: ${run.stderr}`);
  const cpu = withTime ? /cpu ([\d.]+) ([\d.]+)\s*$/.exec(run.stderr) : null;
  return { wall, cpu: cpu ? Number(cpu[1]) + Number(cpu[2]) : null };
}

function sizeOf(dir) {
  let bytes = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    bytes += entry.isDirectory() ? sizeOf(file) : fs.statSync(file).size;
  }
  return bytes;
}

async function scale({ files, template, keep }) {
  const dir = keep || fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-history-bench-'));
  fs.mkdirSync(dir, { recursive: true });
  let templateFile = template;
  if (!templateFile) {
    templateFile = path.join(dir, 'template.json');
    log('measuring the template: nodebench matrix --runtimes 16,lts --flags baseline --suites promises (about a minute)');
    await execa(process.execPath, [cli, 'matrix', '--runtimes', '16,lts', '--flags', 'baseline', '--suites', 'promises', '--out', templateFile, '--force'], { stdout: 'ignore', stderr: 'inherit' });
  }
  const source = JSON.parse(fs.readFileSync(templateFile, 'utf8'));
  const store = path.join(dir, 'store');
  fs.rmSync(store, { recursive: true, force: true });
  const random = prng(2026);
  const addSeconds = [];
  const addCpu = [];
  let fileBytes = 0;
  for (let i = 0; i < files; i++) {
    const file = path.join(dir, `run-${String(i).padStart(3, '0')}.json`);
    const text = `${JSON.stringify(synthesize(source, i, random), null, 1)}\n`;
    fileBytes += text.length;
    fs.writeFileSync(file, text);
    const added = await timed(['history', 'add', file, '--store', store, '--label', `run-${i}`]);
    addSeconds.push(added.wall);
    if (added.cpu !== null) addCpu.push(added.cpu);
    fs.rmSync(file);
    if ((i + 1) % 20 === 0) log(`  added ${i + 1} of ${files}: median ${median(addSeconds).toFixed(2)} s, last ${addSeconds.at(-1).toFixed(2)} s`);
  }
  const html = path.join(dir, 'trend.html');
  const showHtml = await timed(['history', 'show', '--store', store, '--format', 'html', '--out', html]);
  const showHtmlByDate = await timed(['history', 'show', '--store', store, '--by', 'date', '--format', 'html', '--out', path.join(dir, 'trend-by-date.html')]);
  const showText = await timed(['history', 'show', '--store', store, '--by', 'date', '--out', path.join(dir, 'trend.txt')]);
  const figures = {
    files,
    cells: 150,
    meanFileMB: fileBytes / files / 1e6,
    add: { median: median(addSeconds), p95: quantile(addSeconds, 0.95), max: Math.max(...addSeconds), first: addSeconds[0], last: addSeconds.at(-1), cpuMedian: addCpu.length ? median(addCpu) : null, cpuP95: addCpu.length ? quantile(addCpu, 0.95) : null },
    showHtml,
    showHtmlByDate,
    showText,
    htmlMB: fs.statSync(html).size / 1e6,
    storeMB: sizeOf(store) / 1e6,
    resultsMB: sizeOf(path.join(store, 'results')) / 1e6,
    indexMB: sizeOf(path.join(store, 'index')) / 1e6,
    dir
  };
  if (!keep) fs.rmSync(dir, { recursive: true, force: true });
  return figures;
}

const seconds = (t) => `${t.wall.toFixed(2)} s${t.cpu === null ? '' : `, ${t.cpu.toFixed(2)} s`}`;

function scaleText(f) {
  return textTable([
    ['the store at scale', 'figure', 'target'],
    [`history add, each of ${f.files} files of ${f.cells} cells (${f.meanFileMB.toFixed(2)} MB each), wall time of the CLI`, `median ${f.add.median.toFixed(2)} s, p95 ${f.add.p95.toFixed(2)} s, max ${f.add.max.toFixed(2)} s (first ${f.add.first.toFixed(2)}, last ${f.add.last.toFixed(2)})`, '< 1 s'],
    ['  its CPU time (user + system)', f.add.cpuMedian === null ? 'n/a' : `median ${f.add.cpuMedian.toFixed(2)} s, p95 ${f.add.cpuP95.toFixed(2)} s`, ''],
    ['history show --format html (by version): wall, CPU', `${seconds(f.showHtml)} (${f.htmlMB.toFixed(1)} MB page)`, '< 5 s'],
    ['history show --format html --by date: wall, CPU', seconds(f.showHtmlByDate), '< 5 s'],
    ['history show --by date (text): wall, CPU', seconds(f.showText), ''],
    ['store size', `${f.storeMB.toFixed(1)} MB (results ${f.resultsMB.toFixed(1)} MB, index ${f.indexMB.toFixed(1)} MB)`, '< 50 MB']
  ]).join('\n');
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const args = parseArgs(process.argv.slice(2));
  const out = runContext();
  if (args.detection) {
    log(`(a) change points on ${args.series} simulated series per method and scenario`);
    out.detection = detection(args);
  }
  if (args.scale) {
    log(`(b) ${args.files} result files of 150 cells through the CLI`);
    out.scale = await scale(args);
  }
  if (args.json) {
    process.stdout.write(`${JSON.stringify(out, null, 1)}\n`);
  } else {
    process.stdout.write(`${out.date}  ${out.command}\n\n`);
    if (out.detection) process.stdout.write(`${out.detection.text}\n\n`);
    if (out.scale) process.stdout.write(`${scaleText(out.scale)}\n`);
  }
}
