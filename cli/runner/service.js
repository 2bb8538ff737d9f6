// How one service-suite process is launched, loaded and measured (the service counterpart of
// launch.js). The runtime under test runs worker/serve.js, which starts the suite's HTTP server on
// 127.0.0.1, port 0; this side drives it with autocannon over loopback only: a warm-up load that is
// excluded, then the measured window, bracketed by `start`/`stop` commands on the worker's stdin so
// the worker's CPU time covers exactly the load. The worker runs in its own process group and the
// whole group is killed in a `finally`, after which we check that its port refuses connections:
// success, failure and timeout alike leave no process and no port behind.
//
// runServiceLaunch(nodePath, flags, { suiteFile, benchmark, params }, { timeoutMs, cwd, env, onListening })
//   -> { status: 'ok' | 'failed' | 'unsupported' | 'timeout', error?, stack?, result?, hello?,
//        warning?, pid, port, wallMs, cleanup: { exitCode, signal, portClosed } }
// (cleanup.portClosed is null when the worker never listened.)
// result (on 'ok'):
//   { benchmarkType: 'service', params,
//     measurement: { samplesNsPerOp,       // one per whole 1 s window: window ns / requests completed
//                    iterationsPerSample: 1, calibrationBatches: 0,
//                    warmup: { batches: 0, ms, stable: true }, sampleMs,
//                    cpuNsPerOp, cpuMethod },   // the service's CPU time per request handled
//     memory: { peakRssBytes, peakRssMethod, rssBytes, heapUsedBytes, heapTotalBytes },
//     service: { requests, throughput (req/s), latencyMs: { p50, p90, p95, p99, max, mean },
//                errors (all, timeouts included), connectionErrors, timeouts, non2xx,
//                cpuPercent (of one core over the load window), cpuMs, wallMs, cpuMethod,
//                peakRssBytes, peakRssMethod, requestsHandled, connections, rate, durationSec,
//                warmupSec, latencyMethod } }
// The launch is bounded by timeoutMs; killing and the port check after it add at most ~3 s.
// onListening({ pid, port }) is called once the service listens (tests use it).
// The load settings come from the worker's `listening` message: the benchmark's `load(params)` in
// the suite (suites/service: connections, durationSec, warmupSec, and rate for fixed-rate-1k only).
//
// Wiring into run-plan.js (a suite whose describe() says `service: true`):
//   const outcome = await runServiceLaunch(runtime.path, cell.flags,
//     { suiteFile: suite.file, benchmark: cell.benchmark, params: suite.params }, { timeoutMs, cwd });
//   ok -> cell.benchmarkType = 'service'; cell.processes.push(processRecord(round, outcome.result, outcome.wallMs))
//   else -> cell.status = outcome.status; cell.error = outcome.error
// (Ctrl-C: process-group.js killAllGroups() kills service workers too; they share its registry.)
import net from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';
import { projectRoot } from '../paths.js';
import { interpretLaunch } from './outcome.js';
import { spawnWorker, killGroup, forget, keepTail, readChannel } from './process-group.js';

export const serveEntry = path.join(projectRoot, 'worker', 'serve.js');

const HOST = '127.0.0.1';
const MIN_WINDOW_NS = 0.5e9;        // shorter windows (the tail after the last whole second) are not samples
const REQUEST_TIMEOUT_SEC = 10;     // autocannon's per-request timeout: counted in `timeouts`

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function bounded(promise, ms) {
  let timer;
  return Promise.race([
    promise.then((v) => v, () => undefined),
    new Promise((resolve) => { timer = setTimeout(resolve, ms); })
  ]).finally(() => clearTimeout(timer));
}


// The worker ended (reported an error or unsupported, or exited) before sending what we waited for.
class WorkerEnded extends Error {}
class TimedOut extends Error {}

