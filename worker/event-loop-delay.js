'use strict';
// Event-loop delay: how late a 10 ms timer fires while the benchmark runs. Timer lateness is the
// one method every runtime has (monitorEventLoopDelay needs Node 11.10), so every runtime is
// measured the same way; the method is recorded with the figures.
var clock = require('./clock');

var INTERVAL_MS = 10;

function start() {
  var delays = [];
  var timer = null;
  var stopped = false;
  var expected = clock.now() + INTERVAL_MS * 1e6;
  function tick() {
    var now = clock.now();
    delays.push(Math.max(0, now - expected) / 1e6);
    expected = now + INTERVAL_MS * 1e6;
    if (!stopped) timer = setTimeout(tick, INTERVAL_MS);
  }
  timer = setTimeout(tick, INTERVAL_MS);
  return function stop() {
    stopped = true;
    clearTimeout(timer);
    var sorted = delays.slice().sort(function (a, b) { return a - b; });
    function at(q) { return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : null; }
    return {
      method: 'lateness of a ' + INTERVAL_MS + ' ms setTimeout chain',
      samples: sorted.length,
      p50Ms: at(0.5),
      p99Ms: at(0.99),
      maxMs: sorted.length ? sorted[sorted.length - 1] : null
    };
  };
}

module.exports = { start: start };
