'use strict';
// log-service: the log-analysis service of the concurrent-marking finding, reduced to what its
// garbage collector sees. It keeps a large index of parsed log entries alive (params.indexMB of
// small objects, built at setup, a few entries replaced per request: it changes slowly), and serves
// requests at a fixed rate (params.requestsPerSecond, on timers, whatever the runtime's speed), each
// ingesting params.entriesPerRequest new entries into a buffer of recent ones (params.recentMB,
// overwritten in turn) and answering a query that reads params.queryEntries index entries (the
// work that keeps the service's main thread busy, as the real one's was).
//
// Why this isolates marking: every entry lives longer than a scavenge, so V8 allocates them straight
// into the old generation (allocation-site pretenuring) and scavenges stay rare and cheap. The old
// generation grows by the ingest rate until V8 starts a major GC, which must mark the whole live
// index: with concurrent marking that work runs on helper threads, without it on the main thread,
// between and during the requests, where it shows as event-loop delay. Because requests come at a
// fixed rate, every runtime allocates the same bytes per second, so GC time per second compares.
// Node-4-compatible (see suites/README.md).

var HOSTS = ['api-1', 'api-2', 'api-3', 'db-1', 'db-2', 'cache-1', 'worker-1', 'worker-2'];
var PATHS = ['/v1/items', '/v1/items/:id', '/v1/search', '/v1/users/:id', '/health', '/v2/export'];

// Rough heap cost of one entry: the entry object (8 in-object fields) and its 2-element array on a
// 64-bit V8 without pointer compression; measured ≈ 160 bytes per entry of heapUsed (README.md).
var BYTES_PER_ENTRY = 160;

// A request may be this late before the schedule restarts from now instead of catching up: after
// a longer stall (a debugger, a suspended machine, a host that took the CPU away) a burst of
// catch-up requests would read as a faster runtime in a timing sample.
var MAX_BACKLOG_MS = 250;

function nowMs() {
  var t = process.hrtime();
  return t[0] * 1e3 + t[1] / 1e6;
}

// Deterministic fields of entry `seq`, the same on every runtime.
function hashA(seq) { return Math.imul(seq, 2654435761) >>> 0; }
function hashB(seq) { return Math.imul(seq ^ 0x5bd1e995, 40503) >>> 0; }

// One parsed log line. Every entry is made here, so that V8 sees one allocation site whose objects
// all survive and pretenures it.
function makeEntry(seq) {
  var a = hashA(seq);
  var b = hashB(seq);
  return {
    seq: seq,
    host: HOSTS[a & 7],
    path: PATHS[a % 6],
    status: (a & 31) === 0 ? 500 : 200,
    latencyUs: b & 0xffff,
    bytes: (b >>> 8) & 0xfffff,
    fields: [a & 1023, b & 1023]
  };
}

// `count` entries from sequence number `first`, in buckets of BUCKET entries (as an index keeps
// them per host and minute). Many small arrays rather than one large one, so that V8's marker can
// spread them over its threads: one large array is scanned by one thread at a time.
var BUCKET = 128;

function buckets(count, first) {
  var out = [];
  for (var start = 0; start < count; start += BUCKET) {
    var bucket = new Array(Math.min(BUCKET, count - start));
    for (var i = 0; i < bucket.length; i++) bucket[i] = makeEntry(first + start + i);
    out.push(bucket);
  }
  return out;
}

function setup(suiteCtx, params) {
  var indexCount = Math.max(BUCKET, Math.floor(params.indexMB * 1048576 / BYTES_PER_ENTRY));
  var recentCount = Math.max(BUCKET, Math.floor(params.recentMB * 1048576 / BYTES_PER_ENTRY));
  var rate = Number(params.requestsPerSecond);
  if (!(rate > 0)) throw new Error('params.requestsPerSecond must be a positive number, not ' + params.requestsPerSecond);
  return {
    index: buckets(indexCount, 0),
    recent: buckets(recentCount, indexCount),
    bucket: 0,
    slot: 0,
    seq: indexCount + recentCount,
    perRequest: Math.max(1, params.entriesPerRequest | 0),
    updates: Math.max(0, params.indexUpdatesPerRequest | 0),
    queries: Math.max(0, params.queryEntries | 0),
    periodMs: 1000 / rate,
    nextAt: null
  };
}

// The entry of `buckets` that a hash picks.
function pick(list, hash) {
  var bucket = list[hash % list.length];
  return { bucket: bucket, at: (hash >>> 12) % bucket.length };
}

// The work of one request; returns its checksum.
function serve(ctx) {
  var recent = ctx.recent;
  var sum = 0;
  // Ingest: overwrite the oldest recent entries, bucket by bucket.
  for (var k = 0; k < ctx.perRequest; k++) {
    var bucket = recent[ctx.bucket];
    var entry = makeEntry(ctx.seq++);
    sum = (sum + bucket[ctx.slot].latencyUs + entry.fields[0]) % 2147483647;
    bucket[ctx.slot] = entry;
    if (++ctx.slot === bucket.length) {
      ctx.slot = 0;
      ctx.bucket = ctx.bucket + 1 === recent.length ? 0 : ctx.bucket + 1;
    }
  }
  // The index changes slowly: a few entries replaced per request.
  for (var u = 0; u < ctx.updates; u++) {
    var seq = ctx.seq++;
    var place = pick(ctx.index, hashA(seq));
    sum = (sum + place.bucket[place.at].bytes) % 2147483647;
    place.bucket[place.at] = makeEntry(seq);
  }
  // The query: errors and bytes among entries picked from the index; its summary dies young.
  var summary = { matched: 0, errors: 0, bytes: 0 };
  for (var q = 0; q < ctx.queries; q++) {
    var hit = pick(ctx.index, hashB(ctx.seq + q));
    var found = hit.bucket[hit.at];
    summary.matched++;
    if (found.status === 500) summary.errors++;
    summary.bytes += found.bytes;
  }
  return (sum + summary.errors * 7 + summary.bytes % 65521) % 2147483647;
}

// One op: the next request of the fixed-rate schedule, served when it is due (at once when the
// service is behind, as a queue of waiting requests would be).
function request(ctx, done) {
  var now = nowMs();
  if (ctx.nextAt === null || now - ctx.nextAt > MAX_BACKLOG_MS) ctx.nextAt = now;
  var due = ctx.nextAt;
  ctx.nextAt += ctx.periodMs;
  function respond() { done(null, serve(ctx)); }
  if (due - now >= 1) setTimeout(respond, Math.round(due - now));
  else setImmediate(respond);
}

module.exports = { setup: setup, request: request, serve: serve, BYTES_PER_ENTRY: BYTES_PER_ENTRY };