// Starts worker/serve.js and returns a handle:
//   { pid, messages, next(type) -> Promise<message>, send(command), kill(), exited, stdoutTail(), stderrTail() }
// next(type) rejects with WorkerEnded if the worker reports an error or unsupported, or exits first.
// The caller must call kill() (runServiceLaunch does, in a finally).
export function startService(nodePath, flags, request, { cwd, env } = {}) {
  const child = spawnWorker(nodePath, [...flags, serveEntry, JSON.stringify(request)], { stdin: 'pipe', cwd, env });
  const pid = child.pid;
  child.stdin.on('error', () => {}); // EPIPE when the worker is already gone
  const stdoutTail = keepTail(child.stdout);
  const stderrTail = keepTail(child.stderr);
  const messages = [];
  const waiters = [];
  let ended = false;

  const rejectAll = () => {
    for (const w of waiters.splice(0)) w.reject(new WorkerEnded('the service worker ended'));
  };
  const channelClosed = readChannel(child, (message) => {
    messages.push(message);
    for (const w of [...waiters]) {
      if (w.type === message.type) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(message);
      }
    }
    if (message.type === 'error' || message.type === 'unsupported') rejectAll();
  });
  const exited = child.then((r) => ({ exitCode: r.exitCode ?? null, signal: r.signal ?? null }));
  // Ended = exited and every report read (the channel closes with the process).
  exited.then(() => bounded(channelClosed, 1000)).then(() => {
    ended = true;
    forget(pid);
    rejectAll();
  });

  return {
    pid,
    messages,
    exited,
    stdoutTail,
    stderrTail,
    next(type) {
      const found = messages.find((m) => m.type === type);
      if (found) return Promise.resolve(found);
      if (ended || messages.some((m) => m.type === 'error' || m.type === 'unsupported')) {
        return Promise.reject(new WorkerEnded('the service worker ended'));
      }
      return new Promise((resolve, reject) => waiters.push({ type, resolve, reject }));
    },
    send(command) {
      if (!ended && child.stdin.writable) child.stdin.write(`${command}\n`);
    },
    kill() {
      return killGroup(pid);
    }
  };
}

// Resolves true once nothing accepts connections on 127.0.0.1:port (within waitMs).
export async function portClosed(port, waitMs = 2000) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const accepted = await new Promise((resolve) => {
      const socket = net.connect({ host: HOST, port });
      socket.setTimeout(500);
      socket.once('connect', () => { socket.destroy(); resolve(true); });
      socket.once('timeout', () => { socket.destroy(); resolve(true); });
      socket.once('error', () => resolve(false));
    });
    if (!accepted) return true;
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
}

