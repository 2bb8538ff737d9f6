// The terminal report of a result file, as `matrix`, `run` and `report` print it: the comparison
// tables, the notes on V8 flag defaults that differ between its runtimes, the metrics grid (for
// suites whose findings are metrics, or every suite with `metrics`), the service tables, and last
// "what changed" (changes.js), where a reader's eye lands when the command ends; `summary` prints
// only that.
import { renderTables } from './table.js';
import { renderMetricsTables } from './metrics-table.js';
import { renderServiceTables } from './service-table.js';
import { renderCommandTables } from './command-table.js';
import { flagDefaultNotes } from './flag-notes.js';
import { renderChanges } from './changes.js';
import { grid } from './columns.js';
import { reportOverview } from './overview.js';

export { renderChanges };

export function renderTerminal(result, { baseline, color = false, metrics = false, verbose = false, summary = false, file } = {}) {
  const tables = grid(result, { baseline });
  const changes = renderChanges(result, { color, file, overview: reportOverview(result, { baseline, tables }) });
  if (summary) return changes || 'No ratio to show: the result has one runtime and one flag set.\n';
  const metricSuites = metrics ? null : result.suites.filter((s) => s.metricsTable).map((s) => s.name);
  const metricsText = metricSuites && !metricSuites.length ? '' : renderMetricsTables(result, { suites: metricSuites || undefined });
  const service = renderServiceTables(result);
  return [renderTables(result, { baseline, color, verbose, tables }), flagDefaultNotes(result), metricsText, service, renderCommandTables(result), changes].filter(Boolean).join('\n');
}
