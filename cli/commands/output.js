// What a benchmarking command prints when it is done: tables (or JSON) on stdout.
import path from 'node:path';
import { renderTerminal } from '../report/terminal.js';
import { exitCodeFor } from '../engine.js';

export function printOutcome({ result, interrupted }, { out, json, baseline, color, progress }) {
  if (json) {
    process.stdout.write(`${JSON.stringify(result, null, 1)}\n`);
  } else {
    process.stdout.write(`${renderTerminal(result, { baseline, color: color && process.stdout.isTTY && !process.env.NO_COLOR })}\n`);
  }
  const counts = {};
  for (const cell of result.cells) counts[cell.status] = (counts[cell.status] || 0) + 1;
  const summary = Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ');
  for (const warning of result.warnings || []) progress.log(`warning: ${warning.message ?? warning}`);
  progress.log(`${interrupted ? 'interrupted' : 'done'}: ${summary}; results in ${path.relative(process.cwd(), out) || out}`);
  return exitCodeFor(result, interrupted);
}
