'use strict';
// Deterministic data for suites: the same seed gives the same sequence on every runtime (no
// Math.random), so every runtime works on the same input. Node-4-compatible.

// mulberry32: a small seeded PRNG returning floats in [0, 1).
function prng(seed) {
  var state = (seed >>> 0) || 1;
  return function () {
    state = (state + 0x6D2B79F5) | 0;
    var t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

module.exports = { prng: prng };
