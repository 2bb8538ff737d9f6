'use strict';
// The three ways the json suite serialises a debugging payload for upload (Plaid's path):
// JSON text -> zlib deflate -> base64. Each calls done(err, base64). Runs on Node 4 and newer,
// except that bfj itself needs Node 8 (index.js requires it lazily and passes it in).
var zlib = require('zlib');

// Collects a deflate stream into base64 and calls done once, on 'end' or the first error.
function deflateToBase64(done) {
  var deflate = zlib.createDeflate();
  var chunks = [];
  var finished = false;
  function finish(err, value) {
    if (finished) return;
    finished = true;
    done(err, value);
  }
  deflate.on('data', function (chunk) { chunks.push(chunk); });
  deflate.on('end', function () { finish(null, Buffer.concat(chunks).toString('base64')); });
  deflate.on('error', finish);
  return { stream: deflate, fail: finish };
}

// No streaming: the whole document through JSON.stringify, then one zlib.deflate (thread pool).
function plain(records, done) {
  var text;
  try {
    text = JSON.stringify(records);
  } catch (err) {
    return done(err);
  }
  zlib.deflate(text, function (err, compressed) {
    if (err) return done(err);
    done(null, compressed.toString('base64'));
  });
}

// JSONStream.stringify: one JSON.stringify per record, written with back-pressure, piped into
// deflate. The separators are '[', ',', ']' so the text is byte-identical to JSON.stringify's.
function jsonStream(JSONStream, records, done) {
  var sink = deflateToBase64(done);
  var stringifier = JSONStream.stringify('[', ',', ']');
  stringifier.on('error', sink.fail);
  stringifier.pipe(sink.stream);
  var i = 0;
  function write() {
    while (i < records.length) {
      if (!stringifier.write(records[i++])) {
        stringifier.once('drain', write);
        return;
      }
    }
    stringifier.end();
  }
  write();
}

// bfj.streamify: walks the document asynchronously, token by token, piped into deflate.
function bfjStream(bfj, records, options, done) {
  var sink = deflateToBase64(done);
  var json = bfj.streamify(records, options);
  json.on('error', sink.fail);
  json.on('dataError', sink.fail);
  json.pipe(sink.stream);
}

module.exports = { plain: plain, jsonStream: jsonStream, bfjStream: bfjStream };
