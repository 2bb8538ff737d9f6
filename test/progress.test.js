// The progress line's time left: none before a process of the run has finished, and estimated from
// the run's processes alone, not from the installs and suite loading before the first one (the
// first line once said ~3h05m left for a 19-minute run). A fake clock: nothing here is timed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createProgress } from '../cli/progress.js';

const cell = { runtimeLabel: '16.20.2', flagSet: 'baseline', suite: 'promises', benchmark: 'chain-native' };

function progressAt(times) {
  const lines = [];
  let at = 0;
  const progress = createProgress({ stream: { isTTY: false, write: (text) => lines.push(text) }, live: true, clock: () => times[at] });
  return { lines, progress, tick: () => at++ };
}

test('no ETA until a process of this run has finished; setup before the first process is not counted', () => {
  // Created at 0 s; 30 s of installs; the first process starts at 30 s and takes 3 s; 370 in all.
  const { lines, progress, tick } = progressAt([0, 30_000, 33_000, 33_000, 36_000]);
  tick();
  progress.update({ done: 0, total: 370, cell, starting: true });
  assert.match(lines.at(-1), /\(30s elapsed\)$/);
  assert.doesNotMatch(lines.at(-1), /left/);
  tick();
  progress.update({ done: 1, total: 370, cell, outcome: { status: 'ok' } });
  // 3 s per process for the 369 left: 18m27s, not (33 s / 1) x 369 = 3h22m.
  assert.match(lines.at(-1), /\(33s elapsed, ~18m27s left\)$/);
  tick();
  progress.update({ done: 1, total: 370, cell, starting: true });
  tick();
  progress.update({ done: 2, total: 370, cell, outcome: { status: 'ok' } });
  assert.match(lines.at(-1), /\(36s elapsed, ~18m24s left\)$/);
});

test('a resumed run estimates from the processes it runs, not from those it found done', () => {
  const { lines, progress, tick } = progressAt([0, 5_000, 9_000]);
  tick();
  progress.update({ done: 100, total: 200, cell, starting: true });
  assert.doesNotMatch(lines.at(-1), /left/);
  tick();
  progress.update({ done: 101, total: 200, cell, outcome: { status: 'ok' } });
  // 4 s for the one it ran, 99 left: 6m36s (not 9 s / 101 x 99 = 9 s).
  assert.match(lines.at(-1), /~6m36s left\)$/);
});

// Issue 39: the time left is what the run loop expects of the rest (policy/policy.js timeLeft,
// replacements and top-ups included), a lower bound said as one; a process that joins after a
// line that said all were done gets a line of its own ("[17/17] ~0s left" stood for 40 s).
test('the time left the run loop expects is shown, a lower bound as "at least"', () => {
  const { lines, progress, tick } = progressAt([0, 1_000, 4_000, 4_000]);
  tick();
  progress.update({ done: 0, total: 10, cell, starting: true, left: { ms: 999_000, atLeast: false } });
  assert.doesNotMatch(lines.at(-1), /left/, 'nothing before a process has finished');
  tick();
  progress.update({ done: 1, total: 10, cell, outcome: { status: 'ok' }, left: { ms: 125_000, atLeast: false } });
  assert.match(lines.at(-1), /\(4s elapsed, ~2m05s left\)$/);
  tick();
  progress.update({ done: 1, total: 10, cell, starting: true, left: { ms: 60_000, atLeast: true } });
  assert.match(lines.at(-1), /\(4s elapsed, at least ~1m00s left\)$/);
});

test('in plain output, a process that starts after "all done" gets its own line', () => {
  const lines = [];
  let now = 0;
  const progress = createProgress({ stream: { isTTY: false, write: (text) => lines.push(text) }, live: false, clock: () => now });
  progress.update({ done: 0, total: 1, cell, starting: true });
  now = 2_000;
  progress.update({ done: 1, total: 1, cell, outcome: { status: 'ok' }, left: { ms: 0, atLeast: false } });
  assert.match(lines.at(-1), /^\[1\/1\] .*~0s left/);
  progress.update({ done: 1, total: 2, cell, starting: true, left: { ms: 40_000, atLeast: false } });
  assert.match(lines.at(-1), /^\[1\/2\] .*~40s left\)\n$/);
  // An ordinary start in between says nothing (a heartbeat every 10 s does).
  const count = lines.length;
  progress.update({ done: 1, total: 3, cell, starting: true, left: { ms: 40_000, atLeast: false } });
  assert.equal(lines.length, count);
});
