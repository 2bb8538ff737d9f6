// The load generator of a service launch: autocannon over loopback against the service worker.
import autocannon from 'autocannon';
import { HOST } from './service-process.js';

const REQUEST_TIMEOUT_SEC = 10;     // autocannon's per-request timeout: counted in `timeouts`

export // One autocannon run against the worker. Records every response's latency (ms, from hrtime: finer
// than autocannon's whole-millisecond histogram) and the requests completed in each ~1 s window.
// onInstance receives { stop() }: it ends the run at once (closing every connection) instead of at
// autocannon's next 1 s tick, so an aborted run neither waits nor keeps reconnecting to a dead port.
function runLoad({ port, load, requests, durationSec, onInstance }) {
  const clients = [];
  const opts = {
    url: `http://${HOST}:${port}`,
    connections: load.connections,
    duration: durationSec,
    timeout: REQUEST_TIMEOUT_SEC,
    setupClient: (client) => { clients.push(client); },
    requests: requests.map((r) => ({ method: r.method, path: r.path, headers: r.headers, body: r.body }))
  };
  if (load.rate) opts.overallRate = load.rate;
  const latencies = [];
  const windows = [];
  const started = process.hrtime.bigint();
  let windowStart = started;
  let count = 0;
  const instance = autocannon(opts);
  onInstance({
    stop() {
      instance.stop();
      for (const client of clients) client.destroy();
    }
  });
  instance.on('response', (client, statusCode, bytes, ms) => {
    count++;
    latencies.push(ms);
  });
  instance.on('tick', () => {
    const now = process.hrtime.bigint();
    windows.push({ ns: Number(now - windowStart), requests: count });
    windowStart = now;
    count = 0;
  });
  return instance.then((result) => {
    const now = process.hrtime.bigint();
    if (count) windows.push({ ns: Number(now - windowStart), requests: count });
    return { result, latencies, windows, wallMs: Number(now - started) / 1e6 };
  });
}
