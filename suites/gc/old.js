'use strict';
// old-gen-marking: a large retained heap (params.retainedMB, built at setup) of many small linked
// objects, churned a little per op. Each op replaces whole linked lists with new nodes (which
// survive, get promoted, and leave the replaced nodes as old-generation garbage) and allocates
// short-lived garbage, so major GCs keep coming and each must mark the whole retained heap: the work
// that concurrent and parallel marking move off the main thread. Node-4-compatible.

// Rough heap cost of one retained node: the node object (4 in-object fields) plus its 3-element
// array, on a 64-bit V8 without pointer compression (about 56 + 56 bytes, rounded up).
var BYTES_PER_NODE = 128;

function RetainedNode(id, next, a, b) {
  this.id = id;
  this.next = next;
  this.data = [a, b, id & 1023];
  this.gen = 0;
}

// Deterministic value of node `i` of list `list` in generation `gen`.
function nodeValue(list, i, gen) {
  return ((list * 2654435761) ^ (i * 40503) ^ (gen * 97)) & 0x7fffffff;
}

function setup(suiteCtx, params) {
  var listLength = Math.max(16, params.listLength | 0);
  var nodes = Math.max(listLength, Math.floor(params.retainedMB * 1048576 / BYTES_PER_NODE));
  var listCount = Math.max(1, Math.floor(nodes / listLength));
  var lists = new Array(listCount);
  for (var l = 0; l < listCount; l++) {
    var head = null;
    for (var i = 0; i < listLength; i++) {
      var v = nodeValue(l, i, 0);
      head = new RetainedNode(l * listLength + i, head, v, v >>> 3);
    }
    lists[l] = head;
  }
  return {
    lists: lists,
    listLength: listLength,
    listsPerOp: Math.max(1, Math.min(listCount, params.listsPerOp | 0)),
    chunk: Math.max(1, params.chunk | 0),
    garbagePerNode: Math.max(0, params.garbagePerNode | 0),
    cursor: 0,
    generation: 0
  };
}

// Builds nodes [from, to) of a replacement list on top of `head`, allocating short-lived garbage on
// the way; returns the new head and adds to the running checksum in `acc`.
function buildChunk(ctx, listIndex, gen, from, to, head, acc) {
  var garbagePerNode = ctx.garbagePerNode;
  for (var i = from; i < to; i++) {
    var v = nodeValue(listIndex, i, gen);
    // Temporary objects and strings that die young, as request handling around the cache would.
    var tmp = null;
    for (var g = 0; g < garbagePerNode; g++) {
      tmp = { key: 'k' + listIndex + ':' + i + ':' + g, value: v + g, prev: tmp };
    }
    var node = new RetainedNode(listIndex * ctx.listLength + i, head, v, tmp ? tmp.value >>> 3 : v >>> 3);
    node.gen = gen;
    head = node;
    acc.sum = (acc.sum + (node.data[0] & 0xffff) + node.data[1] % 65521) % 2147483647;
    acc.nodes++;
  }
  return head;
}

function nextTarget(ctx) {
  var listIndex = ctx.cursor;
  ctx.cursor = (ctx.cursor + 1) % ctx.lists.length;
  if (ctx.cursor === 0) ctx.generation++;
  return listIndex;
}

// One op, synchronous: replace params.listsPerOp lists.
function churn(ctx) {
  var acc = { nodes: 0, sum: 0 };
  for (var n = 0; n < ctx.listsPerOp; n++) {
    var listIndex = nextTarget(ctx);
    var gen = ctx.generation + 1;
    ctx.lists[listIndex] = buildChunk(ctx, listIndex, gen, 0, ctx.listLength, null, acc);
  }
  return { replaced: acc.nodes, checksum: acc.sum };
}

// One op, asynchronous: the same replacements, built params.chunk nodes per event-loop turn
// (setImmediate), with a promise tick between lists; a new list is only linked in when complete.
function churnAsync(ctx, done) {
  var acc = { nodes: 0, sum: 0 };
  var remainingLists = ctx.listsPerOp;
  function nextList() {
    if (remainingLists-- === 0) return done(null, { replaced: acc.nodes, checksum: acc.sum });
    var listIndex = nextTarget(ctx);
    var gen = ctx.generation + 1;
    var head = null;
    var from = 0;
    function step() {
      var to = Math.min(ctx.listLength, from + ctx.chunk);
      head = buildChunk(ctx, listIndex, gen, from, to, head, acc);
      from = to;
      if (from < ctx.listLength) return setImmediate(step);
      ctx.lists[listIndex] = head;
      Promise.resolve().then(nextList);
    }
    setImmediate(step);
  }
  nextList();
}

module.exports = { setup: setup, churn: churn, churnAsync: churnAsync, BYTES_PER_NODE: BYTES_PER_NODE };
