'use strict';
// The service's data: an in-memory cache of user profiles, generated deterministically at start
// (a seeded PRNG, no Math.random, no clock), so every runtime serves exactly the same documents and
// a host-side test can rebuild what a worker built. Runs on Node 4 and newer: var/function only.

// Park–Miller "minimal standard" generator: exact in doubles, identical on every runtime.
function prng(seed) {
  var state = (Math.abs(Math.floor(Number(seed) || 1)) % 2147483646) + 1;
  return function () {
    state = (state * 48271) % 2147483647;
    return (state - 1) / 2147483646;
  };
}

function pick(rng, list) {
  return list[Math.floor(rng() * list.length)];
}

var FIRST = ['Ada', 'Grace', 'Linus', 'Margaret', 'Ken', 'Barbara', 'Dennis', 'Frances', 'José', 'Zoë'];
var LAST = ['Lovelace', 'Hopper', 'Torvalds', 'Hamilton', 'Thompson', 'Liskov', 'Ritchie', 'Allen', 'Núñez', 'Müller'];
var PLANS = ['free', 'pro', 'team', 'enterprise'];
var THEMES = ['light', 'dark', 'system'];
var LANGUAGES = ['en', 'de', 'fr', 'es', 'ja', 'pt-BR'];
var TAGS = ['beta', 'mobile', 'newsletter', 'vip', 'trial', 'churn-risk', 'referral', 'support'];
var BASE_TIME = Date.UTC(2019, 4, 14, 9, 30, 0);

function profile(rng, id) {
  var first = pick(rng, FIRST);
  var last = pick(rng, LAST);
  var tags = [];
  var tagCount = 1 + Math.floor(rng() * 3);
  for (var i = 0; i < tagCount; i++) tags.push(pick(rng, TAGS));
  return {
    id: id,
    name: first + ' ' + last,
    email: (first + '.' + last + '.' + id + '@example.com').toLowerCase(),
    plan: pick(rng, PLANS),
    createdAt: new Date(BASE_TIME - Math.floor(rng() * 3e10)).toISOString(),
    lastSeen: new Date(BASE_TIME - Math.floor(rng() * 1e9)).toISOString(),
    visits: Math.floor(rng() * 5000),
    preferences: {
      theme: pick(rng, THEMES),
      language: pick(rng, LANGUAGES),
      notifications: { email: rng() < 0.5, push: rng() < 0.3 }
    },
    tags: tags,
    counters: { logins: Math.floor(rng() * 900), orders: Math.floor(rng() * 120) },
    version: 1
  };
}

// { get(id), size } over profiles 1..count, keyed by their decimal id (as the URL carries it).
function createStore(count, seed) {
  var rng = prng(seed);
  var byId = Object.create(null);
  for (var id = 1; id <= count; id++) byId[String(id)] = profile(rng, id);
  return {
    size: count,
    get: function (id) { return byId[id] || null; }
  };
}

module.exports = { createStore: createStore, prng: prng };
