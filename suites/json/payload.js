'use strict';
// Deterministic test documents for the json suite: the same parameters give the same documents on
// every runtime (a seeded PRNG, integer arithmetic, no Math.random, no clock), so results compare
// across Node versions and tests on the host can rebuild exactly what a worker built.
// Runs on Node 4 and newer (and is required by host-side tests): var/function only.

var prng = require('../lib/random').prng;

function int(rng, min, max) {
  return min + Math.floor(rng() * (max - min + 1));
}

function pick(rng, list) {
  return list[Math.floor(rng() * list.length)];
}

function money(rng, max) {
  return Math.round(rng() * max * 100) / 100;
}

function hex(rng, length) {
  var s = '';
  while (s.length < length) s += Math.floor(rng() * 4294967296).toString(16);
  return s.slice(0, length);
}

var BASE_TIME = Date.UTC(2019, 4, 14, 9, 30, 0);

function isoTime(rng, spreadMs) {
  return new Date(BASE_TIME + Math.floor(rng() * spreadMs)).toISOString();
}

var WORDS = ['coffee', 'grocery', 'transfer', 'payroll', 'rent', 'uber', 'airline', 'refund',
  'subscription', 'ATM', 'deposit', 'interest', 'fee', 'pharmacy', 'restaurant', 'hardware',
  'café', 'Zürich', 'naïve', '€ payment', 'gas station', 'bookstore', 'parking', 'utility'];

// Free text with the characters a serialiser must escape (quotes, backslashes, newlines, tabs)
// and some non-ASCII, as real descriptions and error messages have.
function text(rng, words) {
  var parts = [];
  for (var i = 0; i < words; i++) parts.push(pick(rng, WORDS));
  var s = parts.join(' ');
  var r = rng();
  if (r < 0.15) s += ' "memo: ' + pick(rng, WORDS) + '"';
  else if (r < 0.25) s += '\n\tref\\' + hex(rng, 6);
  return s;
}

