// The terminal report of a result file, as `matrix`, `run` and `report` print it: the comparison
// tables, the metrics grid (for suites whose findings are metrics, or every suite with `metrics`),
// and the service tables.
import { renderTables } from './table.js';
import { renderMetricsTables } from './metrics-table.js';
import { renderServiceTables } from './service-table.js';

export function renderTerminal(result, { baseline, color = false, metrics = false, verbose = false } = {}) {
  const metricSuites = metrics ? null : result.suites.filter((s) => s.metricsTable).map((s) => s.name);
  const metricsText = metricSuites && !metricSuites.length ? '' : renderMetricsTables(result, { suites: metricSuites || undefined });
  const service = renderServiceTables(result);
  return [renderTables(result, { baseline, color, verbose }), metricsText, service].filter(Boolean).join('\n');
}
