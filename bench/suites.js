#!/usr/bin/env node
// Precision on the shipped suites, the figures docs/precision.md leads with. It runs the real CLI
// (`nodebench matrix`) on a slice of the default matrix: every suite, two runtimes, two flag sets,
// at the shipped matrix.yaml's run options, and prints
//   - the distribution of ±margins per suite, and of the printed ratios' ±margins (bench/lib/margin-figures.js);
//   - A/A: a second invocation of the same slice, compared cell by cell as `nodebench diff` does
//     (same test, same priors, same 1% drift allowance): how many cells it calls changed, and how
//     often a cell's rerun interval holds the other invocation's estimate;
//     and the same with `diff --drift auto` (the drift estimated per suite from the two files);
//   - sensitivity: a third invocation of the promises suite with chain-* made 5% slower on purpose
//     (params.steps +5%): whether diff flags those cells;
//   - with --noise: bursts of busy processes at random intervals during another invocation (of the
//     promises and gc suites): how far its estimates land from the quiet run's, and whether the
//     processes that ran in a burst were named disturbed.
//
//   node bench/suites.js [--noise] [--runtimes 16,lts] [--keep DIR] [--json]
//   node bench/suites.js --reread DIR [--json]   the figures again from the files a --keep DIR run left
//                                                (after a change to diff's statistics, say)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import YAML from 'yaml';
import { marginFigures, renderMargins } from './lib/margin-figures.js';
import { INVOCATION_DRIFT } from '../cli/stats/compare.js';
import { diffResults } from '../cli/diff/compare.js';
import { describeDrift } from '../cli/stats/drift-estimate.js';
import { median, quantile, bisect } from '../cli/stats/basic.js';
import { prng } from '../cli/stats/random.js';
import { answerHelp, log, runContext } from './lib/preamble.js';

answerHelp(import.meta.url);

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'cli', 'nodebench.js');

function parseArgs(argv) {
  const value = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
  return { noise: argv.includes('--noise'), json: argv.includes('--json'), runtimes: value('--runtimes', '16,lts').split(','), keep: value('--keep', null), reread: value('--reread', null) };
}

function sliceMatrix(runtimes, suites) {
  const shipped = YAML.parse(fs.readFileSync(path.join(root, 'matrix.yaml'), 'utf8'));
  return {
    runtimes,
    flagSets: { baseline: [], 'semi-space-64': shipped.flagSets['semi-space-64'] },
    suites,
    run: shipped.run
  };
}

async function runMatrix(dir, name, matrix, seed, { reread = false } = {}) {
  const out = path.join(dir, `${name}.json`);
  if (reread) return JSON.parse(fs.readFileSync(out, 'utf8'));
  const file = path.join(dir, `${name}.yaml`);
  fs.writeFileSync(file, YAML.stringify(matrix));
  const started = Date.now();
  log(`${name}: nodebench matrix --matrix ${file} --seed ${seed}`);
  await execa(process.execPath, [cli, 'matrix', '--matrix', file, '--out', out, '--seed', String(seed), '--json'], { stdout: 'ignore', stderr: 'inherit', reject: false });
  log(`  ${name} took ${((Date.now() - started) / 60000).toFixed(1)} min`);
  return JSON.parse(fs.readFileSync(out, 'utf8'));
}

const cellKey = (c) => `${c.suite}/${c.benchmark} ${c.runtimeLabel}/${c.flagSet}`;

// As `nodebench diff A B` compares two separate runs (the same pairing, priors and drift allowance).
function compareRuns(a, b, { only = () => true, driftCv = INVOCATION_DRIFT } = {}) {
  const bByKey = new Map(b.cells.map((c) => [cellKey(c), c]));
  const pairs = a.cells.filter((c) => c.status === 'ok' && only(c) && bByKey.get(cellKey(c))?.status === 'ok')
    .map((c) => ({ a: c, b: bByKey.get(cellKey(c)), key: cellKey(c) }));
  const rows = diffResults(pairs, { driftCv });
  const out = rows.map((row) => ({ key: row.key, ...row.comparison }));
  out.drift = rows.drift;
  return out;
}

