// Profiling a runtime that has the inspector's Profiler but no inspector module (Node 6.3 to 7): the
// worker runs with --inspect on a free loopback port, and the host drives the Profiler over the
// inspector's WebSocket (the `ws` package: Node 20 has no WebSocket client of its own). The worker
// (worker/profile.js, request.hostProfiler) says on its report channel when it wants the profiler
// started and stopped, and waits until the host calls its hook back over Runtime.evaluate. The port
// lives in the worker and closes with it: the worker is launched as any worker (launchWorker), its
// whole group killed when it ends, and on any failure of the exchange at once.
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { WebSocket } from 'ws';
import { killGroup } from '../process/groups.js';
import { launchWorker } from '../process/supervise.js';
import { writeFileAtomic } from '../fs-atomic.js';

// Node 6 prints "…inspector.html?experiments=true&v8only=true&ws=127.0.0.1:PORT/ID", Node 8+
// "Debugger listening on ws://127.0.0.1:PORT/ID".
const LISTENING = /(?:[?&]ws=|ws:\/\/)(127\.0\.0\.1:\d+\/[0-9A-Za-z-]+)/;
// Node 6 says "Unable to open devtools socket: address already in use" and exits with code 12.
const FAILED_TO_LISTEN = /(?:Starting inspector on \S+ failed|Unable to open devtools socket)[^\n]*/;
const PORT_TAKEN = /address already in use/;
// What the host reads of the worker's stderr to find the address; the inspector prints it first.
const STDERR_SCAN_BYTES = 16 * 1024;
const CALL_TIMEOUT_MS = 30_000;

// A port nothing listens on now: another process may still take it before the worker does, which
// the worker's "Starting inspector … failed" then says.
export function freeLoopbackPort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// Node 6.17.1's Profiler (V8 5.1) answers with today's shape except that the sample intervals are
// called `timestampDeltas`; the kept .cpuprofile uses today's name, which DevTools, speedscope and
// profile.js read. A shape without a node list (older protocol revisions) is refused, not guessed.
export function modernProfile(profile) {
  if (!profile || !Array.isArray(profile.nodes)) throw new Error('the runtime\'s profile has no node list, a format nodebench does not read');
  if (profile.timeDeltas || !profile.timestampDeltas) return profile;
  const { timestampDeltas, ...rest } = profile;
  return { ...rest, timeDeltas: timestampDeltas };
}

// One inspector connection: call(method, params) -> result, in order, each bounded in time.
function openInspector(url) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false, handshakeTimeout: CALL_TIMEOUT_MS });
    const pending = new Map();
    let nextId = 1;
    const failAll = (err) => {
      for (const { reject: r, timer } of pending.values()) {
        clearTimeout(timer);
        r(err);
      }
      pending.clear();
    };
    socket.on('message', (data) => {
      let message;
      try {
        message = JSON.parse(String(data));
      } catch {
        return;
      }
      const waiting = pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id);
      clearTimeout(waiting.timer);
      if (message.error) waiting.reject(new Error(`${waiting.method}: ${message.error.message || JSON.stringify(message.error)}`));
      else waiting.resolve(message.result || {});
    });
    socket.on('close', () => failAll(new Error('the inspector connection closed')));
    socket.on('error', (err) => {
      failAll(err);
      reject(err);
    });
    socket.on('open', () => resolve({
      call(method, params = {}) {
        return new Promise((res, rej) => {
          const id = nextId++;
          const timer = setTimeout(() => {
            pending.delete(id);
            rej(new Error(`${method} got no answer within ${CALL_TIMEOUT_MS / 1000} s`));
          }, CALL_TIMEOUT_MS);
          pending.set(id, { resolve: res, reject: rej, timer, method });
          socket.send(JSON.stringify({ id, method, params }));
        });
      },
      close: () => socket.terminate()
    }));
  });
}

// Resolves with the inspector's address once the worker printed it; rejects if it said it could not
// listen or ended first.
function listeningAddress(child) {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk) => {
      if (text.length > STDERR_SCAN_BYTES) return;
      text += String(chunk);
      const address = LISTENING.exec(text);
      const failed = FAILED_TO_LISTEN.exec(text);
      if (!address && !failed) return;
      child.stderr.off('data', onData);
      if (failed) reject(new Error(`the runtime's inspector could not listen: ${failed[0].trim()}`));
      else resolve(`ws://${address[1]}`);
    };
    child.stderr.on('data', onData);
    child.nodebenchEnded.then(() => reject(new Error('the worker ended before its inspector listened')));
  });
}

// Launches one profiled worker with --inspect and drives its Profiler from here. request: the
// worker's profile request (without profileFile). Returns launchWorker's fields plus port, and
// profile (the modern .cpuprofile, also written to profileFile) or driverError.
// options.port: the port to try first (else a free one).
export async function launchInspected(nodePath, flags, request, options) {
  const launched = await launchOnce(nodePath, flags, request, options, options.port ?? await freeLoopbackPort());
  // Another process took the port between our look and the worker's bind: once more, on another.
  const portTaken = !launched.messages.length && PORT_TAKEN.test(launched.stderrTail || '');
  return portTaken ? launchOnce(nodePath, flags, request, options, await freeLoopbackPort()) : launched;
}

async function launchOnce(nodePath, flags, request, { timeoutMs, cwd, env, intervalUs, profileFile }, port) {
  const hook = `__nodebenchProfiler_${randomBytes(6).toString('hex')}`;
  let child = null;
  let connected = null;
  // The inspector's address is on the worker's stderr from its start, before it reads its request.
  const onSpawn = (spawned) => {
    child = spawned;
    connected = listeningAddress(child).then(openInspector);
    // Known to fail when the worker fails first; the exchange below reports it where it matters.
    connected.catch(() => {});
  };
  let inspector = null;
  let profile = null;
  let driverError = null;
  const callHook = async () => {
    const answer = await inspector.call('Runtime.evaluate', { expression: `typeof ${hook} === 'function' && ${hook}()` });
    if (answer.result?.value !== true) throw new Error('the worker was not waiting for the profiler');
  };
  const steps = {
    async start() {
      inspector = await connected;
      await inspector.call('Profiler.enable');
      await inspector.call('Profiler.setSamplingInterval', { interval: intervalUs });
      await inspector.call('Profiler.start');
      await callHook();
    },
    async stop() {
      const stopped = await inspector.call('Profiler.stop');
      profile = modernProfile(stopped.profile);
      // Renamed over its predictable name: a link or a FIFO planted there is replaced, not written.
      await writeFileAtomic(profileFile, JSON.stringify(profile));
      await callHook();
      inspector.close();
    }
  };
  let exchange = Promise.resolve();
  const onMessage = (message) => {
    if (message.type !== 'profiler-wanted' || !Object.hasOwn(steps, message.action)) return;
    exchange = exchange.then(() => !driverError && steps[message.action]()).catch((err) => {
      driverError ??= err;
      killGroup(child.pid);
    });
  };
  const launched = await launchWorker(nodePath, [...flags, `--inspect=127.0.0.1:${port}`], { ...request, hostProfiler: { hook } }, { timeoutMs, cwd, env, onSpawn, onMessage });
  await exchange;
  // Connected but never asked (the suite failed first): the worker is gone, the socket goes too.
  await connected.then((opened) => opened.close(), () => {});
  return { ...launched, port, profile, driverError };
}
