// The run's time budget (cli/policy/budget.js): what fits, in which order, what is reserved and
// counted. A fake clock; the end-to-end behaviour is in matrix-integration.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createBudget, processCostMs, metricsCostMs, topUpPriority } from '../cli/policy/budget.js';

const clockAt = (ms) => { const clock = { t: ms, now: () => clock.t }; return clock; };

test('without a budget everything fits and nothing is counted', () => {
  const budget = createBudget(undefined);
  const items = [1, 2, 3];
  assert.equal(budget.fit(items, () => 1e12, { kind: 'topUps' }), items);
  assert.deepEqual(budget.state, { limited: false, budgetMin: null, skipped: { replacements: 0, topUps: 0 }, reached: false });
});

test('a budget takes the longest prefix that fits after the reserve, and counts the rest', () => {
  const clock = clockAt(0);
  const budget = createBudget(1, { now: clock.now }); // 60 s
  clock.t = 50_000; // 10 s left
  const taken = budget.fit(['a', 'b', 'c', 'd'], () => 3000, { reserveMs: 2000, kind: 'replacements' });
  assert.deepEqual(taken, ['a', 'b']); // 8 s after the reserve: two of 3 s
  assert.deepEqual(budget.state.skipped, { replacements: 2, topUps: 0 });
  assert.equal(budget.state.reached, true);
  clock.t = 70_000; // past the deadline
  assert.deepEqual(budget.fit(['e'], () => 1, { kind: 'topUps' }), []);
  assert.equal(budget.state.skipped.topUps, 1);
});

test('what a budget takes never costs more than the time left (property)', () => {
  fc.assert(fc.property(
    fc.double({ min: 0.01, max: 100, noNaN: true }), fc.nat(10_000_000), fc.nat(1_000_000),
    fc.array(fc.integer({ min: 1, max: 600_000 }), { maxLength: 60 }),
    (minutes, elapsed, reserve, costs) => {
      const clock = clockAt(0);
      const budget = createBudget(minutes, { now: clock.now });
      clock.t = elapsed;
      const taken = budget.fit(costs.map((c, i) => ({ c, i })), (x) => x.c, { reserveMs: reserve, kind: 'topUps' });
      const spent = taken.reduce((n, x) => n + x.c, 0);
      assert.ok(spent <= Math.max(0, minutes * 60_000 - elapsed - reserve));
      assert.deepEqual(taken.map((x) => x.i), taken.map((_, i) => i)); // a prefix, in order
      assert.equal(budget.state.skipped.topUps, costs.length - taken.length);
    }));
});

test('costs come from the cell\'s own processes, with a fallback for a cell that has none', () => {
  const cell = { processes: [{ wallMs: 300, sampleMs: 100 }, { wallMs: 500, sampleMs: 120 }, { wallMs: 400, sampleMs: 110 }] };
  assert.equal(processCostMs(cell), 400);
  assert.equal(processCostMs({ processes: [] }, 777), 777);
  assert.equal(metricsCostMs(cell, 1000), 290 + 1000); // median start-up and set-up, plus the window
  assert.equal(metricsCostMs({ processes: [] }, 500, 700), 1200);
});

test('top-ups go first to the widest margin per ms, and a wide cell that is cheap beats a wide one that is dear', () => {
  assert.ok(topUpPriority(10, 4, 300) > topUpPriority(5, 4, 300));
  assert.ok(topUpPriority(6, 4, 300) > topUpPriority(10, 4, 1300));
  assert.ok(topUpPriority(6, 4, 300) > topUpPriority(6, 7, 300)); // a fifth process narrows more than an eighth
});

test('the progress line names the end of the time budget beside the ETA, and only when there is one', async () => {
  const { createProgress } = await import('../cli/progress.js');
  const lines = [];
  const stream = { isTTY: false, write: (text) => lines.push(text) };
  const progress = createProgress({ stream, live: false });
  const cell = { runtimeLabel: '16.20.2', flagSet: 'baseline', suite: 'promises', benchmark: 'chain-native' };
  progress.update({ done: 1, total: 2, cell, outcome: { status: 'ok' }, budgetEndsAt: Date.now() + 125_000 });
  // 2m05s less the moments between the two clock reads, which a loaded machine can stretch to seconds.
  assert.match(lines.at(-1), /left; time budget ends in 2m0[0-5]s\)/);
  progress.update({ done: 2, total: 2, cell, outcome: { status: 'ok' } });
  assert.doesNotMatch(lines.at(-1), /time budget/);
});
