// Whole commands (`nodebench exec`, matrix.yaml `commands:`): one row per command x column with
// what a team reads of a build or a test run: wall time, CPU (user + sys, of the command and the
// processes it waited for), CPU over wall (how parallel it ran), peak RSS of its largest process.
// Medians over the cell's kept processes (each one run).
import { textTable } from '../text/text-table.js';
import { formatDuration, displayName } from '../text/format.js';
import { median } from '../stats/basic.js';
import { keptProcesses, columnKey } from '../cell-identity.js';

const medianOf = (values) => {
  const finite = values.filter(Number.isFinite);
  return finite.length ? median(finite) : NaN;
};

// Which npm ran with a column's runtime (runtimes[].npm, written for runs with commands): its
// version, "host" when the runtime had none of its own, or undefined for files from before.
function npmOf(result, cell) {
  const npm = (result.runtimes || []).find((r) => r.label === cell.runtimeLabel)?.npm;
  if (!npm) return undefined;
  return npm.version ? String(npm.version) : 'host';
}

export function commandRows(result) {
  return result.cells.filter((c) => c.benchmarkType === 'command' && c.status === 'ok').map((cell) => {
    const runs = keptProcesses(cell).map((p) => p.command).filter(Boolean);
    const wallMs = medianOf(runs.map((r) => r.wallMs));
    const cpuMs = medianOf(runs.map((r) => (r.userMs === null ? NaN : r.userMs + r.systemMs)));
    return {
      benchmark: cell.benchmark,
      column: columnKey(cell),
      runs: runs.length,
      wallMs,
      cpuMs,
      cpuPercent: wallMs > 0 ? (100 * cpuMs) / wallMs : NaN,
      peakRssBytes: medianOf(runs.map((r) => r.peakRssBytes)),
      flagsVia: runs[0]?.flagsVia,
      npm: npmOf(result, cell)
    };
  });
}

export function renderCommandTables(result) {
  const rows = commandRows(result);
  if (!rows.length) return '';
  const withNpm = rows.some((r) => r.npm !== undefined);
  const header = ['command', 'column', 'runs', 'wall', 'CPU', 'CPU/wall', 'peak RSS', ...(withNpm ? ['npm'] : [])];
  const body = rows.map((r) => [displayName(r.benchmark), displayName(r.column), String(r.runs), formatDuration(r.wallMs * 1e6), formatDuration(r.cpuMs * 1e6),
    Number.isFinite(r.cpuPercent) ? `${r.cpuPercent.toFixed(0)}%` : 'n/a', Number.isFinite(r.peakRssBytes) ? `${(r.peakRssBytes / 1048576).toFixed(0)}MB` : 'n/a',
    ...(withNpm ? [r.npm ?? ''] : [])]);
  const viaWrapper = [...new Set(rows.filter((r) => r.flagsVia && r.flagsVia !== 'none' && r.flagsVia !== 'NODE_OPTIONS').map((r) => r.column))];
  const notes = viaWrapper.length ? [`  flags reached node through a wrapper first on PATH (Node does not take them from NODE_OPTIONS) in ${viaWrapper.map(displayName).join(', ')}`] : [];
  if (rows.some((r) => r.npm === 'host')) notes.push('  npm "host": that runtime had no npm of its own (offline when it was needed), so the host\'s npm ran');
  return ['commands, per run  (medians over the kept runs; CPU = user + sys of the command and the processes it waited for; peak RSS of its largest process)', ...textTable([header, ...body], { rightFrom: 2 }), ...notes, ''].join('\n');
}
