// The precision figures of a result file, suite by suite (margins, ratio margins, set-aside processes,
// where the width and the wall time come from): bench/margins.js prints them for one file,
// bench/suites.js and bench/aa-matrix.js for their own runs.
import { quantile, median, sd, mean } from '../../cli/stats/basic.js';
import { keptProcesses, perProcessOf } from '../../cli/cell-identity.js';
import { processValue, keptSamples } from '../../cli/stats/summary.js';
import { grid } from '../../cli/results/grid.js';
import { textTable } from '../../cli/text/text-table.js';

function distribution(values) {
  const xs = values.filter(Number.isFinite);
  if (!xs.length) return { n: 0 };
  return { n: xs.length, median: median(xs), p90: quantile(xs, 0.9), p95: quantile(xs, 0.95), max: Math.max(...xs), over5: xs.filter((x) => x > 5).length, over20: xs.filter((x) => x > 20).length };
}

export function marginFigures(result) {
  const suites = [...new Set(result.cells.map((c) => c.suite))];
  const rows = [];
  const ok = result.cells.filter((c) => c.status === 'ok');
  const ratioMargins = (suite) => grid(result).filter((t) => !suite || t.suite === suite)
    .flatMap((t) => t.rows.flatMap((r) => r.values.map((v) => v.ratioRme)));
  for (const suite of [...suites, null]) {
    const cells = ok.filter((c) => !suite || c.suite === suite);
    const processes = cells.flatMap((c) => c.processes);
    rows.push({
      suite: suite || 'all',
      cells: cells.length,
      margin: distribution(cells.map((c) => c.summary.rme)),
      ratioMargin: distribution(ratioMargins(suite)),
      processes: processes.length,
      // Rounds per cell (first rounds and top-ups, replacements not counted): where the policy put
      // the processes (cheap cells may keep up to run.cheapFactor times maxProcesses).
      rounds: distribution(cells.map((c) => c.processes.filter((p) => !p.rerun).length)),
      setAside: processes.filter((p) => p.setAside).length,
      timingSeconds: processes.reduce((s, p) => s + (p.wallMs || 0), 0) / 1000
    });
  }
  const wallSeconds = result.finishedAt ? (Date.parse(result.finishedAt) - Date.parse(result.createdAt)) / 1000 : null;
  return { rows, wallSeconds, cells: result.cells.length, ok: ok.length };
}

// Where a suite's width comes from, per cell (medians over the suite's cells of 3+ kept processes):
// the spread of process values (log sd), the part of it that the samples inside each process
// explain (the standard error of a process's value from its own samples: 1.25 sd/sqrt(m) for a
// median, sd/sqrt(m) for a throughput), and what a process costs against the time it samples.
export function widthSources(result) {
  const bySuite = new Map();
  for (const cell of result.cells) {
    const kept = cell.status === 'ok' ? keptProcesses(cell) : [];
    if (kept.length < 3) continue;
    const perProcess = perProcessOf(cell);
    const between = sd(kept.map((p) => Math.log(processValue(p, perProcess))));
    const within = median(kept.map((p) => {
      const logs = keptSamples(p).map(Math.log);
      return ((perProcess === 'throughput' ? 1 : 1.25) * sd(logs)) / Math.sqrt(logs.length);
    }));
    const row = { between, within, wallMs: mean(kept.map((p) => p.wallMs || 0)), sampleMs: mean(kept.map((p) => p.sampleMs || 0)) };
    const key = cell.suite;
    if (!bySuite.has(key)) bySuite.set(key, []);
    bySuite.get(key).push(row);
  }
  return [...bySuite].map(([suite, rows]) => ({
    suite,
    cells: rows.length,
    betweenPct: median(rows.map((r) => r.between)) * 100,
    withinPct: median(rows.map((r) => r.within)) * 100,
    wallMs: median(rows.map((r) => r.wallMs)),
    sampleMs: median(rows.map((r) => r.sampleMs))
  }));
}

export function renderWidthSources(rows) {
  const header = ['suite', 'cells', 'spread of process values', 'of it from samples inside a process', 'ms per process', 'of it sampling'];
  return textTable([header, ...rows.map((r) => [r.suite, String(r.cells), `${f(r.betweenPct)}%`, `${f(r.withinPct)}%`, f(r.wallMs, 0), f(r.sampleMs, 0)])]).join('\n');
}

const PHASES = ['startMs', 'loadMs', 'setupMs', 'calibrateMs', 'warmupMs', 'sampleMs', 'exitMs'];

// Where each suite's timing processes spent their wall time (processes with phasesMs: runs since
// the phases were recorded), as mean ms per phase and the share of the wall time spent sampling.
export function phaseFigures(result) {
  const bySuite = new Map();
  for (const cell of result.cells) {
    for (const p of cell.processes) {
      if (!p.phasesMs || !(p.wallMs > 0)) continue;
      if (!bySuite.has(cell.suite)) bySuite.set(cell.suite, []);
      bySuite.get(cell.suite).push(p);
    }
  }
  return [...bySuite].map(([suite, processes]) => {
    const wallMs = mean(processes.map((p) => p.wallMs));
    const phases = Object.fromEntries(PHASES.map((k) => [k, mean(processes.map((p) => p.phasesMs[k]))]));
    return { suite, processes: processes.length, wallMs, ...phases, sampleShare: phases.sampleMs / wallMs };
  });
}

export function renderPhases(rows) {
  const header = ['suite', 'processes', 'ms per process', 'start', 'load', 'setup', 'calibrate', 'warm-up', 'sample', 'exit', 'sampling share'];
  return textTable([header, ...rows.map((r) => [r.suite, String(r.processes), f(r.wallMs, 0), ...PHASES.map((k) => f(r[k], 0)), `${f(100 * r.sampleShare, 0)}%`])], { rightFrom: 1 }).join('\n');
}

const f = (x, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : '-');

export function renderMargins(figures) {
  const header = ['suite', 'ok cells', 'margin median', 'p90', 'p95', '>5%', '>20%', 'ratio margin median', 'p95', 'processes', 'rounds per cell', 'set aside', 'timing s'];
  const body = figures.rows.map((r) => [r.suite, r.cells, `±${f(r.margin.median)}%`, `±${f(r.margin.p90)}%`, `±${f(r.margin.p95)}%`, r.margin.over5 ?? 0, r.margin.over20 ?? 0,
    `±${f(r.ratioMargin.median)}%`, `±${f(r.ratioMargin.p95)}%`, r.processes, r.rounds.n ? `${f(r.rounds.median, 0)} (max ${r.rounds.max})` : '-', r.setAside, f(r.timingSeconds, 0)].map(String));
  const lines = textTable([header, ...body]);
  lines.push(`wall time ${figures.wallSeconds !== null ? `${(figures.wallSeconds / 60).toFixed(1)} min` : 'unfinished'} for ${figures.cells} cells (${figures.ok} ok)`);
  return lines.join('\n');
}
