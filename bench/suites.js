#!/usr/bin/env node
// Precision on the shipped suites, the figures docs/precision.md leads with. It runs the real CLI
// (`nodebench matrix`) on a slice of the default matrix: every suite, two runtimes, two flag sets,
// at the shipped matrix.yaml's run options, and prints
//   - the distribution of ±margins per suite, and of the printed ratios' ±margins (bench/margins.js);
//   - A/A: a second invocation of the same slice, compared cell by cell as `nodebench diff` does
//     (same test, same 1% drift allowance): how many cells it calls changed;
//   - sensitivity: a third invocation of the promises suite with chain-* made 5% slower on purpose
//     (params.steps +5%): whether diff flags those cells;
//   - with --noise: bursts of busy processes at random intervals during another invocation (of the
//     promises and gc suites): how far its estimates land from the quiet run's, and whether the
//     processes that ran in a burst were named disturbed.
//
//   node bench/suites.js [--noise] [--runtimes 16,lts] [--keep DIR] [--json]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import YAML from 'yaml';
import { marginFigures, renderMargins } from './margins.js';
import { compareCells, INVOCATION_DRIFT } from '../cli/stats/compare.js';
import { median, quantile } from '../cli/stats/basic.js';
import { prng } from '../cli/stats/random.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'cli', 'nodebench.js');
const log = (m) => process.stderr.write(`${m}\n`);

