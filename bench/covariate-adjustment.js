#!/usr/bin/env node
// Issue 31's hypothesis 4, tried on real result files: can a measure of the host's speed taken in
// each process beside its samples take the host's slow and fast moments out of the process's value
// (regression adjustment, as A/B tests do with CUPED)? Every process already records two such
// measures per sample (worker/disturbance.js): the time of a fixed reference loop of clock reads
// (`referenceNs`) and the time the process waited for a CPU (`runQueueWaitNs`). For each covariate:
//
//   y = log(process value), x = log(covariate's median over the process's kept samples);
//   slope b per suite, pooled over the cells of file A (deviations from each cell's mean), so the
//   adjustment is fitted on one file and judged on the others (no overfitting the judged data);
//   adjusted y' = y - b (x - mean x over both files' processes of the cell).
//
// Printed per suite and over all: the median within-cell spread of processes (SD of y, i.e. the
// interval width) before and after, and, for each A/B pair of files, the median |log ratio| of
// cell means between the two files before and after (the drift the covariate should remove).
// A covariate is worth keeping only if both shrink clearly, on pairs it was not fitted on.
//
//   node bench/covariate-adjustment.js A.json B.json [C.json ...]
import fs from 'node:fs';
import { keptProcesses, cellKey, perProcessOf } from '../cli/cell-identity.js';
import { processValue } from '../cli/stats/summary.js';
import { median, mean, sd } from '../cli/stats/basic.js';
import { textTable } from '../cli/text/text-table.js';
import { answerHelp, log, contextLine } from './lib/preamble.js';

answerHelp(import.meta.url);

const files = process.argv.slice(2);
if (files.length < 2) throw new Error('usage: node bench/covariate-adjustment.js A.json B.json [C.json ...]');
const results = files.map((f) => JSON.parse(fs.readFileSync(f, 'utf8')));

const COVARIATES = {
  reference: (p) => p.disturbance?.referenceNs,
  'run-queue wait': (p) => p.disturbance?.runQueueWaitNs
};

// The covariate's value for a process: the median over the samples the process kept.
function covariateOf(process, pick) {
  const all = pick(process);
  if (!Array.isArray(all) || !all.length) return null;
  const kept = Array.isArray(process.keptSamples) && process.keptSamples.length ? process.keptSamples.map((i) => all[i]) : all;
  const m = median(kept.filter((v) => Number.isFinite(v)));
  return m > 0 ? Math.log(m) : null;
}

// key -> { suite, files: [[{ x, y }] per file] } for ok cells with 3+ kept processes in every file.
function cellsFor(pick) {
  const cells = new Map();
  results.forEach((result, f) => {
    for (const cell of result.cells) {
      if (cell.status !== 'ok') continue;
      const points = keptProcesses(cell).map((p) => ({ x: covariateOf(p, pick), y: Math.log(processValue(p, perProcessOf(cell))) }))
        .filter((pt) => pt.x !== null && Number.isFinite(pt.y));
      if (points.length < 3) continue;
      const key = cellKey(cell);
      if (!cells.has(key)) cells.set(key, { suite: cell.suite, files: results.map(() => null) });
      cells.get(key).files[f] = points;
    }
  });
  return [...cells.values()].filter((c) => c.files.every(Boolean));
}

function slope(cells) {
  let sxy = 0;
  let sxx = 0;
  for (const cell of cells) {
    const points = cell.files[0];
    const mx = mean(points.map((p) => p.x));
    const my = mean(points.map((p) => p.y));
    for (const p of points) {
      sxy += (p.x - mx) * (p.y - my);
      sxx += (p.x - mx) ** 2;
    }
  }
  return sxx > 0 ? sxy / sxx : 0;
}

const pct = (x) => `${(x * 100).toFixed(2)}%`;

// The cells with y' = y - b (x - the cell's mean x over all files).
function adjust(cells, b) {
  return cells.map((cell) => {
    const centre = mean(cell.files.flat().map((p) => p.x));
    return { ...cell, files: cell.files.map((points) => points.map((p) => ({ x: p.x, y: p.y - b * (p.x - centre) }))) };
  });
}

// Median process SD within a cell (files 1.., not the one slopes are fitted on), and median
// |difference of cell means| over every pair of files.
function measure(cells) {
  const spread = median(cells.flatMap((cell) => cell.files.slice(1).map((points) => sd(points.map((p) => p.y)))));
  const diffs = [];
  for (let i = 0; i < files.length; i++) {
    for (let j = i + 1; j < files.length; j++) {
      for (const cell of cells) diffs.push(Math.abs(mean(cell.files[j].map((p) => p.y)) - mean(cell.files[i].map((p) => p.y))));
    }
  }
  return { spread, drift: median(diffs) };
}

log(`files: ${files.join(', ')}`);
console.log(contextLine());
for (const [name, pick] of Object.entries(COVARIATES)) {
  const cells = cellsFor(pick);
  const rows = [['suite', 'cells', 'slope b', 'process SD raw', 'adjusted', 'A/B drift raw', 'adjusted']];
  const suites = [...new Set(cells.map((c) => c.suite))];
  const before = [];
  const after = [];
  for (const suite of suites) {
    const own = cells.filter((c) => c.suite === suite);
    const b = slope(own);
    const adjusted = adjust(own, b);
    before.push(...own);
    after.push(...adjusted);
    const [raw, fitted] = [measure(own), measure(adjusted)];
    rows.push([suite, String(own.length), b.toFixed(3), pct(raw.spread), pct(fitted.spread), pct(raw.drift), pct(fitted.drift)]);
  }
  const [raw, fitted] = [measure(before), measure(after)];
  rows.push(['all', String(before.length), '-', pct(raw.spread), pct(fitted.spread), pct(raw.drift), pct(fitted.drift)]);
  console.log(`\ncovariate: ${name} (slope fitted on ${files[0]}; SD judged on the other files; drift over every pair)`);
  console.log(textTable(rows).join('\n'));
}
