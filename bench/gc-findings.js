#!/usr/bin/env node
// The GC findings of a result file, as examples/concurrent-marking.yaml and examples/semi-space.yaml
// state them: for each pair of columns a finding compares, each metric's ratio (to / from) with its
// 95% interval over metrics processes (compareMetric, cli/stats/metrics.js), and whether the
// interval excludes "no change" in the direction the finding claims.
//   concurrent marking: a column that marks on the main thread (its runtime's default is
//     --concurrent-marking off, e.g. 16.13.2, or its flags turn it off) against every column of the
//     same benchmark where it is on, within a flag set or within a runtime; claimed: more
//     main-thread mark-compact time and a higher event-loop delay p99;
//   semi-space: within a runtime, each --max-semi-space-size flag set against the smallest;
//     claimed: less scavenge time.
// node bench/gc-findings.js RESULT.json [--from COLUMN --to COLUMN] [--all-metrics] [--json] [--check]
// (COLUMN is runtime/flagSet as in the tables; --check exits 1 when a claimed finding does not hold.)
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { readResult } from '../cli/results/file.js';
import { METRICS, metricById, metricValues, metricInterval, compareMetric } from '../cli/stats/metrics.js';
import { textTable } from '../cli/text/text-table.js';
import { answerHelp, contextLine } from './lib/preamble.js';

answerHelp(import.meta.url);

const column = (cell) => `${cell.runtimeLabel}/${cell.flagSet}`;

// What each finding claims (a metric and the direction of the change from `from` to `to`), and the
// metrics printed beside them.
export const FINDINGS = {
  'concurrent-marking': {
    claims: [{ metric: 'mark-compact-ms', direction: 'higher' }, { metric: 'loop-delay-p99', direction: 'higher' }],
    shown: ['mark-compact-ms', 'loop-delay-p99', 'gc-share', 'scavenge-ms', 'mark-compacts', 'cpu-wall', 'loop-delay-max', 'peak-rss']
  },
  'semi-space': {
    claims: [{ metric: 'scavenge-ms', direction: 'lower' }],
    shown: ['scavenge-ms', 'scavenges', 'gc-share', 'mark-compact-ms', 'cpu-wall', 'peak-rss']
  }
};

// Whether a column marks concurrently: its flags decide, else its runtime's default as the result
// file recorded it (undefined when neither says).
function concurrentMarking(cell, runtime) {
  const flags = cell.flags || [];
  if (flags.includes('--no-concurrent-marking')) return false;
  if (flags.includes('--concurrent-marking')) return true;
  return runtime?.v8Flags?.['concurrent-marking'];
}

const semiSpaceMB = (cell) => {
  const flag = (cell.flags || []).find((f) => f.startsWith('--max-semi-space-size='));
  return flag ? Number(flag.split('=')[1]) : undefined;
};

// Map.groupBy arrived in Node 21; the host side runs on 20.
function groupBy(items, key) {
  const groups = new Map();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) || []), item]);
  return groups;
}

const withMetrics = (cells) => cells.filter((c) => c.status === 'ok' && c.metrics && !c.metrics.error);

// The pairs [from, to] of cells (same suite and benchmark) each finding compares.
export function findingPairs(result) {
  const cells = withMetrics(result.cells);
  const runtimes = new Map(result.runtimes.map((r) => [r.label, r]));
  const byBenchmark = groupBy(cells, (c) => `${c.suite}\u0000${c.benchmark}`);
  const pairs = [];
  for (const group of byBenchmark.values()) {
    const marking = group.map((c) => ({ cell: c, on: concurrentMarking(c, runtimes.get(c.runtimeLabel)) }));
    for (const off of marking.filter((m) => m.on === false)) {
      for (const on of marking.filter((m) => m.on === true)) {
        // One change at a time: another runtime with the same flags, or the same runtime's flags.
        const sameFlags = on.cell.flagSet === off.cell.flagSet;
        const sameRuntime = on.cell.runtimeLabel === off.cell.runtimeLabel;
        if (sameFlags || sameRuntime) pairs.push({ finding: 'concurrent-marking', from: on.cell, to: off.cell });
      }
    }
    for (const cellsOfRuntime of groupBy(group, (c) => c.runtimeLabel).values()) {
      const sized = cellsOfRuntime.filter((c) => semiSpaceMB(c) !== undefined).sort((a, b) => semiSpaceMB(a) - semiSpaceMB(b));
      for (const larger of sized.slice(1)) {
        if (semiSpaceMB(larger) > semiSpaceMB(sized[0])) pairs.push({ finding: 'semi-space', from: sized[0], to: larger });
      }
    }
  }
  return pairs;
}

