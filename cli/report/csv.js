// CSV: one row per cell, for spreadsheets: every summary figure, runtime metric and service figure,
// and the ratio the tables show with its interval, q-value and verdict (results/grid.js: the column
// it is against, judged with every other ratio at one false discovery rate).
import { csvField } from '../render/csv-field.js';
import { grid } from '../results/grid.js';
import { cellKey } from '../cell-identity.js';
import { measureOfCell } from '../measure.js';

// A cell counted in instructions fills the instructions columns and leaves the ones named in ns
// empty: a count under "nsPerOp" reads as time in a spreadsheet.
const counted = (c) => measureOfCell(c).id === 'instructions';
const timed = (value) => (c, ...rest) => (counted(c) ? null : value(c, ...rest));
const count = (value) => (c, ...rest) => (counted(c) ? value(c, ...rest) : null);

const COLUMNS = [
  ['suite', (c) => c.suite], ['benchmark', (c) => c.benchmark], ['runtime', (c) => c.runtime], ['v8', (c, v8) => v8.get(c.runtimeLabel)],
  ['flagSet', (c) => c.flagSet], ['flags', (c) => c.flags.join(' ')], ['status', (c) => c.status], ['measure', (c) => (counted(c) ? 'instructions' : 'time')],
  ['opsPerSec', timed((c, _, s) => s.opsPerSec)], ['nsPerOp', timed((c, _, s) => s.estimate)], ['medianNs', timed((c, _, s) => s.median)], ['meanNs', timed((c, _, s) => s.mean)],
  ['sdNs', timed((c, _, s) => s.sd)], ['minNs', timed((c, _, s) => s.min)], ['p75Ns', timed((c, _, s) => s.p75)], ['p99Ns', timed((c, _, s) => s.p99)],
  ['rmePercent', (c, _, s) => s.rme], ['ciLowNs', timed((c, _, s) => s.ci?.low)], ['ciHighNs', timed((c, _, s) => s.ci?.high)],
  ['rerunLowNs', timed((c, _, s) => s.rerun?.low)], ['rerunHighNs', timed((c, _, s) => s.rerun?.high)],
  ['instructionsPerOp', count((c, _, s) => s.estimate)], ['instructionsCiLow', count((c, _, s) => s.ci?.low)], ['instructionsCiHigh', count((c, _, s) => s.ci?.high)],
  ['processes', (c, _, s) => s.processes], ['samples', (c, _, s) => s.samples], ['emptyNsPerOp', timed((c, _, s) => s.emptyNsPerOp)],
  ['cpuNsPerOp', (c, _, s, m) => m.cpuNsPerOp ?? s.cpuNsPerOp], ['wallNsPerOp', (c, _, s, m) => m.wallNsPerOp],
  ['gcShare', (c, _, s, m) => m.gc?.gcShare], ['scavenges', (c, _, s, m) => m.gc?.scavenges], ['scavengeMs', (c, _, s, m) => m.gc?.scavengeMs],
  ['markCompacts', (c, _, s, m) => m.gc?.markCompacts], ['markCompactMs', (c, _, s, m) => m.gc?.markCompactMs],
  ['eventLoopDelayP99Ms', (c, _, s, m) => m.eventLoopDelay?.p99Ms], ['peakRssBytes', (c, _, s, m) => m.memory?.peakRssBytes],
  ['reqPerSec', (c) => c.service?.throughput], ['latencyP50Ms', (c) => c.service?.latencyMs?.p50], ['latencyP90Ms', (c) => c.service?.latencyMs?.p90],
  ['latencyP95Ms', (c) => c.service?.latencyMs?.p95], ['latencyP99Ms', (c) => c.service?.latencyMs?.p99], ['latencyMaxMs', (c) => c.service?.latencyMs?.max],
  ['serviceErrors', (c) => c.service?.errors], ['serviceNon2xx', (c) => c.service?.non2xx], ['serviceCpuPercent', (c) => c.service?.cpuPercent],
  ['servicePeakRssBytes', (c) => c.service?.peakRssBytes],
  ['ratioAgainst', (c, _, s, m, r) => (r?.ratioComparison ? r.against : null)], ['ratio', (c, _, s, m, r) => r?.ratioComparison?.ratio],
  ['ratioLow', (c, _, s, m, r) => r?.ratioComparison?.low], ['ratioHigh', (c, _, s, m, r) => r?.ratioComparison?.high],
  ['ratioQ', (c, _, s, m, r) => r?.ratioQ], ['verdict', (c, _, s, m, r) => r?.ratioVerdict],
  // Warning codes (e.g. optimized-away: the rate is that of an empty benchmark), space-separated.
  ['warnings', (c) => (c.warnings || []).map((w) => (typeof w === 'string' ? w : w.code)).join(' ')], ['error', (c) => c.error]
];

export function renderCsv(result, { baseline } = {}) {
  const v8 = new Map(result.runtimes.map((r) => [r.label, r.v8]));
  const ratios = new Map(grid(result, { baseline }).flatMap((table) => table.rows.flatMap((row) => row.values.map((value, i) => [
    cellKey({ suite: table.suite, benchmark: row.benchmark, runtimeLabel: table.columns[i].runtimeLabel, flagSet: table.columns[i].flagSet }), value]))));
  const rows = result.cells.map((c) => COLUMNS.map(([, value]) => value(c, v8, c.summary || {}, c.metrics || {}, ratios.get(cellKey(c)))));
  return `${[COLUMNS.map(([name]) => name), ...rows].map((r) => r.map(csvField).join(',')).join('\n')}\n`;
}
