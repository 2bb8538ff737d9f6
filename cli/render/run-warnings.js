// The warnings a run kept about the machine it ran on (the load average at its start and end, the
// CPU frequency governor): said on stderr as the run ends, and again by every report and diff of its
// file, since they qualify every figure in it and a reader of the file never saw that stderr.
// Warnings are { code, message }: a schema-1 file's sentences are migrated on read (results/migrate.js).
// With them, what qualifies every figure of a result and that every format says from here (issue 39,
// item 2: the terminal said "16 cells had processes disagreeing by more than 5%" and the smallest
// change the run detects, the Markdown for a PR and the HTML report only the load average): the
// cells' warnings counted, the smallest detectable change, how the host ran.
import { OPTIMIZED_AWAY, FOLDED_PHRASE } from './marks.js';
import { describeDetectable } from '../stats/detectable.js';
import { describeHostOfRun, hostFingerprint } from '../stats/host-speed.js';

// One line per warning, plain text (each format escapes it): "warning: ..." for a report of one
// file; for a diff, whose run said it ("warning (A, a.json): ..."), once when both sides are one file.
export function runWarningLines(result, { who } = {}) {
  return (result.warnings || []).map((w) => `warning${who ? ` (${who})` : ''}: ${w.message}`);
}

export function diffRunWarningLines({ resultA, resultB, fileA, fileB }) {
  if (resultA === resultB) return runWarningLines(resultA);
  return [...runWarningLines(resultA, { who: `A, ${fileA}` }), ...runWarningLines(resultB, { who: `B, ${fileB}` })];
}

// A cell's warnings by code (results/cell.js, stats/summary.js): what "N cells ..." says of each.
export const WARNING_LABELS = {
  [OPTIMIZED_AWAY]: `${FOLDED_PHRASE} (optimized away, marked !)`,
  outliers: 'had far-outlier samples (other programs competing for the CPU)',
  'warmup-unstable': 'never settled during warm-up (raise run.warmupMaxMs)',
  'count-unsettled': 'reached the counted warm-up\'s instruction cap with the count still moving (counted as compiled by then; details: nodebench report FILE --warnings)',
  'processes-disagree': 'had processes disagreeing by more than 5% (noisy machine: use more processes)',
  'count-varies': 'counted different instructions in different processes (work that depends on I/O, randomness or threads: not exact; details: nodebench report FILE --warnings)',
  'schedule-differs': 'had a counted process that took other decisions than the others and counted apart (set aside; details: nodebench report FILE --warnings)',
  'batches-vary': 'had batches that counted far more instructions than the others (a GC or a compilation fell in them; the process totals count)',
  interrupted: 'were interrupted before all their processes ran',
  'target-missed': 'stayed above the targetRme margin after maxProcesses processes',
  disturbed: 'had processes set aside because the machine was disturbed while they ran (replaced)',
  survivors: 'started processes that outlived their worker (killed by nodebench; details: nodebench report FILE --warnings)'
};

// Files of schema version 1 kept plain strings, which count under their own text.
export const asWarning = (w) => (typeof w === 'string' ? { code: w, message: w } : w);

// A code nodebench does not know (a file may carry any string): counted under one label, its words
// left to --warnings, so that no text of the file decides how many lines a view has.
export const OTHER_WARNINGS = 'had other warnings (nodebench report <file> --warnings lists them)';

// [[label, cells]] in WARNING_LABELS' order (so that the sides of a diff list alike), then
// OTHER_WARNINGS: each cell counted once per kind of warning.
export function cellWarningCounts(cells) {
  const counts = new Map();
  for (const cell of cells) {
    const labels = new Set((cell?.warnings || []).map((w) => WARNING_LABELS[asWarning(w).code] || OTHER_WARNINGS));
    for (const label of labels) counts.set(label, (counts.get(label) || 0) + 1);
  }
  const order = Object.values(WARNING_LABELS);
  const rank = (label) => (order.includes(label) ? order.indexOf(label) : order.length);
  return [...counts].sort((x, y) => rank(x[0]) - rank(y[0]));
}

// "warning: 16 cells had processes disagreeing by more than 5% (noisy machine: use more processes);
// 20 cells stayed above …": one line, the kinds joined (as the terminal's line under each suite), so
// that how many lines a view has never depends on the file's words; `who` names the side of a diff.
export function cellWarningLines(cells, { who } = {}) {
  const counts = cellWarningCounts(cells);
  return counts.length ? [`warning${who ? ` (${who})` : ''}: ${counts.map(([label, n]) => `${n} cell${n === 1 ? '' : 's'} ${label}`).join('; ')}`] : [];
}

// A diff's compared cells counted per side ("warning (A): ...", "warning (B): ..."): rows are
// diff/compare.js's, each with its cells a and b.
export function sideCellWarningLines(rows) {
  const side = (id) => [...new Set(rows.map((r) => r[id]).filter(Boolean))];
  return [...cellWarningLines(side('a'), { who: 'A' }), ...cellWarningLines(side('b'), { who: 'B' })];
}

// How far the run could see and how its host ran: the smallest change it detects, the host's slow mode.
export function precisionLines(result) {
  return [describeDetectable(result.schedule?.detectableChange), describeHostOfRun(result.hostSpeed ?? hostFingerprint(result.cells))].filter(Boolean);
}

// Every line that qualifies a report's figures, for the formats that say them in one place
// (Markdown, HTML): the cells' warnings, the precision, the run's own warnings.
export function reportWarningLines(result) {
  return [...cellWarningLines(result.cells), ...precisionLines(result), ...runWarningLines(result)];
}
