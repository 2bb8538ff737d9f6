'use strict';
// process.hrtime() is the one monotonic high-resolution clock every runtime from Node 4 on has
// (hrtime.bigint needs 10.7), so every runtime is timed by the same code.

function now() {
  var t = process.hrtime();
  return t[0] * 1e9 + t[1];
}

function since(startNs) {
  return now() - startNs;
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

module.exports = { now: now, since: since, resolutionNs: resolutionNs };
