'use strict';
// The worker reports to the host over file descriptor 3 (a pipe the host opens), one JSON document
// per line. Results never travel on stdout/stderr, so a suite that prints cannot corrupt them.
// Written synchronously so that a message is out before process.exit() or a crash.
//
// A benchmark runs in this process and can write to fd 3 too. So every message carries the nonce
// the host gave this process on stdin (common.js reads it before any suite code runs and hands it
// here, where no suite code can reach it), and the host ignores a message without it. What this
// module uses is taken when it loads, before any suite code, so that a benchmark that replaces
// JSON.stringify or Buffer.from cannot change what the host reads.
var fs = require('fs');
var protocol = require('./protocol');

var CHANNEL_FD = 3;
var stringify = JSON.stringify;
var writeSync = fs.writeSync;
var hasAlloc = typeof Buffer.alloc === 'function';
var bufferFrom = hasAlloc ? Buffer.from : null;
var nonce = null;
var lastPhase = null;
var finished = false;
var exitCalled = null;

// Messages after which the worker has nothing more to say (worker/protocol.js).
var FINAL = {};
protocol.finalTypes().forEach(function (type) { FINAL[type] = true; });

// Buffer.from(string) is only right from Node 4.5 (Buffer.alloc arrived with it); `new Buffer`
// warns on Node 10+.
function toBuffer(text) {
  return hasAlloc ? bufferFrom.call(Buffer, text, 'utf8') : new Buffer(text, 'utf8');
}

// The channel is gone (a benchmark closed fd 3): say so on stderr, where the host looks for a
// reason, and end the process.
function channelLost(err) {
  finished = true;
  try {
    writeSync.call(fs, 2, 'nodebench-worker: the report channel (fd 3) was closed (' + err.code + ')\n');
  } catch (ignored) {
    // stderr is gone as well: the exit code says the rest.
  }
  process.exit(1);
}

function send(message) {
  if (nonce !== null) message.nonce = nonce;
  if (message.type === 'phase') lastPhase = message.phase;
  if (FINAL[message.type]) finished = true;
  var buffer = toBuffer(stringify(message) + '\n');
  var offset = 0;
  var spins = 0;
  while (offset < buffer.length) {
    try {
      offset += writeSync.call(fs, CHANNEL_FD, buffer, offset, buffer.length - offset);
    } catch (err) {
      // The host's end may be non-blocking; a full pipe drains as the host reads.
      if (err.code === 'EBADF' || err.code === 'EPIPE') return channelLost(err);
      if (err.code !== 'EAGAIN' || ++spins > 1e7) throw err;
    }
  }
}

// Called once by common.js with what the host sent on stdin, before any suite code runs. From then
// on, a process that ends without its final message says how it ended: the benchmark called
// process.exit, or nothing kept the process alive (a promise never settled, a callback never called).
function arm(hostNonce) {
  nonce = hostNonce;
  var realExit = process.exit;
  process.exit = function (code) {
    if (!finished && exitCalled === null) exitCalled = code === undefined ? process.exitCode || 0 : code;
    return realExit.apply(process, arguments);
  };
  process.on('exit', function (code) {
    if (finished) return;
    send({ type: 'exit', code: code, phase: lastPhase, calledExit: exitCalled !== null });
  });
}

// Another process speaks on the channel from now on (common.js restarts the worker with a loader).
function handOver() {
  finished = true;
}

module.exports = { send: send, arm: arm, handOver: handOver, fd: CHANNEL_FD };