function percentile(sorted, p) {
  if (!sorted.length) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

const round3 = (x) => (x === null || x === undefined ? null : Math.round(x * 1000) / 1000);

function latencySummary(latencies) {
  const sorted = Float64Array.from(latencies).sort();
  let sum = 0;
  for (const x of sorted) sum += x;
  return {
    p50: round3(percentile(sorted, 50)),
    p90: round3(percentile(sorted, 90)),
    p95: round3(percentile(sorted, 95)),
    p99: round3(percentile(sorted, 99)),
    max: round3(sorted.length ? sorted[sorted.length - 1] : null),
    mean: round3(sorted.length ? sum / sorted.length : null)
  };
}

// One autocannon run against the worker. Records every response's latency (ms, from hrtime: finer
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

function buildResult({ load, params, warmupMs, measured, metrics }) {
  const { result, latencies, windows } = measured;
  const samples = windows
    .filter((w) => w.ns >= MIN_WINDOW_NS && w.requests > 0)
    .map((w) => w.ns / w.requests);
  const windowNs = windows.reduce((sum, w) => sum + w.ns, 0);
  const requests = latencies.length;
  const errors = result.errors ?? 0;
  const timeouts = result.timeouts ?? 0;
  const handled = metrics.requestsHandled;
  const cpuNs = metrics.cpuMs === null ? null : metrics.cpuMs * 1e6;
  return {
    benchmarkType: 'service',
    params,
    measurement: {
      samplesNsPerOp: samples,
      iterationsPerSample: 1,
      calibrationBatches: 0,
      warmup: { batches: 0, ms: warmupMs, stable: true },
      sampleMs: windowNs / 1e6,
      cpuNsPerOp: cpuNs !== null && handled ? cpuNs / handled : null,
      cpuMethod: metrics.cpuMethod
    },
    memory: { ...metrics.memory, peakRssBytes: metrics.peakRssBytes, peakRssMethod: metrics.peakRssMethod },
    service: {
      requests,
      throughput: windowNs ? Math.round((requests / (windowNs / 1e9)) * 10) / 10 : 0,
      latencyMs: latencySummary(latencies),
      errors,
      connectionErrors: errors - timeouts,
      timeouts,
      non2xx: result.non2xx ?? 0,
      cpuPercent: metrics.cpuPercent === null ? null : Math.round(metrics.cpuPercent * 10) / 10,
      cpuMs: metrics.cpuMs,
      wallMs: metrics.wallMs,
      cpuMethod: metrics.cpuMethod,
      peakRssBytes: metrics.peakRssBytes,
      peakRssMethod: metrics.peakRssMethod,
      requestsHandled: handled,
      connections: load.connections,
      rate: load.rate,
      durationSec: load.durationSec,
      warmupSec: load.warmupSec,
      latencyMethod: 'autocannon response time (hrtime, ms), every response; no coordinated-omission correction'
    }
  };
}

function seconds(ms) {
  return ms < 10_000 ? `${Math.round(ms / 100) / 10} s` : `${Math.round(ms / 1000)} s`;
}

// The failure sentence for a worker that ended early, in the same words as a micro-benchmark cell.
function interpretEnded(service, exit, timeoutMs) {
  const launched = {
    messages: service.messages,
    timedOut: false,
    exitCode: exit?.exitCode ?? null,
    signal: exit?.signal ?? null,
    stderrTail: service.stderrTail()
  };
  const hasReport = service.messages.some((m) => m.type === 'error' || m.type === 'unsupported');
  if (!hasReport && launched.exitCode === 0 && !launched.signal) {
    return { status: 'failed', error: 'the service worker exited before reporting its metrics' };
  }
  return interpretLaunch(launched, { timeoutMs });
}

export async function runServiceLaunch(nodePath, flags, { suiteFile, benchmark, params = {} }, { timeoutMs = 60_000, cwd, env, onListening } = {}) {
  const started = Date.now();
  const service = startService(nodePath, flags, { suite: suiteFile, benchmark, params }, { cwd, env });
  let timedOut = false;
  let instance = null;       // the autocannon run in progress
  let loadDone = Promise.resolve();
  let port = null;
  let outcome;

  const stopLoad = () => {
    if (instance) instance.stop();
  };
  let onDeadline;
  const deadline = new Promise((resolve, reject) => { onDeadline = reject; });
  deadline.catch(() => {});
  const timer = setTimeout(() => {
    timedOut = true;
    service.kill();
    stopLoad();
    onDeadline(new TimedOut());
  }, timeoutMs);
  // A worker that dies mid-load ends the load too, instead of letting autocannon reconnect.
  service.exited.then(stopLoad);
  const within = (promise) => Promise.race([promise, deadline]);
  const load = async (args) => {
    const run = runLoad({ ...args, onInstance: (i) => { instance = i; } });
    loadDone = run.catch(() => {});
    try {
      return await within(run);
    } finally {
      stopLoad(); // a no-op for a run that finished; closes the connections of one that did not
      instance = null;
    }
  };

  try {
    const hello = await within(service.next('hello'));
    const listening = await within(service.next('listening'));
    port = listening.port;
    if (onListening) onListening({ pid: service.pid, port });
    const { load: profile, requests } = listening;
    let warmupMs = 0;
    if (profile.warmupSec > 0) {
      const warm = await load({ port, load: profile, requests, durationSec: profile.warmupSec });
      warmupMs = warm.wallMs;
    }
    service.send('start');
    await within(service.next('started'));
    const measured = await load({ port, load: profile, requests, durationSec: profile.durationSec });
    service.send('stop');
    const metrics = await within(service.next('service-metrics'));
    const result = buildResult({ load: profile, params: listening.params ?? params, warmupMs, measured, metrics });
    if (!result.measurement.samplesNsPerOp.length) {
      outcome = { status: 'failed', error: `no request completed in a whole ${profile.durationSec} s load window (errors: ${result.service.errors}, non-2xx: ${result.service.non2xx}); is the service answering?` };
    } else {
      outcome = { status: 'ok', result, hello };
    }
  } catch (err) {
    if (timedOut || err instanceof TimedOut) {
      outcome = { status: 'timeout', error: `did not finish within ${seconds(timeoutMs)}, so it was killed with its child processes; raise run.timeoutSec if it needs longer` };
    } else if (err instanceof WorkerEnded) {
      outcome = interpretEnded(service, await bounded(service.exited, 2000), timeoutMs);
    } else {
      outcome = { status: 'failed', error: `the load generator failed: ${err?.message ?? err}`, stack: err?.stack };
    }
  } finally {
    clearTimeout(timer);
    stopLoad();
    service.kill();
    // Its connections are closed; autocannon's own timers finish within 1 s and hold nothing.
    await bounded(loadDone, 100);
    const exit = await bounded(service.exited, 2000);
    forget(service.pid);
    outcome = outcome ?? { status: 'failed', error: 'interrupted' };
    outcome.cleanup = {
      exitCode: exit?.exitCode ?? null,
      signal: exit?.signal ?? null,
      portClosed: port === null ? null : await portClosed(port)
    };
  }
  if (outcome.cleanup.portClosed === false) {
    outcome.warning = `port ${port} still accepted connections after the service was killed`;
  }
  return { ...outcome, pid: service.pid, port, wallMs: Date.now() - started };
}