function parseArgs(argv) {
  const value = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
  return { noise: argv.includes('--noise'), json: argv.includes('--json'), runtimes: value('--runtimes', '16,lts').split(','), keep: value('--keep', null) };
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

async function runMatrix(dir, name, matrix, seed) {
  const file = path.join(dir, `${name}.yaml`);
  fs.writeFileSync(file, YAML.stringify(matrix));
  const out = path.join(dir, `${name}.json`);
  const started = Date.now();
  log(`[${new Date().toISOString().slice(11, 19)}] ${name}: nodebench matrix --matrix ${file} --seed ${seed}`);
  await execa(process.execPath, [cli, 'matrix', '--matrix', file, '--out', out, '--seed', String(seed), '--json'], { stdout: 'ignore', stderr: 'inherit', reject: false });
  log(`  ${name} took ${((Date.now() - started) / 60000).toFixed(1)} min`);
  return JSON.parse(fs.readFileSync(out, 'utf8'));
}

const cellKey = (c) => `${c.suite}/${c.benchmark} ${c.runtimeLabel}/${c.flagSet}`;

// As `nodebench diff A B` compares two separate runs.
function compareRuns(a, b, { only = () => true } = {}) {
  const bByKey = new Map(b.cells.map((c) => [cellKey(c), c]));
  return a.cells.filter((c) => c.status === 'ok' && only(c) && bByKey.get(cellKey(c))?.status === 'ok')
    .map((c) => ({ key: cellKey(c), ...compareCells(c, bByKey.get(cellKey(c)), { driftCv: INVOCATION_DRIFT }) }));
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

function noiseFigures(quiet, noisy, bursts) {
  const quietByKey = new Map(quiet.cells.map((c) => [cellKey(c), c]));
  const deviations = noisy.cells.filter((c) => c.status === 'ok' && quietByKey.get(cellKey(c))?.status === 'ok')
    .map((c) => Math.abs(c.summary.estimate / quietByKey.get(cellKey(c)).summary.estimate - 1) * 100);
  const inBurst = [];
  for (const cell of noisy.cells) {
    for (const p of cell.processes) {
      if (!p.startedAt || !p.disturbance) continue;
      const start = Date.parse(p.startedAt);
      const end = start + p.wallMs;
      const overlap = bursts.reduce((s, [b0, b1]) => s + Math.max(0, Math.min(end, b1) - Math.max(start, b0)), 0);
      if (overlap >= 0.5 * p.wallMs) inBurst.push(p);
    }
  }
  const named = inBurst.filter((p) => p.setAside || p.keptSamples);
  return {
    bursts: bursts.length,
    cells: deviations.length,
    deviationMedianPct: median(deviations),
    deviationP90Pct: quantile(deviations, 0.9),
    within3Pct: deviations.filter((d) => d <= 3).length,
    processesInBurst: inBurst.length,
    processesInBurstNamed: named.length,
    setAsideNoisy: noisy.cells.flatMap((c) => c.processes).filter((p) => p.setAside).length,
    setAsideQuiet: quiet.cells.flatMap((c) => c.processes).filter((p) => p.setAside).length
  };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const dir = args.keep || fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-suites-'));
  fs.mkdirSync(dir, { recursive: true });
  const started = Date.now();
  const slice = sliceMatrix(args.runtimes, ['all']);
  const a = await runMatrix(dir, 'slice-a', slice, 1);
  const a2 = await runMatrix(dir, 'slice-a2', slice, 2);
  const slowed = sliceMatrix(args.runtimes, [{ name: 'promises', params: { steps: 2100 } }]);
  const b = await runMatrix(dir, 'promises-chain-5pct-slower', slowed, 3);
  let noise = null;
  if (args.noise) {
    // The suites with the most allocation and GC, where noise hurt most; compared cell by cell with
    // the same cells of the quiet first invocation.
    const stop = startNoise(4);
    const noisy = await runMatrix(dir, 'slice-noisy', sliceMatrix(args.runtimes, ['promises', 'gc']), 4);
    noise = noiseFigures(a, noisy, stop());
  }
  const aa = compareRuns(a, a2);
  const chain = compareRuns(a, b, { only: (c) => c.suite === 'promises' && c.benchmark.startsWith('chain-') });
  const others = compareRuns(a, b, { only: (c) => c.suite === 'promises' && !c.benchmark.startsWith('chain-') });
  const figures = {
    date: new Date().toISOString(),
    host: { cpu: os.cpus()[0]?.model, cores: os.cpus().length },
    slice: { runtimes: args.runtimes, flagSets: Object.keys(slice.flagSets), run: slice.run },
    margins: marginFigures(a),
    marginsRerun: marginFigures(a2),
    aa: { cells: aa.length, flagged: aa.filter((c) => c.significant).length, flaggedCells: aa.filter((c) => c.significant).map((c) => `${c.key} ${((c.ratio - 1) * 100).toFixed(1)}%`) },
    sensitivity: { cells: chain.length, flaggedSlower: chain.filter((c) => c.verdict === 'slower').length, ratios: chain.map((c) => c.ratio), unchangedFlagged: others.filter((c) => c.significant).length, unchanged: others.length },
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
    `5% slowdown (promises chain-*, params.steps 2000 -> 2100): ${figures.sensitivity.flaggedSlower} of ${figures.sensitivity.cells} cells flagged slower (ratios ${figures.sensitivity.ratios.map((r) => r.toFixed(3)).join(', ')}); unchanged promises cells flagged: ${figures.sensitivity.unchangedFlagged} of ${figures.sensitivity.unchanged}`
  ];
  if (noise) {
    lines.push(`injected noise (${noise.bursts} bursts of 2 busy processes, 1-3 s every 2-6 s): estimates vs the quiet run: median ${noise.deviationMedianPct.toFixed(1)}%, p90 ${noise.deviationP90Pct.toFixed(1)}%, ${noise.within3Pct} of ${noise.cells} cells within 3%; processes that ran mostly inside a burst: ${noise.processesInBurst}, of which named disturbed (set aside, or samples set aside): ${noise.processesInBurstNamed}; processes set aside: ${noise.setAsideNoisy} (quiet run: ${noise.setAsideQuiet})`);
  }
  lines.push(`total ${figures.minutes.toFixed(1)} min; result files in ${dir}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err.stack}\n`);
  process.exit(70);
});
