// CSV: one row per cell, for spreadsheets.
const FIELDS = ['suite', 'benchmark', 'runtime', 'v8', 'flagSet', 'flags', 'status', 'opsPerSec', 'nsPerOp', 'rmePercent', 'ciLowNs', 'ciHighNs', 'processes', 'samples', 'cpuNsPerOp', 'gcShare', 'scavenges', 'markCompacts', 'eventLoopDelayP99Ms', 'peakRssBytes', 'error'];

function quote(value) {
  if (value === null || value === undefined) return '';
  const s = String(value);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function renderCsv(result) {
  const v8 = new Map(result.runtimes.map((r) => [r.label, r.v8]));
  const rows = result.cells.map((c) => {
    const s = c.summary || {};
    const m = c.metrics || {};
    return [c.suite, c.benchmark, c.runtime, v8.get(c.runtimeLabel), c.flagSet, c.flags.join(' '), c.status, s.opsPerSec, s.estimate, s.rme,
      s.ci?.low, s.ci?.high, s.processes, s.samples, m.cpuNsPerOp ?? s.cpuNsPerOp, m.gc?.gcShare, m.gc?.scavenges, m.gc?.markCompacts,
      m.eventLoopDelay?.p99Ms, m.memory?.peakRssBytes, c.error];
  });
  return `${[FIELDS, ...rows].map((r) => r.map(quote).join(',')).join('\n')}\n`;
}
