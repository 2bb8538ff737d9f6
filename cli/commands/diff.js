// nodebench diff A.json B.json: what got faster or slower from A to B, by how much, how sure we are.
// Also one file, two of its columns: nodebench diff R.json --from 4.9.1/baseline --to 6.17.1/baseline.
import chalk from 'chalk';
import path from 'node:path';
import fs from 'node:fs/promises';
import { renderDiffMarkdown } from '../report/diff-markdown.js';
import { readResult } from '../results/file.js';
import { compareCells, geomeanRatio, ALPHA, INVOCATION_DRIFT } from '../stats/compare.js';
import { columnsOf } from '../report/columns.js';
import { formatRate } from '../report/format.js';
import { UserError } from '../errors.js';

const key = (c, withColumn = true) => [c.suite, c.benchmark, withColumn ? `${c.runtimeLabel}/${c.flagSet}` : c.flagSet].join('\u0000');

function findColumn(result, name, file) {
  const column = columnsOf(result).find((c) => c.key === name || c.runtimeLabel === name);
  if (!column) throw new UserError(`Column "${name}" is not in ${file}; it has ${columnsOf(result).map((c) => c.key).join(', ')}.`);
  return column;
}

// Returns [{ label, a, b }] of cells to compare.
export function pairCells(resultA, resultB, { from, to, fileA = 'A', fileB = 'B' } = {}) {
  if (from || to) {
    if (!from || !to) throw new UserError('Give both --from and --to (columns like 16.20.2/baseline), or neither.');
    const colA = findColumn(resultA, from, fileA);
    const colB = findColumn(resultB, to, fileB);
    const inCol = (r, col) => r.cells.filter((c) => c.runtimeLabel === col.runtimeLabel && c.flagSet === col.flagSet);
    const bByBench = new Map(inCol(resultB, colB).map((c) => [`${c.suite}\u0000${c.benchmark}`, c]));
    return inCol(resultA, colA)
      .map((a) => ({ label: `${a.suite}/${a.benchmark}`, column: `${colA.key} -> ${colB.key}`, a, b: bByBench.get(`${a.suite}\u0000${a.benchmark}`) ?? null }));
  }
  let withColumn = true;
  let bIndex = new Map(resultB.cells.map((c) => [key(c), c]));
  let pairs = resultA.cells.filter((a) => bIndex.has(key(a)));
  // Two runs of different runtimes (Node 14 today, Node 16 tomorrow): pair by benchmark and flag set.
  if (!pairs.length && resultA.runtimes.length === 1 && resultB.runtimes.length === 1) {
    withColumn = false;
    bIndex = new Map(resultB.cells.map((c) => [key(c, false), c]));
    pairs = resultA.cells.filter((a) => bIndex.has(key(a, false)));
  }
  if (!pairs.length) throw new UserError(`${fileA} and ${fileB} have no benchmark in common (same suite, benchmark, runtime and flag set); compare columns with --from and --to instead.`);
  // A's cells missing from B are kept (b: null): a benchmark that disappeared must not pass the gate.
  const bColumn = withColumn ? null : `${resultB.runtimes[0].label}`;
  return resultA.cells.map((a) => {
    const b = bIndex.get(key(a, withColumn)) ?? null;
    const column = withColumn ? `${a.runtimeLabel}/${a.flagSet}` : `${a.runtimeLabel}/${a.flagSet} -> ${bColumn}/${a.flagSet}`;
    return { label: `${a.suite}/${a.benchmark}`, column, a, b };
  });
}

const stateOf = (cell) => (!cell ? 'missing' : ['pending', 'running'].includes(cell.status) ? 'unfinished' : cell.status);

export function diffResults(pairs, { alpha = ALPHA, driftCv = 0 } = {}) {
  return pairs.map((pair) => {
    if (pair.a.status !== 'ok' || pair.b?.status !== 'ok') {
      return { ...pair, comparison: null, note: `${stateOf(pair.a)} -> ${stateOf(pair.b)}` };
    }
    return { ...pair, comparison: compareCells(pair.a, pair.b, { alpha, driftCv }) };
  });
}

// One line per failing benchmark, naming every column concerned: significantly slower by more than
// limitPct, or ok in A and failed, timed out, unfinished or missing in B (the last two pass with
// allowMissing).
export function gateFailures(rows, { limitPct, allowMissing = false }) {
  const byBenchmark = new Map();
  for (const r of rows) {
    if (r.a.status !== 'ok') continue;
    let why = null;
    if (r.comparison) {
      if (r.comparison.verdict === 'slower' && (1 - r.comparison.ratio) * 100 > limitPct) why = `${pct(r.comparison.ratio)} (95% CI ${pct(r.comparison.ci.low)} .. ${pct(r.comparison.ci.high)})`;
    } else {
      const state = stateOf(r.b);
      if (state === 'failed' || state === 'timeout') why = `${state} in B${r.b.error ? ` (${r.b.error})` : ''}`;
      else if (!allowMissing && (state === 'missing' || state === 'unfinished' || state === 'skipped')) why = `${state} in B`;
    }
    if (!why) continue;
    if (!byBenchmark.has(r.label)) byBenchmark.set(r.label, []);
    byBenchmark.get(r.label).push(`${r.column} ${why}`);
  }
  return [...byBenchmark].map(([label, reasons]) => `${label}: ${reasons.join('; ')}`);
}

