'use strict';
// The service under load: a small JSON API over the profile cache, built on the `http` module only.
//   POST /profile/:id   body {"lastSeen": ISO string, "visits": integer increment,
//                             "preferences": {"theme": ..., "language": ...}}  -> 200 {ok, profile}
//   GET  /profile/:id   -> 200 {ok, profile}
//   GET  /health        -> 200 {ok, profiles}
// Unknown id -> 404, bad JSON or a bad field -> 400, body over 64 KiB -> 413, other methods -> 405.
// `handle` is the whole request path without the network (parse, look up, update, stringify); the
// server only collects the body and writes what `handle` returns. Runs on Node 4 and newer.
var http = require('http');
var profiles = require('./profiles');

var MAX_BODY_BYTES = 64 * 1024;
var PROFILE_PATH = /^\/profile\/(\d+)(?:\?.*)?$/;
var THEMES = { light: true, dark: true, system: true };

function reply(status, document) {
  return { status: status, body: JSON.stringify(document) };
}

function applyUpdate(profile, update) {
  if (!update || typeof update !== 'object' || Array.isArray(update)) {
    return 'the body must be a JSON object';
  }
  if (update.lastSeen !== undefined) {
    if (typeof update.lastSeen !== 'string' || isNaN(Date.parse(update.lastSeen))) return 'lastSeen must be an ISO date';
    profile.lastSeen = update.lastSeen;
  }
  if (update.visits !== undefined) {
    if (typeof update.visits !== 'number' || update.visits % 1 !== 0 || update.visits < 0) return 'visits must be a non-negative integer';
    profile.visits += update.visits;
  }
  var prefs = update.preferences;
  if (prefs !== undefined) {
    if (!prefs || typeof prefs !== 'object') return 'preferences must be an object';
    if (prefs.theme !== undefined) {
      if (!THEMES[prefs.theme]) return 'preferences.theme must be light, dark or system';
      profile.preferences.theme = prefs.theme;
    }
    if (prefs.language !== undefined) {
      if (typeof prefs.language !== 'string' || prefs.language.length > 16) return 'preferences.language must be a short string';
      profile.preferences.language = prefs.language;
    }
  }
  profile.version += 1;
  return null;
}

// The request path: (store, method, url, body text) -> { status, body (a JSON string) }.
function handle(store, method, url, bodyText) {
  if (url === '/health' && method === 'GET') return reply(200, { ok: true, profiles: store.size });
  var match = PROFILE_PATH.exec(url);
  if (!match) return reply(404, { ok: false, error: 'no route for ' + method + ' ' + url });
  var profile = store.get(match[1]);
  if (method === 'GET') {
    return profile ? reply(200, { ok: true, profile: profile }) : reply(404, { ok: false, error: 'no profile ' + match[1] });
  }
  if (method !== 'POST') return reply(405, { ok: false, error: 'use GET or POST' });
  var update;
  try {
    update = JSON.parse(bodyText);
  } catch (err) {
    return reply(400, { ok: false, error: 'the body is not JSON: ' + err.message });
  }
  if (!profile) return reply(404, { ok: false, error: 'no profile ' + match[1] });
  var problem = applyUpdate(profile, update);
  if (problem) return reply(400, { ok: false, error: problem });
  return reply(200, { ok: true, profile: profile });
}

function validate(params) {
  var count = params.profiles;
  if (typeof count !== 'number' || count % 1 !== 0 || count < 1 || count > 1e6) {
    throw new Error('params.profiles must be an integer from 1 to 1000000 (got ' + JSON.stringify(count) + ')');
  }
}

// An http.Server (not yet listening) serving a freshly generated profile cache.
function createServer(params) {
  validate(params);
  var store = profiles.createStore(params.profiles, params.seed);
  var server = http.createServer(function (req, res) {
    var chunks = [];
    var size = 0;
    var tooBig = false;
    req.on('data', function (chunk) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooBig = true;
      else chunks.push(chunk);
    });
    req.on('end', function () {
      var out = tooBig ? reply(413, { ok: false, error: 'the body is over 64 KiB' })
        : handle(store, req.method, req.url, Buffer.concat(chunks, size).toString('utf8'));
      res.writeHead(out.status, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(out.body)
      });
      res.end(out.body);
    });
  });
  server.store = store;
  return server;
}

// The requests the load generator replays, in order, on every connection: read-modify-write
// updates spread over the cache (ids step by a prime, so consecutive requests hit distant ids).
function requests(params) {
  var list = [];
  var count = Math.max(1, Math.min(params.distinctRequests || 64, params.profiles));
  var themes = ['light', 'dark', 'system'];
  for (var i = 0; i < count; i++) {
    var id = 1 + ((i * 7919) % params.profiles);
    list.push({
      method: 'POST',
      path: '/profile/' + id,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        lastSeen: params.requestTime,
        visits: 1 + (i % 3),
        preferences: { theme: themes[i % 3] }
      })
    });
  }
  return list;
}

module.exports = { handle: handle, createServer: createServer, requests: requests, validate: validate };