// How far two invocations drift apart per side, beyond what their intervals allow: the tau for which
// the log ratios of the A/A cells, each over sqrt(se^2 + 2 tau^2), have a mean square of 1 (Paule-
// Mandel around no change). This is what diff's --drift should be on this machine.
function driftBetween(rows) {
  const pts = rows.filter((r) => Number.isFinite(r.se) && r.se > 0).map((r) => ({ d: Math.log(r.ratio), v: r.se ** 2 }));
  const excess = (tau) => pts.reduce((s, p) => s + (p.d ** 2) / (p.v + 2 * tau ** 2), 0) / pts.length - 1;
  if (!pts.length || excess(0) <= 0) return 0;
  return bisect((tau) => excess(tau) > 0, 0, 1).hi;
}

// Honest intervals on the real suites: how often a cell's rerun interval (summary.rerun) holds the
// estimate of the same cell in the other invocation, both ways.
function rerunCoverage(a, b) {
  const bByKey = new Map(b.cells.map((c) => [cellKey(c), c]));
  let held = 0;
  let total = 0;
  for (const c of a.cells) {
    const other = bByKey.get(cellKey(c));
    if (c.status !== 'ok' || other?.status !== 'ok') continue;
    for (const [x, y] of [[c, other], [other, c]]) {
      if (!x.summary.rerun) continue;
      total++;
      if (y.summary.estimate >= x.summary.rerun.low && y.summary.estimate <= x.summary.rerun.high) held++;
    }
  }
  return { held, total };
}

// |estimate of b / estimate of a - 1| in percent, per cell both have ok.
function deviations(a, b) {
  const aByKey = new Map(a.cells.map((c) => [cellKey(c), c]));
  return b.cells.filter((c) => c.status === 'ok' && aByKey.get(cellKey(c))?.status === 'ok')
    .map((c) => ({ key: cellKey(c), pct: Math.abs(c.summary.estimate / aByKey.get(cellKey(c)).summary.estimate - 1) * 100 }));
}

// Busy processes in bursts at random intervals; returns stop() -> the burst windows [start, end] ms.
function startNoise(seed) {
  const random = prng(seed);
  const bursts = [];
  let stopped = false;
  let timer;
  const busy = (ms) => execa(process.execPath, ['-e', `const end = Date.now() + ${ms}; let x = 0; while (Date.now() < end) x++;`], { reject: false });
  const next = () => {
    if (stopped) return;
    timer = setTimeout(async () => {
      const ms = Math.round(1000 + random() * 2000);
      const start = Date.now();
      // Two at once on a 2-core machine: one of them shares the worker's core.
      await Promise.all([busy(ms), busy(ms)]);
      bursts.push([start, Date.now()]);
      next();
    }, Math.round(2000 + random() * 4000));
  };
  next();
  return () => {
    stopped = true;
    clearTimeout(timer);
    return bursts;
  };
}

