'use strict';
// JSON serialisation and parsing costs from two production reports (see README.md):
//   Plaid: streaming a large debugging payload through a stringifier -> zlib deflate -> base64,
//          where bfj was several times slower than JSONStream;
//   WB Games: one JSON.parse per cached string per request, against parsing them joined as one array.
// Must load on Node 4: CommonJS, var/function only. bfj needs Node 8 and is required lazily.
var payload = require('./payload');
var serialise = require('./serialise');

var libraryVersion = require('../lib/library-version');

// Per-benchmark setups build only what the benchmark uses, outside every timed sample.
function withRecords(ctx, params) {
  return { params: params, records: payload.records(params.payloadKB, params.seed) };
}

function withStrings(ctx, params) {
  return { params: params, strings: payload.cachedStrings(params.documents, params.documentKB, params.seed) };
}

function withProfile(ctx, params) {
  return { params: params, text: JSON.stringify(payload.profile(params.profileKB, params.seed)) };
}

module.exports = {
  name: 'json',
  description: 'Streaming JSON serialisers before deflate (Plaid: bfj vs JSONStream) and JSON.parse per request (WB Games)',
  libraries: { bfj: libraryVersion('bfj'), JSONStream: libraryVersion('JSONStream') },
  // Serialising and parsing allocate heavily: a 10 ms sample holds a few scavenges or none, and
  // samples of one process varied 10-20% (JSONStream, stringify+deflate), enough to move a
  // process's median by 3.6% (default matrix, 2026-11-23). 25 ms samples hold several.
  sampler: { minSampleMs: 25 },
  params: {
    payloadKB: 64,       // size of the debugging payload (serialise benchmarks); Plaid's were a few MB
    documents: 20,       // cached JSON strings per request (parse-* benchmarks)
    documentKB: 4,       // size of each cached string
    profileKB: 16,       // size of the user profile (profile-roundtrip)
    requestTime: '2019-05-14T10:00:00.000Z',  // what profile-roundtrip writes as lastSeen
    seed: 1
  },
  benchmarks: {
    'JSON.stringify+deflate': {
      type: 'callback',
      setup: withRecords,
      fn: function (ctx, done) { serialise.plain(ctx.records, done); },
      description: 'JSON.stringify(payload) -> zlib.deflate -> base64, no streaming'
    },
    'JSONStream': {
      type: 'callback',
      setup: function (ctx, params) {
        var prepared = withRecords(ctx, params);
        prepared.JSONStream = require('JSONStream');
        return prepared;
      },
      fn: function (ctx, done) { serialise.jsonStream(ctx.JSONStream, ctx.records, done); },
      description: 'JSONStream.stringify over the records -> zlib deflate stream -> base64'
    },
    'bfj': {
      type: 'callback',
      minNode: '8.0.0',
      reason: 'bfj 7 is written for Node >= 8',
      setup: function (ctx, params) {
        var prepared = withRecords(ctx, params);
        prepared.bfj = require('bfj');
        return prepared;
      },
      fn: function (ctx, done) { serialise.bfjStream(ctx.bfj, ctx.records, {}, done); },
      description: 'bfj.streamify(payload) -> zlib deflate stream -> base64'
    },
    'parse-individual': {
      type: 'sync',
      setup: withStrings,
      fn: function (ctx) {
        var strings = ctx.strings;
        var parsed = new Array(strings.length);
        for (var i = 0; i < strings.length; i++) parsed[i] = JSON.parse(strings[i]);
        return parsed;
      },
      description: 'one JSON.parse per cached string'
    },
    'parse-aggregated': {
      type: 'sync',
      setup: withStrings,
      fn: function (ctx) { return JSON.parse('[' + ctx.strings.join(',') + ']'); },
      description: 'the cached strings joined into one array, parsed by one JSON.parse'
    },
    'profile-roundtrip': {
      type: 'sync',
      setup: withProfile,
      fn: function (ctx) {
        return JSON.stringify(payload.applyRequest(JSON.parse(ctx.text), ctx.params.requestTime));
      },
      description: 'per request: parse a user profile, update it, stringify it'
    }
  }
};
