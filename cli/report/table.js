// The table format: the terminal report of a result file, as `matrix`, `run` and `report` print
// it: the comparison tables (suite-tables.js), the notes on V8 flag defaults that differ between its
// runtimes, the metrics grid (for suites whose findings are metrics, or every suite with
// `metrics`), the service tables, and last "what changed" (changes.js), where a reader's eye lands
// when the command ends, and under it the run's warnings about its machine
// (render/run-warnings.js); `summary` prints only those two.
import { renderTables } from './suite-tables.js';
import { renderMetricsTables } from './metrics-table.js';
import { renderServiceTables } from './service-table.js';
import { renderCommandTables } from './command-table.js';
import { flagDefaultNotes } from './flag-notes.js';
import { renderChanges } from './changes.js';
import { grid } from '../results/grid.js';
import { reportOverview } from '../render/overview.js';
import { runWarningLines, cellWarningLines } from '../render/run-warnings.js';
import { terminalText } from '../text/escape.js';

export { renderChanges };

// runWarnings: false leaves out the run's own warnings (load, CPU governor), for the end of a run,
// which says them on stderr.
export function renderTerminal(result, { baseline, color = false, metrics = false, verbose = false, summary = false, file, runWarnings = true, width } = {}) {
  const tables = grid(result, { baseline });
  const warned = runWarnings ? runWarningLines(result).map((line) => `${terminalText(line)}\n`).join('') : '';
  const changes = renderChanges(result, { color, file, overview: reportOverview(result, { baseline, tables }) });
  // The tables count their cells' warnings under each suite; without them, the summary counts them once.
  const cellWarned = cellWarningLines(result.cells).map((line) => `${terminalText(line)}\n`).join('');
  if (summary) return `${changes || 'No ratio to show: the result has one runtime and one flag set.\n'}${cellWarned}${warned}`;
  const metricSuites = metrics ? null : result.suites.filter((s) => s.metricsTable).map((s) => s.name);
  const metricsText = metricSuites && !metricSuites.length ? '' : renderMetricsTables(result, { suites: metricSuites || undefined });
  const service = renderServiceTables(result);
  return `${[renderTables(result, { baseline, color, verbose, tables, ...(width ? { width } : {}) }), flagDefaultNotes(result), metricsText, service, renderCommandTables(result), changes].filter(Boolean).join('\n')}${warned}`;
}
