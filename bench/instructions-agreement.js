// Does an instruction count tell the same story as time? (issue 37, item 4.) Takes a default
// matrix measured in time and one measured in instructions and prints, per suite, each column's
// ratio in both measures against the same column (a runtime's baseline against the first runtime's
// baseline; a flag set against its own runtime's baseline), the same way `nodebench diff` reads
// them (above 1: faster, or fewer instructions); then the correlation of their logs, and every
// cell where they disagree in direction or by more than --band (20%), with what the time run's
// metrics process says about why where it can:
//   waiting      CPU time well below wall time in the time run (I/O, timers, polling): a count
//                leaves waiting out;
//   threads      CPU time above wall time (GC or compiler helper threads): valgrind runs them one
//                at a time and --predictable keeps V8's GC on the main thread;
//   GC share     the share of time in GC pauses differs between the two columns by more than 10
//                points: GC's cost is memory traffic more than instructions;
//   per ns       instructions per ns differ between the two columns (the instructions are not what
//                costs: cache misses, memory-bound work, or a different instruction mix).
// A direction is only called opposite when both ratios are at least 2% from 1.
// Usage: node bench/instructions-agreement.js TIME.json INSTRUCTIONS.json [--band 20]
import fs from 'node:fs';
import zlib from 'node:zlib';
import { parseArgs } from 'node:util';
import { textTable } from '../cli/text/text-table.js';
import { answerHelp, contextLine } from './lib/preamble.js';

answerHelp(import.meta.url);

const { values, positionals } = parseArgs({ allowPositionals: true, options: { band: { type: 'string', default: '20' } } });
if (positionals.length !== 2) {
  process.stderr.write('give a time-mode result file and an instruction-mode one: node bench/instructions-agreement.js TIME.json INSTRUCTIONS.json\n');
  process.exit(2);
}
const band = Number(values.band) / 100;

function readResult(file) {
  const bytes = fs.readFileSync(file);
  return JSON.parse((file.endsWith('.gz') ? zlib.gunzipSync(bytes) : bytes).toString('utf8'));
}

// A run that was interrupted (or is still running: its file is written as it goes) has cells with
// processes but no summary yet; for instructions one process is as good as its cell (processes
// agree to parts per million), so such a cell's value is its processes' mean, and said.
function completed(result) {
  let partial = 0;
  for (const cell of result.cells) {
    const counted = (cell.processes || []).filter((p) => p.instructionsPerOp?.length);
    if (!(cell.summary?.estimate > 0) && counted.length) {
      const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
      cell.summary = { estimate: mean(counted.map((p) => mean(p.instructionsPerOp))), fromProcesses: counted.length };
      cell.status = 'ok';
      partial++;
    }
  }
  return partial;
}

const [timeRun, countRun] = positionals.map(readResult);
const partialCells = completed(countRun);
if ((timeRun.run?.measure ?? 'time') !== 'time' || countRun.run?.measure !== 'instructions') {
  process.stderr.write('the first file must be measured in time and the second in instructions (run.measure)\n');
  process.exit(2);
}

const key = (c) => `${c.suite}/${c.benchmark}@${c.runtimeLabel}/${c.flagSet}`;
const index = (result) => new Map(result.cells.map((c) => [key(c), c]));
const timeCells = index(timeRun);
const countCells = index(countRun);
const runtimeOrder = timeRun.runtimes.map((r) => r.version);
const firstRuntime = timeRun.cells.find((c) => c.runtime === runtimeOrder[0])?.runtimeLabel;

// The column a cell's ratio is taken against.
function baselineOf(cell) {
  if (cell.flagSet !== 'baseline') return { ...cell, flagSet: 'baseline' };
  if (cell.runtimeLabel === firstRuntime) return null;
  return { ...cell, runtimeLabel: firstRuntime };
}

const ok = (c) => c?.status === 'ok' && c.summary?.estimate > 0;
const interval = (m, name) => m?.intervals?.[name]?.estimate;