// quiet2: the quiet slice's second invocation, for the deviation two quiet invocations show anyway.
function noiseFigures(quiet, quiet2, noisy, bursts) {
  const noisyKeys = new Set(noisy.cells.map(cellKey));
  const deviationsNoisy = deviations(quiet, noisy).map((d) => d.pct);
  const deviationsQuiet = deviations(quiet, quiet2).filter((d) => noisyKeys.has(d.key)).map((d) => d.pct);
  // A process ran in a burst when the burst covered half of its timed samples (its sampling window,
  // on its own clock from its start; the launch time stands in for the process's start).
  const inBurst = [];
  for (const cell of noisy.cells) {
    for (const p of cell.processes) {
      if (!p.startedAt || !p.disturbance || !p.sampleWindowMs) continue;
      const start = Date.parse(p.startedAt) + p.sampleWindowMs[0];
      const end = Date.parse(p.startedAt) + p.sampleWindowMs[1];
      const overlap = bursts.reduce((s, [b0, b1]) => s + Math.max(0, Math.min(end, b1) - Math.max(start, b0)), 0);
      if (overlap >= 0.5 * (end - start)) inBurst.push(p);
    }
  }
  const named = inBurst.filter((p) => p.setAside || p.keptSamples);
  return {
    bursts: bursts.length,
    cells: deviationsNoisy.length,
    deviationMedianPct: median(deviationsNoisy),
    deviationP90Pct: quantile(deviationsNoisy, 0.9),
    within3Pct: deviationsNoisy.filter((d) => d <= 3).length,
    quietDeviationMedianPct: median(deviationsQuiet),
    quietDeviationP90Pct: quantile(deviationsQuiet, 0.9),
    processesInBurst: inBurst.length,
    processesInBurstNamed: named.length,
    setAsideNoisy: noisy.cells.flatMap((c) => c.processes).filter((p) => p.setAside).length,
    setAsideQuiet: quiet.cells.flatMap((c) => c.processes).filter((p) => p.setAside).length
  };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const reread = Boolean(args.reread);
  const dir = args.reread || args.keep || fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-suites-'));
  fs.mkdirSync(dir, { recursive: true });
  const started = Date.now();
  const slice = sliceMatrix(args.runtimes, ['all']);
  const a = await runMatrix(dir, 'slice-a', slice, 1, { reread });
  const a2 = await runMatrix(dir, 'slice-a2', slice, 2, { reread });
  const slowed = sliceMatrix(args.runtimes, [{ name: 'promises', params: { steps: 2100 } }]);
  const b = await runMatrix(dir, 'promises-chain-5pct-slower', slowed, 3, { reread });
  let noise = null;
  const burstsFile = path.join(dir, 'bursts.json');
  if (reread ? fs.existsSync(burstsFile) : args.noise) {
    // The suites with the most allocation and GC, where noise hurt most; compared cell by cell with
    // the same cells of the quiet first invocation.
    const stop = reread ? () => JSON.parse(fs.readFileSync(burstsFile, 'utf8')) : startNoise(4);
    const noisy = await runMatrix(dir, 'slice-noisy', sliceMatrix(args.runtimes, ['promises', 'gc']), 4, { reread });
    const bursts = stop();
    if (!reread) fs.writeFileSync(burstsFile, JSON.stringify(bursts));
    noise = noiseFigures(a, a2, noisy, bursts);
  }
  const aa = compareRuns(a, a2);
  const drift = driftBetween(compareRuns(a, a2, { driftCv: 0 }));
  const chain = compareRuns(a, b, { only: (c) => c.suite === 'promises' && c.benchmark.startsWith('chain-') });
  const others = compareRuns(a, b, { only: (c) => c.suite === 'promises' && !c.benchmark.startsWith('chain-') });
  const aaAuto = compareRuns(a, a2, { driftCv: 'auto' });
  // --drift auto estimates from every promises cell of the two files, as diff of those files would.
  const promisesAuto = compareRuns(a, b, { only: (c) => c.suite === 'promises', driftCv: 'auto' });
  const isChain = (row) => row.key.startsWith('promises/chain-');
  const flaggedOf = (rows) => rows.filter((c) => c.significant).map((c) => `${c.key} ${((c.ratio - 1) * 100).toFixed(1)}%`);
  const figures = {
    ...runContext(),
    slice: { runtimes: args.runtimes, flagSets: Object.keys(slice.flagSets), run: slice.run },
    margins: marginFigures(a),
    marginsRerun: marginFigures(a2),
    coverage: rerunCoverage(a, a2),
    driftPct: drift * 100,
    aa: { cells: aa.length, flagged: aa.filter((c) => c.significant).length, flaggedCells: flaggedOf(aa) },
    aaAuto: { cells: aaAuto.length, flagged: aaAuto.filter((c) => c.significant).length, flaggedCells: flaggedOf(aaAuto), drift: aaAuto.drift ? describeDrift(aaAuto.drift).join('; ') : null },
    sensitivity: { cells: chain.length, flaggedSlower: chain.filter((c) => c.verdict === 'slower').length, ratios: chain.map((c) => c.ratio), unchangedFlagged: others.filter((c) => c.significant).length, unchanged: others.length },
    sensitivityAuto: {
      flaggedSlower: promisesAuto.filter((c) => isChain(c) && c.verdict === 'slower').length,
      unchangedFlagged: promisesAuto.filter((c) => !isChain(c) && c.significant).length,
      drift: promisesAuto.drift ? describeDrift(promisesAuto.drift).join('; ') : null
    },
    noise,
    minutes: (Date.now() - started) / 60000,
    files: dir
  };
  if (args.json) {
    process.stdout.write(`${JSON.stringify(figures, null, 1)}\n`);
    return;
  }
  const lines = [
    `Precision on the shipped suites (${figures.date.slice(0, 16)}Z, ${figures.host.cores} cores ${figures.host.cpu}); slice: runtimes ${args.runtimes.join(', ')} x flag sets ${figures.slice.flagSets.join(', ')} x all suites, run options of matrix.yaml`,
    '',
    'first invocation:',
    renderMargins(figures.margins),
    '',
    'second invocation:',
    renderMargins(figures.marginsRerun),
    '',
    `A/A (two invocations, nodebench diff's test with ${INVOCATION_DRIFT * 100}% drift): ${figures.aa.flagged} of ${figures.aa.cells} cells flagged as changed (${((figures.aa.flagged / figures.aa.cells) * 100).toFixed(1)}%)${figures.aa.flagged ? `: ${figures.aa.flaggedCells.join('; ')}` : ''}`,
    `A/A with diff --drift auto: ${figures.aaAuto.flagged} of ${figures.aaAuto.cells} cells flagged (${((figures.aaAuto.flagged / figures.aaAuto.cells) * 100).toFixed(1)}%)${figures.aaAuto.flagged ? `: ${figures.aaAuto.flaggedCells.join('; ')}` : ''}; ${figures.aaAuto.drift}`,
    `drift between the two invocations, per side, beyond their intervals (what diff's --drift should be here): ${figures.driftPct.toFixed(1)}% (diff allows ${INVOCATION_DRIFT * 100}%)`,
    `honest intervals: the rerun interval of a cell held the other invocation's estimate in ${figures.coverage.held} of ${figures.coverage.total} cases (${((figures.coverage.held / figures.coverage.total) * 100).toFixed(1)}%; target >= 90%)`,
    `5% slowdown (promises chain-*, params.steps 2000 -> 2100): ${figures.sensitivity.flaggedSlower} of ${figures.sensitivity.cells} cells flagged slower (ratios ${figures.sensitivity.ratios.map((r) => r.toFixed(3)).join(', ')}); unchanged promises cells flagged: ${figures.sensitivity.unchangedFlagged} of ${figures.sensitivity.unchanged}`,
    `5% slowdown with diff --drift auto: ${figures.sensitivityAuto.flaggedSlower} of ${figures.sensitivity.cells} flagged slower, unchanged promises cells flagged: ${figures.sensitivityAuto.unchangedFlagged} of ${figures.sensitivity.unchanged}; ${figures.sensitivityAuto.drift}`
  ];
  if (noise) {
    lines.push(`injected noise (${noise.bursts} bursts of 2 busy processes, 1-3 s every 2-6 s): estimates vs the quiet run: median ${noise.deviationMedianPct.toFixed(1)}%, p90 ${noise.deviationP90Pct.toFixed(1)}%, ${noise.within3Pct} of ${noise.cells} cells within 3% (the two quiet invocations differ by a median ${noise.quietDeviationMedianPct.toFixed(1)}%, p90 ${noise.quietDeviationP90Pct.toFixed(1)}% on the same cells); processes whose timed samples ran mostly inside a burst: ${noise.processesInBurst}, of which named disturbed (set aside, or samples set aside): ${noise.processesInBurstNamed}; processes set aside: ${noise.setAsideNoisy} (quiet run: ${noise.setAsideQuiet})`);
  }
  lines.push(reread ? `figures re-read from the result files in ${dir}` : `total ${figures.minutes.toFixed(1)} min; result files in ${dir}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err.stack}\n`);
  process.exit(70);
});
