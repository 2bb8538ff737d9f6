// diff on runtime metrics (GC share, marking and scavenge time, CPU/wall, event-loop delay, peak
// RSS): a change in GC time or p99 latency with unchanged throughput is a finding too (the
// log-analysis team's). For every pair of ok cells whose metrics came from two or more processes on
// each side, each metric's B/A ratio with its 95% interval (stats/metrics.js compareMetric), judged
// together at one false discovery rate with the equivalence band, as rates are
// (stats/decision.js): higher, lower, same, undecided. --metric ID gates on a metric as on ops/s:
// a metric decided higher by more than the threshold fails.
import { METRICS, metricValues, compareMetric } from '../stats/metrics.js';
import { judgeAll } from '../stats/decision.js';
import { formatChange, displayName } from '../text/format.js';

const VERDICT = { faster: 'higher', slower: 'lower', same: 'same', undecided: 'undecided' };

// rows: diffResults' rows. Returns [{ suite, benchmark, label, column, metric, ratio, ci, p, q,
// verdict, n, method }] with rows.verdicts-like `summary` attached as .verdicts.
export function metricComparisons(rows, { equivalence, alpha } = {}) {
  const found = [];
  for (const row of rows) {
    if (row.before !== 'ok' || row.after !== 'ok') continue;
    const runsA = row.a.metrics?.processes;
    const runsB = row.b.metrics?.processes;
    if (!runsA || !runsB) continue;
    for (const metric of METRICS) {
      const c = compareMetric(metricValues(runsA, metric.id), metricValues(runsB, metric.id));
      if (!c) continue;
      found.push({ suite: row.a.suite, benchmark: row.a.benchmark, label: row.label, column: row.column, metric: metric.id, ...c });
    }
  }
  const { judged, summary } = judgeAll(found.map((c) => ({ ratio: c.ratio, low: c.ci.low, high: c.ci.high, p: c.p })), { equivalence, alpha });
  found.forEach((c, i) => {
    c.q = judged[i].q;
    c.verdict = VERDICT[judged[i].verdict];
  });
  found.verdicts = summary;
  return found;
}

const higherText = (c) => `${c.metric} ${formatChange(c.ratio)} higher (95% CI ${formatChange(c.ci.low)} .. ${formatChange(c.ci.high)})`;

// The gate on metrics: [{ label, columns: [{ column, problem }] }] like diff/gate.js gateFailures.
export function metricGateFailures(comparisons, { metrics, limit = 0 }) {
  const byBenchmark = new Map();
  for (const c of comparisons) {
    if (!metrics.includes(c.metric) || c.verdict !== 'higher' || (c.ratio - 1) * 100 <= limit) continue;
    if (!byBenchmark.has(c.label)) byBenchmark.set(c.label, { label: c.label, columns: [] });
    byBenchmark.get(c.label).columns.push({ column: c.column, problem: higherText(c) });
  }
  return [...byBenchmark.values()];
}

export const METRIC_HEADER = ['benchmark', 'column', 'metric', 'change', '95% CI', 'q', 'verdict'];

// Table rows of the metric changes decided higher or lower (the others are counted, not listed).
export function metricRows(comparisons) {
  const q = (x) => (!Number.isFinite(x) ? '' : x < 0.001 ? '<0.001' : x.toFixed(3));
  return comparisons.filter((c) => c.verdict === 'higher' || c.verdict === 'lower')
    .map((c) => [displayName(c.label), displayName(c.column), c.metric, formatChange(c.ratio), `${formatChange(c.ci.low)} .. ${formatChange(c.ci.high)}`, q(c.q), c.verdict]);
}

export function metricSummary(comparisons) {
  const count = (v) => comparisons.filter((c) => c.verdict === v).length;
  return `runtime metrics: ${comparisons.length} comparisons (metrics processes on both sides); ${count('higher')} higher, ${count('lower')} lower, ${count('same')} same, ${count('undecided')} undecided`;
}
