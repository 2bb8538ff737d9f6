// The worker's report channel against whatever a benchmark writes to fd 3 (fast-check; FUZZ_RUNS as
// in fuzz.test.js): lines of any kind — JSON claiming any message type, with no nonce, a wrong one or
// one of another shape, garbled text, half lines — interleaved with the real worker's messages. The
// host never throws, never counts a process whose channel carried a line that is not the worker's,
// and only an honest channel with a well-formed result makes an ok process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { readChannel } from '../cli/process/channel.js';
import { interpretLaunch, malformedResult } from '../cli/runner/outcome.js';

const runs = Number(process.env.FUZZ_RUNS || 40);
const NONCE = 'a3f1c2d4e5b60718293a4b5c6d7e8f90';

const goodResult = () => ({
  type: 'result',
  measurement: { samplesNsPerOp: [10.5, 10.7, 10.6], iterationsPerSample: 1000, warmup: { ms: 60, batches: 6, stable: true }, sampleMs: 32 }
});

const messageTypes = fc.constantFrom('result', 'hello', 'error', 'unsupported', 'exit', 'phase', 'forged', 'garbled', '__proto__', 'constructor');
// What a benchmark could write: a message that claims to be the worker's, with no nonce, a wrong or
// odd one, or (rarely) an object with many fields; or a line that is no JSON message at all.
const claimedMessage = fc.record({
  type: fc.oneof(messageTypes, fc.string()),
  nonce: fc.oneof(fc.constant(undefined), fc.string(), fc.constant(NONCE.toUpperCase()), fc.constant(`${NONCE} `), fc.integer(), fc.constant(null), fc.array(fc.constant(NONCE), { maxLength: 1 })),
  measurement: fc.oneof(fc.constant(undefined), fc.constant(goodResult().measurement), fc.anything()),
  message: fc.string(),
  reason: fc.string(),
  phase: fc.string()
}, { requiredKeys: ['type'] }).map((m) => JSON.stringify(m));
const junkLine = fc.oneof(fc.string(), fc.json(), fc.constant('{"type":"result"'), fc.constant('null'), fc.constant('[]'), fc.constant('"result"'));
const benchmarkLine = fc.oneof(claimedMessage, junkLine).filter((line) => !line.includes('\n'));

// The worker's own messages, with its nonce: hello, phases, then a result (well-formed or not).
const workerMessages = fc.record({
  resultShape: fc.constantFrom('good', 'none', 'malformed'),
  phases: fc.array(fc.constantFrom('load', 'setup', 'run'), { maxLength: 3 })
}).map(({ resultShape, phases }) => {
  const messages = [{ type: 'hello', node: '20.20.2' }, ...phases.map((phase) => ({ type: 'phase', phase }))];
  if (resultShape === 'good') messages.push(goodResult());
  if (resultShape === 'malformed') messages.push({ type: 'result', measurement: { samplesNsPerOp: [] } });
  return { resultShape, lines: messages.map((m) => JSON.stringify({ ...m, nonce: NONCE })) };
});

// Reads the lines through the host's channel reader as a worker process would deliver them.
async function deliver(lines) {
  const fd3 = new PassThrough();
  const child = { stdio: [null, null, null, fd3], nodebenchNonce: NONCE };
  const messages = [];
  const closed = readChannel(child, (message) => messages.push(message));
  fd3.end(lines.map((line) => `${line}\n`).join(''));
  await closed;
  return messages;
}

const isOurs = (line) => {
  try {
    const parsed = JSON.parse(line);
    return parsed !== null && typeof parsed === 'object' && parsed.nonce === NONCE;
  } catch {
    return false;
  }
};
const isJson = (line) => {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
};

test('lines a benchmark writes to fd 3 are never taken for the worker\'s: a forged line fails the process, an honest channel with a good result is ok', async () => {
  await fc.assert(fc.asyncProperty(workerMessages, fc.array(benchmarkLine, { maxLength: 6 }), fc.nat(), async (worker, intruders, seed) => {
    // The benchmark's lines land anywhere among the worker's.
    const lines = [...worker.lines];
    intruders.forEach((line, i) => lines.splice((seed + i * 7) % (lines.length + 1), 0, line));
    const messages = await deliver(lines);
    assert.equal(messages.length, lines.length, 'every line arrives as one message');
    for (const message of messages) {
      assert.ok(message !== null && typeof message === 'object', 'every message is an object');
      assert.ok(!('nonce' in message), 'the nonce never reaches the outcome');
    }
    const outcome = interpretLaunch({ messages, exitCode: 0, signal: null, stderrTail: '', timedOut: false }, { timeoutMs: 60_000 });
    // JSON lines that are not the worker's (wrong or missing nonce) are forged: the process fails.
    const forged = intruders.filter((line) => isJson(line) && !isOurs(line));
    if (forged.length) {
      assert.equal(outcome.status, 'failed');
      assert.match(outcome.error, /wrote \d+ message\(s\) .* to file descriptor 3, which nodebench keeps for its worker/);
    }
    if (outcome.status === 'ok') {
      assert.equal(forged.length, 0);
      assert.equal(malformedResult(outcome.result), null, 'an ok process has a well-formed result');
      assert.ok(worker.resultShape === 'good' || intruders.some(isOurs), 'ok only with a result the worker sent (or a line that knew the nonce)');
    }
    if (!forged.length && !intruders.some(isOurs) && worker.resultShape === 'good') assert.equal(outcome.status, 'ok', outcome.error);
    if (!forged.length && !intruders.some(isOurs) && worker.resultShape === 'malformed') assert.match(outcome.error, /malformed result/);
    assert.equal(typeof (outcome.error ?? ''), 'string');
  }), { numRuns: runs * 5 });
});

test('a result forged before the worker had its nonce, or with the nonce of another process, is not counted', async () => {
  const other = JSON.stringify({ ...goodResult(), nonce: 'b'.repeat(32) });
  const noNonce = JSON.stringify(goodResult());
  for (const lines of [[other], [noNonce], [noNonce, JSON.stringify({ ...goodResult(), nonce: NONCE })]]) {
    const messages = await deliver(lines);
    const outcome = interpretLaunch({ messages, exitCode: 0, signal: null, stderrTail: '', timedOut: false }, { timeoutMs: 60_000 });
    assert.equal(outcome.status, 'failed', JSON.stringify(lines));
    assert.match(outcome.error, /\(result\) to file descriptor 3/);
  }
});
