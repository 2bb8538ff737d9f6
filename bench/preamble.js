// What every bench/ script shares: progress on stderr with the time of day, and the context a figure
// needs to be reproduced and read (when, the command, the commit, which Node, which machine and how
// busy it was). docs/precision.md quotes figures with this context beside them.
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { projectRoot } from '../cli/paths.js';

export const log = (message) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${message}\n`);

function commit() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: projectRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

// { date, command, commit, node, host: { cpu, cores }, load }: what a figures object starts with.
export function runContext() {
  const script = process.argv[1] ? path.relative(projectRoot, process.argv[1]) : 'bench';
  return {
    date: new Date().toISOString(),
    command: ['node', script, ...process.argv.slice(2)].join(' '),
    commit: commit(),
    node: process.version,
    host: { cpu: os.cpus()[0]?.model, cores: os.cpus().length },
    load: os.loadavg().map((x) => +x.toFixed(2))
  };
}

// The same as one line, for a script that prints a table.
export function contextLine(context = runContext()) {
  return `${context.date} ${context.command} (commit ${context.commit}, Node ${context.node}, ${context.host.cores} cores (${context.host.cpu}), load ${context.load.join(' ')})`;
}