const pct = (ratio) => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)}%`;

export function renderDiff(rows, { color = false } = {}) {
  const header = ['benchmark', 'column', 'A ops/s', 'B ops/s', 'change', '95% CI', 'p', 'verdict'];
  const body = rows.map((r) => {
    if (!r.comparison) return [r.label, r.column, r.a.status === 'ok' ? formatRate(r.a.summary.opsPerSec) : stateOf(r.a), r.b?.status === 'ok' ? formatRate(r.b.summary.opsPerSec) : stateOf(r.b), '', '', '', r.note];
    const c = r.comparison;
    return [r.label, r.column, formatRate(r.a.summary.opsPerSec), formatRate(r.b.summary.opsPerSec), pct(c.ratio),
      `${pct(c.ci.low)} .. ${pct(c.ci.high)}`, c.p < 0.001 ? '<0.001' : c.p.toFixed(3), c.verdict + (c.singleProcess ? ' (1 process)' : '')];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const paint = (text, row) => {
    if (!color || !row.comparison || !row.comparison.significant) return text;
    return row.comparison.ratio > 1 ? chalk.green(text) : chalk.red(text);
  };
  const lines = [header.map((h, i) => h.padEnd(widths[i])).join('  ').trimEnd(), widths.map((w) => '-'.repeat(w)).join('  ')];
  body.forEach((row, j) => lines.push(paint(row.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd(), rows[j])));
  const compared = rows.filter((r) => r.comparison).map((r) => r.comparison);
  if (compared.length) {
    lines.push('', `geomean of rate ratios: ${pct(geomeanRatio(compared))} over ${compared.length} benchmarks; ` +
      `${compared.filter((c) => c.verdict === 'faster').length} faster, ${compared.filter((c) => c.verdict === 'slower').length} slower, ${compared.filter((c) => c.verdict === '~').length} no significant change (~, p >= ${ALPHA})`);
  }
  if (compared.some((c) => c.singleProcess)) {
    lines.push('note: cells measured in one process are compared sample by sample, which ignores between-process variation; measure with --processes 3 or more for verdicts you can trust.');
  }
  return `${lines.join('\n')}\n`;
}

export function register(program) {
  program.command('diff')
    .description('compare two result files (or two columns of one): ratio, 95% interval, p-value and verdict per benchmark')
    .argument('<a>', 'result file A (before)')
    .argument('[b]', 'result file B (after); default: A itself, with --from/--to')
    .option('--from <column>', 'column of A to compare from, e.g. 14.21.3/baseline')
    .option('--to <column>', 'column of B to compare to, e.g. 16.20.2/baseline')
    .option('--fail-on-regression [percent]', 'exit 1 if a benchmark is significantly slower (by more than percent, default 0), or was ok in A and failed, timed out, is unfinished or missing in B')
    .option('--allow-missing', 'with --fail-on-regression: benchmarks missing or unfinished in B do not fail the gate (failed and timed-out ones still do)')
    .option('--drift <percent>', `drift between two separate runs to allow for, in percent (default ${INVOCATION_DRIFT * 100} for two files, 0 within one file; measure yours with nodebench doctor --full)`)
    .option('--json', 'print the comparison as JSON (same as --format json)')
    .option('--format <format>', 'text, markdown (for a pull request; also appended to $GITHUB_STEP_SUMMARY when set) or json', 'text')
    .option('--no-color', 'plain output')
    .action(async (fileA, fileB, opts) => {
      // Checked before any work: a typo must not surface only after the comparison is printed.
      const limit = opts.failOnRegression === undefined ? null : opts.failOnRegression === true ? 0 : Number(opts.failOnRegression);
      if (limit !== null && (!Number.isFinite(limit) || limit < 0)) throw new UserError(`--fail-on-regression takes a percentage like 5, not "${opts.failOnRegression}".`);
      const format = opts.json ? 'json' : opts.format;
      if (!['text', 'markdown', 'json'].includes(format)) throw new UserError(`--format "${opts.format}" is not known; use text, markdown or json.`);
      const separateRuns = Boolean(fileB) && path.resolve(fileA) !== path.resolve(fileB);
      let driftCv = separateRuns ? INVOCATION_DRIFT : 0;
      if (opts.drift !== undefined) {
        driftCv = Number(opts.drift) / 100;
        if (!Number.isFinite(driftCv) || driftCv < 0) throw new UserError(`--drift takes a percentage like 1, not "${opts.drift}".`);
      }
      const resultA = await readResult(fileA);
      const resultB = fileB ? await readResult(fileB) : resultA;
      if (!fileB && !(opts.from && opts.to)) throw new UserError('Give a second result file, or --from and --to columns to compare within one file.');
      const rows = diffResults(pairCells(resultA, resultB, { from: opts.from, to: opts.to, fileA, fileB: fileB || fileA }), { driftCv });
      const gate = limit === null ? [] : gateFailures(rows, { limitPct: limit, allowMissing: Boolean(opts.allowMissing) });
      if (format === 'json') {
        process.stdout.write(`${JSON.stringify({ rows: rows.map(({ a, b, ...rest }) => ({ ...rest, a: a.summary || null, b: b?.summary || null })), gate }, null, 1)}\n`);
      } else if (format === 'markdown') {
        const markdown = renderDiffMarkdown(rows, { resultA, resultB, gate });
        process.stdout.write(markdown);
        if (process.env.GITHUB_STEP_SUMMARY) await fs.appendFile(process.env.GITHUB_STEP_SUMMARY, markdown);
      } else {
        process.stdout.write(renderDiff(rows, { color: opts.color && process.stdout.isTTY && !process.env.NO_COLOR }));
      }
      if (limit !== null) {
        for (const line of gate) process.stderr.write(`nodebench: ${line}\n`);
        if (gate.length) {
          process.stderr.write(`nodebench: ${gate.length} benchmark(s) fail the gate (slower by more than ${limit}%, or no longer ok)\n`);
          process.exitCode = 1;
        }
      }
    });
}
