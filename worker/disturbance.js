'use strict';
// What the worker can see of a disturbed machine, read outside the timed code (Node-4-compatible):
//   reference       a fixed number of clock reads timed after every sample: when the host's other
//                   tenants slow the whole VM, it slows with it, although nothing inside the VM
//                   competes (docs/precision.md, "where the noise comes from");
//   run-queue wait  /proc/self/schedstat: ns this process was runnable but not running, i.e. another
//                   process of this machine held its CPU during the sample;
//   steal           /proc/stat: ticks the hypervisor gave this VM's CPUs to someone else.
// The host decides what counts as disturbed (cli/stats/disturbance.js); the worker only measures.
var fs = require('fs');

// The reference is the cost of reading the clock: a call into the runtime's native code that
// allocates its result. On this project's VM the slow periods that come from the host's other
// tenants slowed it 1.5-1.7x, in step with allocation-heavy benchmarks (1.7-1.9x), while a pure
// integer loop slowed only ~1.1x: it measures what the benchmarks suffer from. Fixed in count, so
// that every process of one runtime times the same work (~0.2-1 ms).
var REFERENCE_CALLS = 2000;
var referenceSink = 0;

// ns for one run of the reference.
function timeReference() {
  var start = process.hrtime();
  var last = start;
  for (var i = 0; i < REFERENCE_CALLS; i++) last = process.hrtime();
  referenceSink ^= last[1];
  return (last[0] - start[0]) * 1e9 + (last[1] - start[1]);
}

function readFileOrNull(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    return null;
  }
}

// Cumulative ns this process waited on a run queue, or null where the kernel does not say.
function runQueueWaitNs() {
  var text = readFileOrNull('/proc/self/schedstat');
  if (!text) return null;
  var wait = Number(text.split(' ')[1]);
  return isFinite(wait) ? wait : null;
}

// Cumulative steal and total ticks of all CPUs, or null off Linux.
function cpuTicks() {
  var text = readFileOrNull('/proc/stat');
  if (!text) return null;
  var fields = text.slice(0, text.indexOf('\n')).split(/\s+/).slice(1).map(Number);
  var total = 0;
  for (var i = 0; i < fields.length && i < 8; i++) total += fields[i] || 0;
  return { steal: fields[7] || 0, total: total };
}

// Warms the reference loop up so that the first sample's reading is not the interpreter's.
function warmReference() {
  for (var i = 0; i < 5; i++) timeReference();
}

// Call around the sampling phase: start() before the first sample, sample(elapsed) after each, end()
// after the last. Returns the per-sample readings and the whole window's steal share.
function recorder() {
  var referenceNs = [];
  var waitNs = [];
  var lastWait = null;
  var ticksStart = null;
  return {
    start: function () {
      warmReference();
      ticksStart = cpuTicks();
      lastWait = runQueueWaitNs();
    },
    // Before a sample's timed batch: the wait so far, so that the delta covers the batch only.
    beforeSample: function () {
      lastWait = runQueueWaitNs();
    },
    afterSample: function () {
      var wait = runQueueWaitNs();
      waitNs.push(wait !== null && lastWait !== null ? wait - lastWait : null);
      referenceNs.push(timeReference());
    },
    end: function () {
      var ticksEnd = cpuTicks();
      var steal = ticksStart && ticksEnd && ticksEnd.total > ticksStart.total
        ? (ticksEnd.steal - ticksStart.steal) / (ticksEnd.total - ticksStart.total) : null;
      return {
        referenceNs: referenceNs,
        referenceIterations: REFERENCE_CALLS,
        runQueueWaitNs: waitNs,
        stealShare: steal,
        method: 'reference: ' + REFERENCE_CALLS + ' process.hrtime() calls timed after each sample; ' +
          'wait: /proc/self/schedstat run-queue delay during each sample; steal: /proc/stat over the sampling window'
      };
    }
  };
}

module.exports = { recorder: recorder, timeReference: timeReference, sink: function () { return referenceSink; } };
