// What a benchmarking command prints when it is done: tables (or JSON) on stdout.
import path from 'node:path';
import { renderTables } from '../report/table.js';
import { flagDefaultNotes } from '../report/flag-notes.js';
import { renderMetricsTables } from '../report/metrics-table.js';
import { renderServiceTables } from '../report/service-table.js';
import { exitCodeFor } from '../engine.js';

export function printOutcome({ result, interrupted }, { out, json, baseline, color, progress }) {
  if (json) {
    process.stdout.write(`${JSON.stringify(result, null, 1)}\n`);
  } else {
    process.stdout.write(renderTables(result, { baseline, color: color && process.stdout.isTTY && !process.env.NO_COLOR }));
    process.stdout.write(flagDefaultNotes(result));
    // Suites whose findings are about GC and latency (they say so with metricsTable: true) also get
    // the metrics grid; every suite's metrics are in the result file and in `nodebench report --metrics`.
    const metricSuites = result.suites.filter((s) => s.metricsTable).map((s) => s.name);
    if (metricSuites.length) process.stdout.write(`${renderMetricsTables(result, { suites: metricSuites })}\n`);
    const service = renderServiceTables(result);
    if (service) process.stdout.write(`${service}\n`);
  }
  const counts = {};
  for (const cell of result.cells) counts[cell.status] = (counts[cell.status] || 0) + 1;
  const summary = Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ');
  for (const warning of result.warnings || []) progress.log(`warning: ${warning}`);
  progress.log(`${interrupted ? 'interrupted' : 'done'}: ${summary}; results in ${path.relative(process.cwd(), out) || out}`);
  return exitCodeFor(result, interrupted);
}
