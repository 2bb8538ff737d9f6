'use strict';
// Keeping a benchmark's work alive, on every runtime from Node 4 to the newest (require it as
// 'nodebench/blackhole' from your own suite). nodebench already keeps what a benchmark returns, so
// returning the result is enough for that value; these two are for what the return value cannot
// carry:
//   consume(value)  a value computed and not returned (inside a loop, say): stored where the
//                   optimiser cannot prove it unused, so its computation cannot be removed;
//   opaque(value)   returns its argument through a slot the optimiser cannot see through, so a
//                   constant passed in is not a constant in the compiled code and the work on it is
//                   not folded away at compile time.
// Both cost a store (and opaque a load) per call, about a nanosecond; the empty-benchmark check
// (docs/statistics.md, "optimized away") says when a benchmark still costs no more than its loop.
var ring = [];
for (var i = 0; i < 16; i++) ring.push(undefined);
var next = 0;

function consume(value) {
  next = (next + 1) & 15;
  ring[next] = value;
  return value;
}

// Written through one index and read through another that the compiled code cannot prove equal.
// Both change on every call (always equal to each other): newer V8s (Node 22, 24) treat a module
// variable that is never reassigned as a constant, and then fold the read into the write.
var slots = [undefined, undefined];
var writeAt = 0;
var readAt = 0;

function opaque(value) {
  writeAt ^= 1;
  readAt ^= 1;
  slots[writeAt] = value;
  return slots[readAt];
}

module.exports = { consume: consume, opaque: opaque };
