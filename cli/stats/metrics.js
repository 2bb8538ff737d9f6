// Runtime metrics as measures: each metrics process of a cell (a separate process with --trace-gc
// and the event-loop probe) gives one value per metric; a cell's metric is their mean with a 95%
// t-interval over processes, and two cells' metric is compared by the ratio of their means with
// Welch's t-test, like rates: on the logs when every value is positive (a ratio of geometric
// means), else on the values themselves (a metric that can be 0, such as mark-compacts in a short
// window), with the ratio's interval from the difference's.
import { mean, sd, t975, welchDf } from './basic.js';
import { tTwoSidedP } from './distributions.js';

const perSecond = (amount, windowMs) => (Number.isFinite(amount) && windowMs > 0 ? (amount * 1000) / windowMs : undefined);

// id: the name diff's --metric takes; of(figures): the value one metrics process gives;
// worse: 'higher' when a larger value is a regression.
export const METRICS = [
  { id: 'gc-share', label: 'main-thread GC share of wall time', of: (m) => m.gc?.gcShare, unit: 'share', worse: 'higher' },
  { id: 'scavenge-ms', label: 'scavenge ms per s', of: (m) => perSecond(m.gc?.scavengeMs, m.gc?.windowMs), unit: 'ms/s', worse: 'higher' },
  { id: 'mark-compact-ms', label: 'main-thread mark-compact ms per s (pauses and incremental marking steps)', of: (m) => perSecond(m.gc?.markCompactMs, m.gc?.windowMs), unit: 'ms/s', worse: 'higher' },
  { id: 'scavenges', label: 'scavenges per s', of: (m) => perSecond(m.gc?.scavenges, m.gc?.windowMs), unit: '/s', worse: 'higher' },
  { id: 'mark-compacts', label: 'mark-compacts per s', of: (m) => perSecond(m.gc?.markCompacts, m.gc?.windowMs), unit: '/s', worse: 'higher' },
  { id: 'cpu-wall', label: 'CPU time over wall time', of: (m) => (m.cpuNsPerOp > 0 && m.wallNsPerOp > 0 ? m.cpuNsPerOp / m.wallNsPerOp : undefined), unit: 'share', worse: 'higher' },
  { id: 'loop-delay-p50', label: 'event-loop delay p50 ms', of: (m) => m.eventLoopDelay?.p50Ms, unit: 'ms', worse: 'higher' },
  { id: 'loop-delay-p99', label: 'event-loop delay p99 ms', of: (m) => m.eventLoopDelay?.p99Ms, unit: 'ms', worse: 'higher' },
  { id: 'loop-delay-max', label: 'event-loop delay max ms', of: (m) => m.eventLoopDelay?.maxMs, unit: 'ms', worse: 'higher' },
  { id: 'peak-rss', label: 'peak RSS bytes', of: (m) => m.memory?.peakRssBytes, unit: 'bytes', worse: 'higher' }
];
export const METRIC_IDS = METRICS.map((m) => m.id);
const BY_ID = new Map(METRICS.map((m) => [m.id, m]));
export const metricById = (id) => BY_ID.get(id);

// The metrics processes of a cell that reported figures (a failed one has { error }).
export const okRuns = (runs) => (runs || []).filter((r) => r && !r.error);

export function metricValues(runs, id) {
  return okRuns(runs).map((r) => BY_ID.get(id).of(r)).filter(Number.isFinite);
}

// { estimate, low, high, n, method }: low/high null with fewer than two values.
export function metricInterval(values) {
  const n = values.length;
  if (!n) return null;
  if (n < 2) return { estimate: values[0], low: null, high: null, n, method: 'one metrics process: no interval' };
  if (values.every((v) => v > 0)) {
    const logs = values.map(Math.log);
    const half = (t975(n - 1) * sd(logs)) / Math.sqrt(n);
    const centre = mean(logs);
    return { estimate: Math.exp(centre), low: Math.exp(centre - half), high: Math.exp(centre + half), n, method: `geometric mean of ${n} metrics processes with a t-interval on the logs` };
  }
  // Every metric is a time, a count, a share or a size: never below 0.
  const half = (t975(n - 1) * sd(values)) / Math.sqrt(n);
  const centre = mean(values);
  return { estimate: centre, low: Math.max(0, centre - half), high: centre + half, n, method: `mean of ${n} metrics processes with a t-interval, cut at 0 (some values are 0)` };
}

