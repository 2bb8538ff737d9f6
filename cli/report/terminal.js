// The terminal report of a result file, as `matrix`, `run` and `report` print it: the comparison
// tables, the notes on V8 flag defaults that differ between its runtimes, the metrics grid (for suites whose findings are metrics, or every suite with `metrics`),
// and the service tables.
import { renderTables } from './table.js';
import { renderMetricsTables } from './metrics-table.js';
import { renderServiceTables } from './service-table.js';
import { renderCommandTables } from './command-table.js';
import { flagDefaultNotes } from './flag-notes.js';

export function renderTerminal(result, { baseline, color = false, metrics = false, verbose = false } = {}) {
  const metricSuites = metrics ? null : result.suites.filter((s) => s.metricsTable).map((s) => s.name);
  const metricsText = metricSuites && !metricSuites.length ? '' : renderMetricsTables(result, { suites: metricSuites || undefined });
  const service = renderServiceTables(result);
  return [renderTables(result, { baseline, color, verbose }), flagDefaultNotes(result), metricsText, service, renderCommandTables(result)].filter(Boolean).join('\n');
}
