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
