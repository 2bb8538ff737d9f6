// Service cells: the columns production teams use, over the cell's processes. Throughput and CPU
// are means over processes; latency percentiles are the per-process percentiles averaged (each
// process saw the same load); errors add up; peak RSS is the largest seen.
import { mean } from './basic.js';

export function summarizeService(processes) {
  const s = processes.map((p) => p.service);
  const avg = (pick) => mean(s.map(pick).filter(Number.isFinite));
  return {
    throughput: avg((x) => x.throughput),
    latencyMs: Object.fromEntries(['p50', 'p90', 'p95', 'p99', 'max', 'mean'].map((k) => [k, avg((x) => x.latencyMs[k])])),
    requests: s.reduce((a, x) => a + x.requests, 0),
    errors: s.reduce((a, x) => a + x.errors, 0),
    non2xx: s.reduce((a, x) => a + x.non2xx, 0),
    cpuPercent: avg((x) => x.cpuPercent),
    peakRssBytes: Math.max(...s.map((x) => x.peakRssBytes).filter(Number.isFinite)),
    connections: s[0].connections,
    rate: s[0].rate,
    durationSec: s[0].durationSec,
    method: 'per process: autocannon load over loopback, latencies recorded per response; throughput/CPU/latency averaged over processes, errors summed, peak RSS max'
  };
}