function reasons(timeCell, timeBase, countCell, countBase) {
  const said = [];
  for (const c of [timeCell, timeBase]) {
    const cpuWall = interval(c.metrics, 'cpu-wall');
    if (cpuWall !== undefined && cpuWall < 0.8) said.push(`waiting: CPU ${(cpuWall * 100).toFixed(0)}% of wall on ${c.runtimeLabel}/${c.flagSet}`);
    if (cpuWall !== undefined && cpuWall > 1.15) said.push(`threads: CPU ${cpuWall.toFixed(2)}x wall on ${c.runtimeLabel}/${c.flagSet}`);
  }
  const shares = [timeCell, timeBase].map((c) => interval(c.metrics, 'gc-share'));
  if (shares.every((s) => s !== undefined) && Math.abs(shares[0] - shares[1]) > 0.1) {
    said.push(`GC share ${(shares[1] * 100).toFixed(0)}% -> ${(shares[0] * 100).toFixed(0)}%`);
  }
  const perNs = (t, c) => c.summary.estimate / t.summary.estimate;
  const [a, b] = [perNs(timeBase, countBase), perNs(timeCell, countCell)];
  if (Math.abs(Math.log(b / a)) > Math.log(1 + band / 2)) said.push(`per ns ${a.toFixed(2)} -> ${b.toFixed(2)}`);
  for (const c of [countCell, countBase]) {
    for (const w of c.warnings || []) if (w.code === 'count-varies') said.push(`count varies on ${c.runtimeLabel}/${c.flagSet}`);
  }
  return [...new Set(said)].join('; ');
}

const rows = [];
const notCounted = [];
for (const timeCell of timeRun.cells) {
  const base = baselineOf(timeCell);
  if (!base) continue;
  const countCell = countCells.get(key(timeCell));
  if (!ok(timeCell)) continue;
  if (!ok(countCell)) {
    notCounted.push([`${timeCell.suite}/${timeCell.benchmark}`, `${timeCell.runtimeLabel}/${timeCell.flagSet}`, countCell ? `${countCell.status}: ${countCell.error || ''}` : 'not in the instruction run']);
    continue;
  }
  const timeBase = timeCells.get(key(base));
  const countBase = countCells.get(key(base));
  if (!ok(timeBase) || !ok(countBase)) continue;
  const timeRatio = timeBase.summary.estimate / timeCell.summary.estimate;
  const countRatio = countBase.summary.estimate / countCell.summary.estimate;
  const opposite = Math.abs(Math.log(timeRatio)) > Math.log(1.02) && Math.abs(Math.log(countRatio)) > Math.log(1.02) && (timeRatio > 1) !== (countRatio > 1);
  const apart = Math.abs(Math.log(countRatio / timeRatio)) > Math.log(1 + band);
  rows.push({
    suite: timeCell.suite, benchmark: timeCell.benchmark, column: `${timeCell.runtimeLabel}/${timeCell.flagSet}`, against: `${base.runtimeLabel}/${base.flagSet}`,
    timeRatio, timeMargin: timeCell.summary.rme, countRatio, opposite, apart,
    reason: opposite || apart ? reasons(timeCell, timeBase, countCell, countBase) : ''
  });
}

function pearson(xs, ys) {
  const mean = (v) => v.reduce((a, b) => a + b, 0) / v.length;
  const [mx, my] = [mean(xs), mean(ys)];
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}
const correlation = (list) => (list.length > 2 ? pearson(list.map((r) => Math.log(r.timeRatio)), list.map((r) => Math.log(r.countRatio))).toFixed(2) : 'n/a');