// One metric of one pair: both cells' intervals, the ratio to/from with its interval, and whether it
// is a significant change ('higher', 'lower') or not ('~').
export function compareCells(from, to, metricId) {
  const a = metricValues(from.metrics.processes || [from.metrics], metricId);
  const b = metricValues(to.metrics.processes || [to.metrics], metricId);
  const comparison = compareMetric(a, b);
  let change = 'n/a';
  if (comparison) change = comparison.ci.low > 1 ? 'higher' : comparison.ci.high < 1 ? 'lower' : '~';
  return { metric: metricId, from: metricInterval(a), to: metricInterval(b), comparison, change };
}

export function findings(result, { pairs, allMetrics = false } = {}) {
  return (pairs || findingPairs(result)).map(({ finding, from, to }) => {
    const spec = FINDINGS[finding];
    const ids = allMetrics || !spec ? METRICS.map((m) => m.id) : spec.shown;
    const metrics = ids.map((id) => compareCells(from, to, id));
    const claims = (spec?.claims || []).map((claim) => ({
      ...claim,
      holds: metrics.find((m) => m.metric === claim.metric)?.change === claim.direction
    }));
    return { finding: finding || 'pair', suite: from.suite, benchmark: from.benchmark, from: column(from), to: column(to), metrics, claims };
  });
}

const sig = (x) => (Number.isFinite(x) ? (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : x.toPrecision(2)) : 'n/a');

function valueText(interval, metricId) {
  if (!interval) return 'n/a';
  const unit = metricById(metricId).unit;
  const scale = unit === 'share' ? 100 : unit === 'bytes' ? 1 / 1048576 : 1;
  const suffix = unit === 'share' ? '%' : unit === 'bytes' ? 'MB' : '';
  const f = (x) => `${sig(x * scale)}${suffix}`;
  return interval.low === null ? f(interval.estimate) : `${f(interval.estimate)} [${f(interval.low)}–${f(interval.high)}]`;
}

export function renderFindings(list) {
  const out = [];
  for (const f of list) {
    out.push(`${f.finding}: ${f.suite}/${f.benchmark}, ${f.to} against ${f.from}  (mean [95% interval] over metrics processes; ratio = ${f.to} / ${f.from}, Welch's t on the logs)`);
    const rows = f.metrics.map((m) => [
      m.metric, valueText(m.from, m.metric), valueText(m.to, m.metric),
      m.comparison ? `${m.comparison.ratio.toFixed(2)}x [${m.comparison.ci.low.toFixed(2)}–${m.comparison.ci.high.toFixed(2)}]` : 'n/a',
      m.comparison ? m.comparison.p.toPrecision(2) : '', m.change
    ]);
    out.push(...textTable([['metric', f.from, f.to, 'ratio [95% interval]', 'p', 'change'], ...rows], { rightFrom: 1 }));
    for (const c of f.claims) out.push(`  claim: ${c.metric} ${c.direction} on ${f.to}: ${c.holds ? 'holds (the interval excludes no change)' : 'not shown'}`);
    out.push('');
  }
  if (!list.length) out.push('no pair of columns here compares concurrent marking on and off, or semi-space sizes');
  return out.join('\n');
}

function pickCells(result, fromColumn, toColumn) {
  const cells = withMetrics(result.cells);
  const pairs = [];
  for (const from of cells.filter((c) => column(c) === fromColumn)) {
    const to = cells.find((c) => column(c) === toColumn && c.suite === from.suite && c.benchmark === from.benchmark);
    if (to) pairs.push({ finding: null, from, to });
  }
  return pairs;
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { from: { type: 'string' }, to: { type: 'string' }, 'all-metrics': { type: 'boolean' }, json: { type: 'boolean' }, check: { type: 'boolean' } }
  });
  if (positionals.length !== 1 || Boolean(values.from) !== Boolean(values.to)) {
    process.stderr.write('usage: node bench/gc-findings.js RESULT.json [--from COLUMN --to COLUMN] [--all-metrics] [--json] [--check]\n');
    process.exit(2);
  }
  const result = await readResult(positionals[0]);
  const pairs = values.from ? pickCells(result, values.from, values.to) : undefined;
  if (pairs && !pairs.length) {
    process.stderr.write(`no benchmark has metrics in both ${values.from} and ${values.to}; columns are ${[...new Set(result.cells.map(column))].join(', ')}\n`);
    process.exit(2);
  }
  const list = findings(result, { pairs, allMetrics: values['all-metrics'] });
  // The JSON stays the list of findings (what --json has always printed); the text says when and where.
  process.stdout.write(values.json ? `${JSON.stringify(list, null, 2)}\n` : `${contextLine()}\n${renderFindings(list)}\n`);
  const claims = list.flatMap((f) => f.claims);
  if (claims.length && !values.json) {
    process.stdout.write(`claims shown: ${claims.filter((c) => c.holds).length} of ${claims.length}\n`);
  }
  if (values.check && claims.some((c) => !c.holds)) process.exit(1);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    process.stderr.write(`${err.message}\n`);
    process.exit(err.exitCode ?? 70);
  });
}
