// The host's side of a worker's report channel (worker/channel.js is the other): the request on
// stdin with a nonce, and the JSON lines on fd 3 that must carry it back. Which messages those are,
// with their fields, is worker/protocol.js; `forged` and `garbled` are this reader's own (HOST_MADE).
import { randomBytes } from 'node:crypto';
import readline from 'node:readline';
import { killGroup, killWorker, forget, killLeftovers } from './groups.js';

// The worker's first line on stdin: its request and a nonce its every message must carry, so that
// what a benchmark writes to fd 3 is never taken for the worker's (worker/channel.js). keepOpen: a
// service worker reads commands from stdin afterwards.
export function sendRequest(child, request, { keepOpen = false } = {}) {
  child.nodebenchNonce = randomBytes(16).toString('hex');
  child.stdin.on('error', () => {}); // EPIPE when the worker is already gone (or never started)
  let line;
  try {
    line = `${JSON.stringify({ request, nonce: child.nodebenchNonce })}\n`;
  } catch (err) {
    // A worker left waiting for its request would never exit, and its open stdin would keep
    // nodebench alive after the throw.
    killGroup(child.pid);
    killWorker(child);
    // Forgotten only once it has exited, as superviseWorker does: its id is not reused before.
    child.nodebenchEnded?.then(() => {
      forget(child.pid);
      killLeftovers(child);
    });
    throw err;
  }
  child.stdin.write(line);
  if (!keepOpen) child.stdin.end();
}

// Calls onMessage for each JSON line on the child's fd 3; resolves the returned promise when the
// channel closes (the worker exited). A line without the worker's nonce (sendRequest) is not the
// worker's: it arrives as { type: 'forged', claimed } (claimed: the type it gave itself).
export function readChannel(child, onMessage) {
  const channel = readline.createInterface({ input: child.stdio[3] });
  channel.on('line', (line) => {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      onMessage({ type: 'garbled', line: line.slice(0, 200) });
      return;
    }
    // Whatever parses must carry the nonce, whatever type it claims (even "garbled"); JSON that is
    // not an object (null, a number) is no message of the worker's either.
    const isObject = message !== null && typeof message === 'object' && !Array.isArray(message);
    if (!isObject) {
      message = { type: 'forged', claimed: message === null ? 'null' : typeof message };
    } else if (child.nodebenchNonce && message.nonce !== child.nodebenchNonce) {
      message = { type: 'forged', claimed: String(message.type).slice(0, 40) };
    } else if (child.nodebenchNonce) {
      delete message.nonce;
    }
    onMessage(message);
  });
  return new Promise((resolve) => channel.on('close', resolve));
}