const x = (n) => `${n.toFixed(2)}x`;
console.log(contextLine());
console.log(`time: ${positionals[0]} (${timeRun.createdAt}); instructions: ${positionals[1]} (${countRun.createdAt})`);
if (partialCells) console.log(`${partialCells} cells of the instruction run had no summary yet (an unfinished run): their value is their processes' mean`);
console.log('ratio: the column against the first runtime\'s baseline, or a flag set against its runtime\'s baseline; above 1 is faster or fewer instructions\n');
for (const suite of [...new Set(rows.map((r) => r.suite))]) {
  const list = rows.filter((r) => r.suite === suite);
  console.log(`${suite}: correlation of log ratios ${correlation(list)} over ${list.length} ratios`);
  console.log(textTable([
    ['benchmark', 'column', 'against', 'time', '±%', 'instructions', 'instr/time', ''],
    ...list.map((r) => [r.benchmark, r.column, r.against, x(r.timeRatio), r.timeMargin?.toFixed(0) ?? '', x(r.countRatio), (r.countRatio / r.timeRatio).toFixed(2), r.opposite ? 'opposite' : r.apart ? `>${values.band}%` : ''])
  ], { rightFrom: 3 }).join('\n'));
  console.log('');
}
const runtimeRows = rows.filter((r) => r.column.endsWith('/baseline'));
console.log(`all: correlation of log ratios ${correlation(rows)} over ${rows.length} ratios (runtimes only: ${correlation(runtimeRows)} over ${runtimeRows.length}); ` +
  `${rows.filter((r) => r.opposite).length} in opposite directions, ${rows.filter((r) => r.apart && !r.opposite).length} more apart by more than ${values.band}%\n`);
const disagreeing = rows.filter((r) => r.opposite || r.apart);
console.log(`Where they disagree (${disagreeing.length}):`);
// The reason, free text, is left-aligned after the aligned figures.
const disagreeLines = textTable([
  ['benchmark', 'column', 'time', 'instructions', 'how'],
  ...disagreeing.map((r) => [`${r.suite}/${r.benchmark}`, r.column, x(r.timeRatio), x(r.countRatio), r.opposite ? 'opposite' : `>${values.band}%`])
], { rightFrom: 2 });
const reasonsShown = ['what the time run says', '', ...disagreeing.map((r) => r.reason || '-')];
console.log(disagreeLines.map((line, i) => `${line}  ${reasonsShown[i]}`.trimEnd()).join('\n'));

// The seed findings: two benchmarks of one suite in the same column (the first one's cost over the
// second's: how many times more the first takes), and the GC flag sets against their baseline.
const PAIRS = [
  ['promises', 'pipeline-concurrent-native', 'pipeline-concurrent-bluebird'],
  ['promises', 'pipeline-native', 'pipeline-bluebird'],
  ['autoload', 'psr4-search', 'classmap'],
  ['json', 'bfj', 'JSONStream']
];
const seed = [];
for (const [suite, first, second] of PAIRS) {
  for (const label of [...new Set(timeRun.cells.map((c) => c.runtimeLabel))]) {
    const at = (cells, benchmark) => cells.get(`${suite}/${benchmark}@${label}/baseline`);
    const [t1, t2, c1, c2] = [at(timeCells, first), at(timeCells, second), at(countCells, first), at(countCells, second)];
    const ratio = (a, b) => (ok(a) && ok(b) ? x(a.summary.estimate / b.summary.estimate) : (a && a.status !== 'ok' ? a.status : b?.status ?? 'missing'));
    seed.push([`${suite}: ${first} / ${second}`, label, ratio(t1, t2), ratio(c1, c2)]);
  }
}
for (const flagSet of ['semi-space-64', 'no-concurrent-marking']) {
  for (const r of rows.filter((row) => row.column.endsWith(`/${flagSet}`) && row.suite === 'gc')) seed.push([`gc/${r.benchmark}: baseline / ${flagSet}`, r.column.split('/')[0], x(r.timeRatio), x(r.countRatio)]);
  for (const r of notCounted.filter((row) => row[1].endsWith(`/${flagSet}`) && row[0].startsWith('gc/'))) seed.push([`${r[0]}: baseline / ${flagSet}`, r[1].split('/')[0], '', r[2].split(':')[0]]);
}
console.log('\nSeed findings: how many times the cost of the first (time, instructions)');
console.log(textTable([['comparison', 'runtime', 'time', 'instructions'], ...seed], { rightFrom: 2 }).join('\n'));
if (notCounted.length) {
  console.log(`\nNot counted (${notCounted.length}):`);
  console.log(textTable([['benchmark', 'column', 'why'], ...notCounted.map((r) => [r[0], r[1], r[2].slice(0, 140)])]).join('\n'));
}
