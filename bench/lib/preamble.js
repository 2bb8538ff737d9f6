// What every bench/ entry script shares: progress on stderr with the time of day, the context a figure
// needs to be reproduced and read (when, the command, the commit, which Node, which machine and how
// busy it was), and --help. docs/precision.md quotes figures with this context beside them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { projectRoot } from '../../cli/paths.js';

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

// The comment a script opens with (after its #! line and any /* eslint */ directive): what it
// measures and how to run it. The one description of each script, so that --help and the file
// cannot disagree.
export function headerComment(file) {
  const lines = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('#!') || (!lines.length && line.startsWith('/*'))) continue;
    if (!line.startsWith('//')) break;
    lines.push(line.replace(/^\/\/ ?/, ''));
  }
  return lines.join('\n');
}

// An entry script's first statement: with --help (or -h) it prints its header comment and exits
// before measuring anything, which is how test/bench-scripts.test.js checks that every entry loads.
// Does nothing when the script is imported rather than run.
export function answerHelp(scriptUrl) {
  const file = fileURLToPath(scriptUrl);
  if (!process.argv[1] || path.resolve(process.argv[1]) !== file) return;
  if (!process.argv.slice(2).some((a) => a === '--help' || a === '-h')) return;
  process.stdout.write(`${headerComment(file)}\n`);
  process.exit(0);
}
