'use strict';
// process.hrtime() is the one monotonic high-resolution clock every runtime from Node 4 on has
// (hrtime.bigint needs 10.7), so every runtime's batches are timed by the same code.
//
// Per-call timing (worker/sampler.js, for forms that need work between calls) reads the clock
// twice per call, so its cost matters: there hrtime.bigint, where the runtime has it, allocates
// one value instead of an array. Differences from a start taken at load keep the numbers far
// below 2^53 whatever the machine's uptime. No BigInt literal: Node 4 must parse this file.

function now() {
  var t = process.hrtime();
  return t[0] * 1e9 + t[1];
}

function since(startNs) {
  return now() - startNs;
}

var hasBigint = typeof process.hrtime.bigint === 'function';
var bigintOrigin = hasBigint ? process.hrtime.bigint() : null;

var callNow = hasBigint
  ? function () { return Number(process.hrtime.bigint() - bigintOrigin); }
  : now;

// What reading the clock around nothing measures: the median, over rounds of 1000 back-to-back
// pairs, of the mean difference of a pair. A call timed alone is measured this much too long.
function callClockCostNs() {
  var rounds = [];
  for (var r = 0; r < 21; r++) {
    var total = 0;
    for (var i = 0; i < 1000; i++) {
      var a = callNow();
      total += callNow() - a;
    }
    rounds.push(total / 1000);
  }
  rounds.sort(function (x, y) { return x - y; });
  return rounds[10];
}

// The smallest step the clock shows, found by spinning until it changes (median of several tries).
function resolutionNs() {
  var steps = [];
  for (var i = 0; i < 25; i++) {
    var a = now();
    var b = now();
    while (b === a) b = now();
    steps.push(b - a);
  }
  steps.sort(function (x, y) { return x - y; });
  return steps[Math.floor(steps.length / 2)];
}

module.exports = {
  now: now,
  since: since,
  resolutionNs: resolutionNs,
  callNow: callNow,
  callClockCostNs: callClockCostNs,
  callClockName: hasBigint ? 'process.hrtime.bigint' : 'process.hrtime'
};