function welch(a, b) {
  const va = sd(a) ** 2 / a.length;
  const vb = sd(b) ** 2 / b.length;
  const se = Math.sqrt(va + vb);
  const df = se > 0 ? welchDf(va, a.length, vb, b.length) : Infinity;
  return { diff: mean(b) - mean(a), se, df };
}

// B against A for one metric: { ratio, ci: { level, low, high }, p, df, n: [nA, nB], method }, or
// null when either side has fewer than two values (no interval to compare).
export function compareMetric(valuesA, valuesB) {
  if (valuesA.length < 2 || valuesB.length < 2) return null;
  const positive = [...valuesA, ...valuesB].every((v) => v > 0);
  const a = positive ? valuesA.map(Math.log) : valuesA;
  const b = positive ? valuesB.map(Math.log) : valuesB;
  const { diff, se, df } = welch(a, b);
  const half = se > 0 ? t975(Math.min(df, 1e6)) * se : 0;
  const p = se > 0 ? tTwoSidedP(diff / se, df) : (diff === 0 ? 1 : 0);
  const n = [valuesA.length, valuesB.length];
  if (positive) {
    return { ratio: Math.exp(diff), ci: { level: 0.95, low: Math.exp(diff - half), high: Math.exp(diff + half) }, p, df, n, method: `Welch's t-test on the logs of ${n[0]} vs ${n[1]} metrics processes (ratio of geometric means)` };
  }
  const base = mean(valuesA);
  if (!(base > 0)) return null;
  return { ratio: 1 + diff / base, ci: { level: 0.95, low: Math.max(0, 1 + (diff - half) / base), high: 1 + (diff + half) / base }, p, df, n, method: `Welch's t-test on the values of ${n[0]} vs ${n[1]} metrics processes (some are 0; the ratio's interval is the difference's over A's mean)` };
}

// What a cell keeps of its metrics processes: the figures of each (`processes`), the mean of each
// figure in the shape one process reports (so that the grids read it as before), and each metric's
// interval. runs: what the metrics processes reported, in launch order.
export function summarizeMetricRuns(runs) {
  const ok = okRuns(runs);
  const failed = runs.length - ok.length;
  if (!ok.length) return { error: runs.at(-1)?.error ?? 'no metrics process reported', processes: runs };
  const meanOf = (pick) => {
    const values = ok.map(pick).filter(Number.isFinite);
    return values.length ? mean(values) : pick(ok[0]);
  };
  const first = ok[0];
  const intervals = Object.fromEntries(METRICS.map((m) => [m.id, metricInterval(metricValues(ok, m.id))]).filter(([, v]) => v));
  return {
    ...first,
    cpuNsPerOp: meanOf((r) => r.cpuNsPerOp),
    wallNsPerOp: meanOf((r) => r.wallNsPerOp),
    windowMs: meanOf((r) => r.windowMs),
    gc: first.gc ? Object.fromEntries(Object.keys(first.gc).map((k) => [k, typeof first.gc[k] === 'number' ? meanOf((r) => r.gc?.[k]) : first.gc[k]])) : first.gc,
    eventLoopDelay: first.eventLoopDelay && typeof first.eventLoopDelay === 'object'
      ? Object.fromEntries(Object.keys(first.eventLoopDelay).map((k) => [k, typeof first.eventLoopDelay[k] === 'number' ? meanOf((r) => r.eventLoopDelay?.[k]) : first.eventLoopDelay[k]]))
      : first.eventLoopDelay,
    memory: first.memory ? { ...first.memory, peakRssBytes: meanOf((r) => r.memory?.peakRssBytes) } : first.memory,
    intervals,
    failedProcesses: failed || undefined,
    processes: runs
  };
}
