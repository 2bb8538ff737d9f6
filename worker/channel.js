'use strict';
// The worker reports to the host over file descriptor 3 (a pipe the host opens), one JSON document
// per line. Results never travel on stdout/stderr, so a suite that prints cannot corrupt them.
// Written synchronously so that a message is out before process.exit() or a crash.
var fs = require('fs');

var CHANNEL_FD = 3;

// Buffer.from(string) is only right from Node 4.5 (Buffer.alloc arrived with it); `new Buffer`
// warns on Node 10+.
function toBuffer(text) {
  return typeof Buffer.alloc === 'function' ? Buffer.from(text, 'utf8') : new Buffer(text, 'utf8');
}

function send(message) {
  var buffer = toBuffer(JSON.stringify(message) + '\n');
  var offset = 0;
  var spins = 0;
  while (offset < buffer.length) {
    try {
      offset += fs.writeSync(CHANNEL_FD, buffer, offset, buffer.length - offset);
    } catch (err) {
      // The host's end may be non-blocking; a full pipe drains as the host reads.
      if (err.code !== 'EAGAIN' || ++spins > 1e7) throw err;
    }
  }
}

module.exports = { send: send, fd: CHANNEL_FD };
