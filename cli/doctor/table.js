// The doctor's report as text for a terminal (data on stdout; progress went to stderr).
import { formatDuration, formatFraction } from '../text/format.js';

const gb = (bytes) => `${(bytes / 2 ** 30).toFixed(1)} GB`;

function wrap(text, width, indent) {
  const words = text.split(' ');
  const lines = [];
  let line = '';
  for (const word of words) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
}

export function renderDoctor(report, { width = 100 } = {}) {
  const { host, runtime, timerResolution: timer, overhead, variability, detectable, conditions, budget } = report;
  const label = 24;
  const value = 14;
  const indent = label + value;
  const row = (name, figure, how) => `${name.padEnd(label)}${figure.padEnd(value)}${wrap(how, Math.max(40, width - indent), indent)}`;
  const lines = [
    `nodebench doctor: Node ${runtime.version} (V8 ${runtime.v8}, ${runtime.provider}: ${runtime.path})`,
    `machine: ${host.cpuModel}, ${host.cores} cores, ${gb(host.memoryBytes)}, ${host.os} ${host.kernel}; load average ${conditions.loadAverage.map((l) => l.toFixed(2)).join(' ')}`,
    `CPU frequency governor: ${conditions.governor ?? `not readable (${conditions.governorFile})`}; CI: ${conditions.ci ? conditions.ci.join(', ') : 'no'}`,
    `default budget: ${budget.processesPerCell} processes per cell${budget.maxProcesses > budget.processesPerCell ? ` (up to ${budget.maxProcesses} while its ±margin is above ${budget.targetRme}%)` : ''} x ${budget.samples} samples of >= ${budget.minSampleMs} ms (warm-up ${budget.warmupMinMs}-${budget.warmupMaxMs} ms)`,
    '',
    row('timer resolution', timer.ns === null ? 'n/a' : `${timer.ns} ns`, timer.method),
    row('harness overhead', `${overhead.nsPerOp.toFixed(2)} ns/op`, `${overhead.method}; per process ${overhead.processMedians.map((x) => x.toFixed(2)).join(', ')} ns/op`),
    row('run-to-run variability', formatFraction(variability.cv, 2), `${variability.method}; within one process the samples vary by ${formatFraction(variability.withinProcessCv, 2)}`),
    row('CPU share', variability.cpuShare === null ? 'n/a' : formatFraction(variability.cpuShare, 0), `${variability.cpuShareMethod}; lowest ${variability.cpuShareMin === null ? 'n/a' : formatFraction(variability.cpuShareMin, 0)} (below ~95% means other programs took the core)`),
    row('smallest detectable', detectable ? formatFraction(detectable.fraction) : 'n/a', detectable ? `slowdown nodebench diff finds 80% of the time at the default ${detectable.processesPerCell} processes per cell; ${detectable.method}` : 'needs at least 2 processes per cell'),
    ...(detectable?.atMaxProcesses ? [row('', formatFraction(detectable.atMaxProcesses.fraction), `at ${detectable.atMaxProcesses.processesPerCell} processes per cell; ${detectable.adaptive.text}`)] : []),
    ''
  ];
  if (report.warnings.length) {
    lines.push('warnings:');
    for (const w of report.warnings) lines.push(`  ! ${wrap(w.message, width - 4, 4)}`);
  } else {
    lines.push('no warnings: the machine looks quiet.');
  }
  lines.push('', `(${(report.wallMs / 1000).toFixed(1)} s; figures for ${formatDuration(variability.nsPerOp)} fixed work. nodebench doctor --full runs the benchmark of the harness itself: docs/precision.md)`);
  return `${lines.join('\n')}\n`;
}
