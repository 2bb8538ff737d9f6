'use strict';
// young-gen-churn: many concurrent in-flight tasks, each parsing a payload of records into
// short-lived objects and carrying them across a few async hops (setImmediate, promise ticks).
// While tasks are in flight their records are alive, so a scavenge that runs then must copy
// them (and promote those that survive twice): the cost Plaid's workers paid until they raised
// --max-semi-space-size. Node-4-compatible (see suites/README.md).

var prng = require('../lib/random').prng;

var CATEGORIES = ['Food and Drink', 'Travel', 'Transfer', 'Payment', 'Shops', 'Recreation',
  'Service', 'Healthcare', 'Bank Fees', 'Community'];
var MERCHANTS = ['Blue Bottle', 'United Airlines', 'Uber', 'Whole Foods', 'Shell', 'Amazon',
  'Netflix', 'Walgreens', 'Target', 'Starbucks', 'Delta', 'Lyft'];
var TAGS = ['recurring', 'online', 'pending', 'card', 'ach', 'wire', 'refund', 'intl'];

function pad(n, width) {
  var s = String(n);
  while (s.length < width) s = '0' + s;
  return s;
}

// params.payloads distinct JSON payloads (one is reused by every task whose index maps to it), each
// an array of params.recordsPerTask transaction records, as a bank-data API would return them.
function buildPayloads(params) {
  var random = prng(params.seed);
  var count = Math.max(1, params.payloads | 0);
  var perTask = Math.max(1, params.recordsPerTask | 0);
  var payloads = [];
  var id = 0;
  for (var p = 0; p < count; p++) {
    var records = [];
    for (var r = 0; r < perTask; r++) {
      var cents = Math.floor(random() * 250000);
      var tags = [];
      var tagCount = 1 + Math.floor(random() * 3);
      for (var t = 0; t < tagCount; t++) tags.push(TAGS[Math.floor(random() * TAGS.length)]);
      records.push({
        transaction_id: 'txn_' + pad(++id, 8) + '_' + Math.floor(random() * 1e9).toString(36),
        account_id: 'acc_' + Math.floor(random() * 1e6).toString(36),
        amount: Math.floor(cents / 100) + '.' + pad(cents % 100, 2),
        iso_currency_code: 'USD',
        category: CATEGORIES[Math.floor(random() * CATEGORIES.length)],
        merchant_name: MERCHANTS[Math.floor(random() * MERCHANTS.length)] + ' #' + Math.floor(random() * 900 + 100),
        tags: tags.join(','),
        date: '2024-' + pad(1 + Math.floor(random() * 12), 2) + '-' + pad(1 + Math.floor(random() * 28), 2) +
          'T' + pad(Math.floor(random() * 24), 2) + ':' + pad(Math.floor(random() * 60), 2) + ':00Z'
      });
    }
    payloads.push(JSON.stringify(records));
  }
  return payloads;
}

// Hop 2 work: normalise one parsed record (new strings, a new array, a new object).
function normalize(raw) {
  var amount = raw.amount.split('.');
  return {
    id: raw.transaction_id,
    account: raw.account_id.toUpperCase(),
    cents: parseInt(amount[0], 10) * 100 + parseInt(amount[1], 10),
    currency: raw.iso_currency_code,
    category: raw.category.toLowerCase().split(' ').join('-'),
    merchant: raw.merchant_name.split(' #')[0],
    tags: raw.tags.split(','),
    day: raw.date.slice(0, 10)
  };
}

// Hop 3 work: group by category and day into temporary arrays, then summarise.
function summarize(normalized) {
  var groups = Object.create(null);
  var keys = [];
  for (var i = 0; i < normalized.length; i++) {
    var rec = normalized[i];
    var key = rec.category + '|' + rec.day;
    var group = groups[key];
    if (!group) {
      group = groups[key] = [];
      keys.push(key);
    }
    group.push(rec);
  }
  var records = 0;
  var cents = 0;
  var tagCount = 0;
  for (var k = 0; k < keys.length; k++) {
    var list = groups[keys[k]];
    for (var j = 0; j < list.length; j++) {
      records++;
      cents += list[j].cents;
      tagCount += list[j].tags.length;
    }
  }
  return { records: records, cents: cents, tags: tagCount, groups: keys.length };
}

// Hop 4 work: one output line per record (as a log or export writer would build them).
function formatLines(normalized) {
  var lines = new Array(normalized.length);
  for (var i = 0; i < normalized.length; i++) {
    var rec = normalized[i];
    lines[i] = rec.day + ' ' + rec.account + ' ' + rec.category + ' ' + rec.merchant + ' ' +
      (rec.cents / 100).toFixed(2) + ' ' + rec.currency + ' [' + rec.tags.join(' ') + '] ' + rec.id;
  }
  return lines;
}

function immediately(value) {
  return new Promise(function (resolve) {
    setImmediate(function () { resolve(value); });
  });
}

// One task, five hops; everything it builds stays reachable from `state` until its last hop, as a
// request's working data does while the request is in flight:
//   setImmediate -> JSON.parse; promise tick -> normalise; setImmediate -> format lines;
//   promise tick -> group and summarise; setImmediate -> join the output, done.
function task(payload) {
  var state = { parsed: null, normalized: null, lines: null, summary: null };
  return immediately(payload).then(function (text) {
    state.parsed = JSON.parse(text);
    return state.parsed;
  }).then(function (parsed) {
    state.normalized = parsed.map(normalize);
    return immediately(state.normalized);
  }).then(function (normalized) {
    state.lines = formatLines(normalized);
    return state.lines;
  }).then(function () {
    state.summary = summarize(state.normalized);
    return immediately(state);
  }).then(function (done) {
    var output = done.lines.join('\n');
    done.summary.bytes = output.length;
    return done.summary;
  });
}

function total(summaries) {
  var out = { tasks: summaries.length, records: 0, cents: 0, tags: 0, bytes: 0 };
  for (var i = 0; i < summaries.length; i++) {
    out.records += summaries[i].records;
    out.cents += summaries[i].cents;
    out.tags += summaries[i].tags;
    out.bytes += summaries[i].bytes;
  }
  return out;
}

// One op: params.tasksPerOp tasks run through a pool that keeps params.inflight of them in flight
// (a new task starts as soon as one completes), so at any moment about params.inflight tasks hold
// their records; resolves when all are done with the op's checksum (tasks, records, total cents,
// tag count), the same on every runtime.
function batch(ctx) {
  return new Promise(function (resolve, reject) {
    var summaries = new Array(ctx.tasksPerOp);
    var started = 0;
    var finished = 0;
    var failed = false;
    function start() {
      var index = started++;
      task(ctx.payloads[index % ctx.payloads.length]).then(function (summary) {
        summaries[index] = summary;
        finished++;
        if (finished === ctx.tasksPerOp) return resolve(total(summaries));
        if (started < ctx.tasksPerOp) start();
      }, function (err) {
        if (!failed) reject(err);
        failed = true;
      });
    }
    var first = Math.min(ctx.inflight, ctx.tasksPerOp);
    for (var i = 0; i < first; i++) start();
  });
}

function setup(suiteCtx, params) {
  var inflight = Math.max(1, params.inflight | 0);
  return {
    payloads: buildPayloads(params),
    inflight: inflight,
    tasksPerOp: Math.max(inflight, params.tasksPerOp | 0)
  };
}

module.exports = { setup: setup, batch: batch, prng: prng };
