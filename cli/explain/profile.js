// A .cpuprofile (V8's sampling profile, as the inspector's Profiler.stop and --cpu-prof write it)
// becomes self time per function per operation: the samples taken in the measured window, each
// function's share of them, times the ns per operation the same process measured in that window.
import path from 'node:path';
import { workerEntry } from '../paths.js';

const workerDir = path.dirname(workerEntry);

// One name per function across processes and, where it can be, across runtimes: user code by name
// and file:line:column; Node's own JavaScript by name and module (its line numbers move between
// releases, "node:internal/x" was "internal/x.js"); V8's entries ("(garbage collector)",
// "(program)", builtins without a script) by name.
export function functionIdentity(callFrame, { suiteDir } = {}) {
  const name = callFrame.functionName || '(anonymous)';
  const url = String(callFrame.url || '');
  // "(program)", "(garbage collector)", "(idle)", "(root)" are V8's own entries; a named function
  // without a script is a builtin or native function (V8 5.1 gives some its own name as url: "push").
  if (!url || String(callFrame.scriptId) === '0') return { key: `v8\u0000${name}`, name, location: /^\(.*\)$/.test(callFrame.functionName) ? '' : 'V8 builtin', kind: 'runtime' };
  const file = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
  // V8 5.x (Node 6) wrote builtins such as Promise and then in JavaScript, as scripts named
  // "native promise.js": the same functions later V8s sample as builtins without a script.
  const natives = /^native (\S+\.js)$/.exec(url);
  if (natives) return { key: `v8\u0000${name}`, name, location: `V8's ${natives[1]}`, kind: 'runtime' };
  if (file.startsWith(workerDir + path.sep)) {
    return { key: `harness\u0000${name}\u0000${path.basename(file)}`, name, location: `nodebench ${path.basename(file)} (harness: holds what V8 inlined into it)`, kind: 'harness' };
  }
  if (!path.isAbsolute(file)) {
    const module = file.replace(/^node:/, '').replace(/\.js$/, '');
    return { key: `node\u0000${name}\u0000${module}`, name, location: `node:${module}`, kind: 'node' };
  }
  const shown = suiteDir && !path.relative(suiteDir, file).startsWith('..') ? path.relative(suiteDir, file) : file;
  // A line of -1: V8 did not say where in the file (a function it compiled lazily, say).
  const location = callFrame.lineNumber >= 0 ? `${shown}:${callFrame.lineNumber + 1}:${callFrame.columnNumber + 1}` : shown;
  return { key: `user\u0000${name}\u0000${file}\u0000${callFrame.lineNumber}\u0000${callFrame.columnNumber}`, name, location, kind: 'user' };
}

// profile: the parsed .cpuprofile; windowUs: how many µs to keep, up to the end of the profile (the
// sampling window; the profiler ran a little longer before it: calibration of the warm second pass),
// or up to windowEndUs (on the profile's clock) when the profiler also ran on after the window.
// Returns { samples (in the window), totalSamples, byFunction: Map key -> { identity, samples } }.
export function selfSamples(profile, { windowUs = Infinity, windowEndUs, suiteDir } = {}) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const identities = new Map();
  const identityOf = (id) => {
    if (!identities.has(id)) identities.set(id, functionIdentity(nodes.get(id).callFrame, { suiteDir }));
    return identities.get(id);
  };
  const samples = profile.samples || [];
  const deltas = profile.timeDeltas || [];
  const times = new Array(samples.length);
  let t = profile.startTime;
  for (let i = 0; i < samples.length; i++) {
    t += deltas[i] || 0;
    times[i] = t;
  }
  const to = Number.isFinite(windowEndUs) ? windowEndUs : Infinity;
  const from = Number.isFinite(windowUs) ? (Number.isFinite(windowEndUs) ? windowEndUs : profile.endTime) - windowUs : -Infinity;
  const byFunction = new Map();
  let kept = 0;
  for (let i = 0; i < samples.length; i++) {
    if (times[i] < from || times[i] > to || !nodes.has(samples[i])) continue;
    const identity = identityOf(samples[i]);
    // The inspector's idle marker is time the thread waited, not CPU: kept, and named as such.
    const entry = byFunction.get(identity.key) || { identity, samples: 0 };
    entry.samples++;
    byFunction.set(identity.key, entry);
    kept++;
  }
  return { samples: kept, totalSamples: samples.length, byFunction };
}

// One profiled process: its functions' ns/op, and the ns/op one sample stands for (for the
// sampling floor of each function's variance in stats.js).
export function perOperation(counted, wallNsPerOp) {
  const nsPerSample = counted.samples > 0 ? wallNsPerOp / counted.samples : NaN;
  const functions = new Map();
  for (const [key, { identity, samples }] of counted.byFunction) functions.set(key, { identity, samples, nsPerOp: samples * nsPerSample });
  return { nsPerSample, functions };
}
