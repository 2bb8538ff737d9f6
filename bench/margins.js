#!/usr/bin/env node
// Precision of a real result file, suite by suite: the distribution of the cells' ±margins and of the
// printed ratios' ±margins, how many processes were set aside as disturbed, and where the wall time
// went, and where the width comes from (spread between processes, and how much of it the samples
// inside a process explain), and where each process's time goes, phase by phase.
//   node bench/margins.js results/X.json [--json]
// (bench/suites.js and bench/aa-matrix.js compute the same figures, bench/lib/margin-figures.js, on their own runs.)
import fs from 'node:fs';
import { marginFigures, widthSources, phaseFigures, renderMargins, renderWidthSources, renderPhases } from './lib/margin-figures.js';
import { answerHelp, runContext, contextLine } from './lib/preamble.js';

answerHelp(import.meta.url);
const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node bench/margins.js RESULT.json [--json]\n');
  process.exit(2);
}
const result = JSON.parse(fs.readFileSync(file, 'utf8'));
const figures = { context: runContext(), ...marginFigures(result), widthSources: widthSources(result), phases: phaseFigures(result) };
const phases = figures.phases.length ? `\n\nwhere a timing process's time goes (mean ms per phase):\n${renderPhases(figures.phases)}` : '';
process.stdout.write(process.argv.includes('--json') ? `${JSON.stringify(figures, null, 1)}\n`
  : `${contextLine(figures.context)}\n${renderMargins(figures)}\n\nwhere the width comes from (medians over each suite's cells):\n${renderWidthSources(figures.widthSources)}${phases}\n`);
