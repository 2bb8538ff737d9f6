// How one service-suite launch is run and measured (the service counterpart of process/supervise.js launchWorker). The
// runtime under test runs worker/serve.js, which starts the suite's HTTP server on 127.0.0.1, port 0; this side drives it with autocannon over loopback only: a warm-up load that is
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
//                warmupSec, latencyMethod,
//                pinning: { server, load } (the cores) or { server: null, load: null, reason } } }
// The server and the load generator run on separate cores where taskset allows
// (service-process.js pinServiceCores).
// The launch is bounded by timeoutMs; killing and the port check after it add at most ~3 s.
// onListening({ pid, port }) is called once the service listens (tests use it).
// The load settings come from the worker's `listening` message: the benchmark's `load(params)` in
// the suite (suites/service: connections, durationSec, warmupSec, and rate for fixed-rate-1k only).
//
// The service process is service-process.js, the load driver load-driver.js, latency statistics
// stats/latency.js; run-loop.js records an ok outcome as a process of the cell (results/cell.js).
// (Ctrl-C: process/groups.js killAllGroups() kills service workers too; they share its registry.)
import { interpretLaunch } from './outcome.js';
import { startService, portClosed, bounded, WorkerEnded, TimedOut, pinServiceCores } from './service-process.js';
import { forget } from '../process/groups.js';
import { runLoad } from './load-driver.js';
import { latencySummary } from '../stats/latency.js';

const MIN_WINDOW_NS = 0.5e9;        // shorter windows (the tail after the last whole second) are not samples

function buildResult({ load, params, warmupMs, measured, metrics, pinning }) {
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
      latencyMethod: 'autocannon response time (hrtime, ms), every response; no coordinated-omission correction',
      pinning
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
  const cores = pinServiceCores();
  const pinning = cores.server === null ? { server: null, load: null, reason: cores.reason } : { server: cores.server, load: cores.load };
  const service = startService(nodePath, flags, { suite: suiteFile, benchmark, params }, { cwd, env, cpu: cores.server ?? undefined });
  if (cores.server !== null && service.cpu === null) {
    pinning.server = null;
    pinning.reason = 'the load generator was pinned, the server not (taskset not found by the worker launch)';
  }
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
    const result = buildResult({ load: profile, params: listening.params ?? params, warmupMs, measured, metrics, pinning });
    if (!result.measurement.samplesNsPerOp.length) {
      outcome = { status: 'failed', error: `no request completed in a whole ${profile.durationSec} s load window (errors: ${result.service.errors}, non-2xx: ${result.service.non2xx}); is the service answering?` };
    } else {
      outcome = { status: 'ok', result, hello };
    }
  } catch (err) {
    if (timedOut || err instanceof TimedOut) {
      outcome = { status: 'timeout', error: `did not finish within ${seconds(timeoutMs)}, so it was killed with its child processes; raise --timeout (run.timeoutSec in a matrix file) if it needs longer` };
    } else if (err instanceof WorkerEnded) {
      outcome = interpretEnded(service, await bounded(service.exited, 2000), timeoutMs);
    } else {
      outcome = { status: 'failed', error: `the load generator failed: ${err?.message ?? err}`, stack: err?.stack };
    }
  } finally {
    cores.restore();
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
  return { ...outcome, pid: service.pid, port, cpu: pinning.server ?? undefined, wallMs: Date.now() - started };
}