var METHODS = ['GET', 'GET', 'GET', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH'];
var RESOURCES = ['accounts', 'transactions', 'balance', 'identity', 'auth', 'items', 'institutions', 'webhooks'];
var CATEGORIES = ['Food and Drink', 'Travel', 'Transfer', 'Payment', 'Shops', 'Recreation', 'Service', 'Healthcare'];
var CURRENCIES = ['USD', 'EUR', 'GBP', 'CAD'];
var STATUSES = [200, 200, 200, 200, 201, 204, 400, 401, 404, 429, 500, 502];

function headers(rng, isResponse) {
  var h = {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': hex(rng, 32)
  };
  if (isResponse) {
    h['cache-control'] = 'no-store';
    h['x-ratelimit-remaining'] = String(int(rng, 0, 1000));
    h.date = new Date(BASE_TIME + int(rng, 0, 86400000)).toUTCString();
  } else {
    h['user-agent'] = 'worker/' + int(rng, 1, 9) + '.' + int(rng, 0, 30) + ' node';
    h.authorization = 'Bearer ' + hex(rng, 40);
    h.accept = 'application/json';
  }
  return h;
}

function transaction(rng) {
  var categories = [];
  var n = int(rng, 1, 3);
  for (var i = 0; i < n; i++) categories.push(pick(rng, CATEGORIES));
  return {
    transaction_id: hex(rng, 24),
    account_id: hex(rng, 16),
    amount: money(rng, 2500),
    iso_currency_code: pick(rng, CURRENCIES),
    date: isoTime(rng, 90 * 86400000).slice(0, 10),
    name: text(rng, int(rng, 2, 6)),
    pending: rng() < 0.1,
    category: categories,
    location: rng() < 0.6 ? {
      city: pick(rng, ['San Francisco', 'New York', 'London', 'Salt Lake City', 'Montréal']),
      lat: Math.round((rng() * 180 - 90) * 1e6) / 1e6,
      lon: Math.round((rng() * 360 - 180) * 1e6) / 1e6,
      store_number: rng() < 0.5 ? String(int(rng, 100, 9999)) : null
    } : null
  };
}

function account(rng) {
  return {
    account_id: hex(rng, 16),
    name: pick(rng, ['Checking', 'Savings', 'Credit Card', 'Brokerage']) + ' ' + int(rng, 1000, 9999),
    balances: { available: money(rng, 20000), current: money(rng, 20000), limit: rng() < 0.3 ? money(rng, 50000) : null },
    type: pick(rng, ['depository', 'credit', 'investment']),
    mask: String(int(rng, 1000, 9999))
  };
}

// One request/response record as a debugging payload would hold it.
function record(rng, index) {
  var method = pick(rng, METHODS);
  var resource = pick(rng, RESOURCES);
  var status = pick(rng, STATUSES);
  var accounts = [];
  var transactions = [];
  var nAccounts = int(rng, 1, 3);
  var nTransactions = status < 300 ? int(rng, 0, 8) : 0;
  for (var a = 0; a < nAccounts; a++) accounts.push(account(rng));
  for (var t = 0; t < nTransactions; t++) transactions.push(transaction(rng));
  var dns = Math.round(rng() * 5000) / 1000;
  var connect = Math.round(rng() * 20000) / 1000;
  var ttfb = Math.round(rng() * 400000) / 1000;
  return {
    id: 'req-' + index,
    startedAt: isoTime(rng, 86400000),
    method: method,
    url: 'https://api.example.com/v2/' + resource + '/' + hex(rng, 12) + '?count=' + int(rng, 1, 500) + '&offset=' + int(rng, 0, 5000),
    request: {
      headers: headers(rng, false),
      body: method === 'GET' || method === 'DELETE' ? null : {
        client_id: hex(rng, 24),
        access_token: 'access-' + hex(rng, 36),
        options: { count: int(rng, 1, 500), offset: int(rng, 0, 5000), include_personal_finance_category: rng() < 0.5 }
      }
    },
    response: {
      status: status,
      headers: headers(rng, true),
      body: status < 300 ? {
        accounts: accounts,
        transactions: transactions,
        total_transactions: nTransactions + int(rng, 0, 500),
        item: { item_id: hex(rng, 24), institution_id: 'ins_' + int(rng, 1, 200000), webhook: '', error: null }
      } : {
        error_type: pick(rng, ['INVALID_REQUEST', 'RATE_LIMIT_EXCEEDED', 'API_ERROR', 'ITEM_ERROR']),
        error_code: pick(rng, ['INVALID_FIELD', 'ITEM_LOGIN_REQUIRED', 'INTERNAL_SERVER_ERROR']),
        error_message: text(rng, int(rng, 4, 12)),
        display_message: rng() < 0.5 ? null : text(rng, int(rng, 3, 8))
      }
    },
    timing: {
      dnsMs: dns,
      connectMs: connect,
      ttfbMs: ttfb,
      totalMs: Math.round((dns + connect + ttfb) * 1000 + rng() * 50000) / 1000
    },
    retries: int(rng, 0, 2),
    tags: ['env:production', 'service:' + resource, 'shard:' + int(rng, 0, 63)]
  };
}

// Every generator takes the suite's seed and salts it, so the documents of different kinds differ.

// A debugging payload: a top-level array of records, about `kb` kilobytes of JSON (at least one record).
function records(kb, seed) {
  var rng = prng(seed === undefined ? 1 : seed);
  var target = kb * 1024;
  var list = [];
  var size = 1;
  while (list.length === 0 || size < target) {
    var r = record(rng, list.length);
    size += JSON.stringify(r).length + 1;
    list.push(r);
  }
  return list;
}

// A game user's profile (the kind of document WB Games cached as a JSON string), about `kb` KB.
function profile(kb, seed) {
  var rng = prng((seed === undefined ? 1 : seed) + 7);
  var p = {
    userId: 'u-' + hex(rng, 16),
    username: pick(rng, ['shadow', 'pixel', 'nova', 'grim', 'echo', 'ásgeir']) + int(rng, 1, 99999),
    platform: pick(rng, ['pc', 'ps4', 'xbox', 'switch']),
    createdAt: isoTime(rng, 3 * 365 * 86400000),
    lastSeen: isoTime(rng, 86400000),
    settings: { language: pick(rng, ['en', 'fr', 'de', 'pt-BR', 'ja']), subtitles: rng() < 0.5, fov: int(rng, 60, 110), sensitivity: Math.round(rng() * 1000) / 100 },
    stats: { gamesPlayed: int(rng, 0, 5000), wins: int(rng, 0, 2500), losses: int(rng, 0, 2500), xp: int(rng, 0, 1e7), level: int(rng, 1, 120) },
    currency: { coins: int(rng, 0, 1e6), gems: int(rng, 0, 5000) },
    sessions: [],
    friends: [],
    achievements: [],
    inventory: []
  };
  var target = kb * 1024;
  var i = 0;
  while (JSON.stringify(p).length < target) {
    p.inventory.push({
      itemId: 'item-' + hex(rng, 8),
      qty: int(rng, 1, 99),
      rarity: pick(rng, ['common', 'rare', 'epic', 'legendary']),
      attrs: { power: int(rng, 1, 500), durability: Math.round(rng() * 1000) / 10, tradable: rng() < 0.3 }
    });
    if (i % 2 === 0) p.achievements.push({ id: 'ach-' + int(rng, 1, 900), unlockedAt: isoTime(rng, 365 * 86400000) });
    if (i % 3 === 0) p.friends.push('u-' + hex(rng, 16));
    if (i % 4 === 0 && p.sessions.length < 20) p.sessions.push({ at: isoTime(rng, 30 * 86400000), minutes: int(rng, 1, 300) });
    i++;
  }
  return p;
}

// `count` cached JSON strings of about `kb` KB each, as a server keeps them in memory.
function cachedStrings(count, kb, seed) {
  var base = (seed === undefined ? 1 : seed) + 100;
  var strings = [];
  for (var i = 0; i < count; i++) strings.push(JSON.stringify(profile(kb, base + i)));
  return strings;
}

// What one profile-roundtrip request does to a parsed profile (kept here so tests can reproduce it).
function applyRequest(p, requestTime) {
  p.lastSeen = requestTime;
  p.stats.gamesPlayed += 1;
  p.stats.wins += 1;
  p.stats.xp += 125;
  p.currency.coins += 40;
  p.sessions.push({ at: requestTime, minutes: 17 });
  if (p.sessions.length > 20) p.sessions.shift();
  if (p.inventory.length > 0) p.inventory[0].qty = Math.max(0, p.inventory[0].qty - 1);
  return p;
}

module.exports = {
  prng: prng,
  records: records,
  profile: profile,
  cachedStrings: cachedStrings,
  applyRequest: applyRequest
};
