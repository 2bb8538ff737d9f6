// Latency percentiles of a service window, on the same definition as every other quantile in
// nodebench (stats/basic.js, type 7), rounded to microseconds.
import { quantile } from './basic.js';

const round3 = (x) => (x === null || x === undefined || Number.isNaN(x) ? null : Math.round(x * 1000) / 1000);

export function latencySummary(latencies) {
  if (!latencies.length) return { p50: null, p90: null, p95: null, p99: null, max: null, mean: null };
  let sum = 0;
  let max = -Infinity;
  for (const x of latencies) {
    sum += x;
    if (x > max) max = x;
  }
  const q = (p) => round3(quantile(latencies, p));
  return { p50: q(0.5), p90: q(0.9), p95: q(0.95), p99: q(0.99), max: round3(max), mean: round3(sum / latencies.length) };
}
