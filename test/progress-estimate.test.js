// The progress line's first estimate of the time left, on a real default matrix (issue 39, item 10):
// m1 of ../shared/evidence/2026-11-27 took 18.8 minutes of measuring, 888 timing and 208 metrics
// processes where 768 were known at the start (replacements and top-ups joined as they were
// chosen), and its first line said "~8m45s left". test/fixtures/progress/m1-schedule.json.gz keeps
// of each process what the policy and the estimate read (round, set aside, wall time, samples); the
// run is replayed as it stood when a process finished: its cells, with the processes finished by
// then, and the clock of that moment. Nothing here is timed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { root } from './helpers/cli.js';
import { timeLeft } from '../cli/policy/policy.js';

const schedule = JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(root, 'test', 'fixtures', 'progress', 'm1-schedule.json.gz'))));
const suites = new Map(schedule.suites.map((s) => [s.name, s]));
const options = { run: schedule.run, suites, baselineKey: '4.9.1/baseline' };
const ends = schedule.cells.flatMap((c) => c.processes.map((p) => Date.parse(p.startedAt) + p.wallMs)).sort((a, b) => a - b);
const started = Math.min(...schedule.cells.flatMap((c) => c.processes.map((p) => Date.parse(p.startedAt))));
const finished = Date.parse(schedule.finishedAt);
const budgetEndsAt = started + schedule.run.timeBudgetMin * 60_000;

// The run as it stood at `now`: every process that had finished by then, no metrics process yet.
function at(now) {
  return schedule.cells.map((c) => ({
    ...c,
    status: c.status === 'unsupported' ? 'unsupported' : 'pending',
    processes: c.processes.filter((p) => Date.parse(p.startedAt) + p.wallMs <= now)
  }));
}

test('the first estimate of a default matrix is within 1.5x of the time it really took', () => {
  const now = ends[0];
  const real = finished - now;
  const { ms, atLeast } = timeLeft(at(now), options, { now, budgetEndsAt });
  assert.equal(atLeast, false);
  assert.ok(ms / real > 1 / 1.5 && ms / real < 1.5, `estimated ${(ms / 60_000).toFixed(1)} min, took ${(real / 60_000).toFixed(1)} min`);
  // Without the budget to bound it, the first rounds and the metrics processes are all that is known.
  const open = timeLeft(at(now), options, { now });
  assert.equal(open.atLeast, true);
  assert.ok(open.ms < real);
  // The estimate before: the processes known at the start (the first rounds and the metrics
  // processes) at the mean time of those run so far.
  const known = schedule.cells.reduce((n, c) => n + (c.status === 'unsupported' ? 0 : schedule.run.processes + c.metricsProcesses), 0);
  assert.equal(known, 768);
  const before = ((now - started) / 1) * (known - 1);
  assert.ok(before / real < 1 / 1.5, `the old estimate, ${(before / 60_000).toFixed(1)} min, was too short`);
});

// The file keeps no time for a metrics process: the replay holds until the last timing process
// (14.3 of the 18.8 minutes; the 208 metrics processes took the rest).
test('through the run the estimate stays within 1.5x of what was left, and never exceeds the budget left plus what must run', () => {
  for (const share of [0.1, 0.25, 0.5, 0.75, 0.95]) {
    const now = started + share * (ends.at(-1) - started);
    const real = finished - now;
    const { ms } = timeLeft(at(now), options, { now, budgetEndsAt });
    assert.ok(ms / real > 1 / 1.5 && ms / real < 1.5, `at ${share * 100}%: estimated ${(ms / 60_000).toFixed(1)} min, ${(real / 60_000).toFixed(1)} min were left`);
    const must = timeLeft(at(now), { ...options, run: { ...schedule.run, rerunDisturbed: false, maxProcesses: schedule.run.processes } }, { now }).ms;
    assert.ok(ms <= Math.max(must, budgetEndsAt - now) + 1, `at ${share * 100}%`);
  }
});

// An instruction matrix runs two processes at once and waits for both (pairing concurrent), so a
// pair takes its longer process: test/fixtures/progress/i2-schedule.json.gz, 50 cells of 14.21.3
// and 16.20.2 counted under valgrind, took 30.5 minutes, 1.5x its processes' summed time over two.
// Counted as half the sum, the estimate said 0.66x of the time left through the middle of the run.
test('an instruction matrix, two processes at a time: from a tenth of the run on, the estimate is within 1.5x of what was left, within 1.25x through the middle', () => {
  const counted = JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(root, 'test', 'fixtures', 'progress', 'i2-schedule.json.gz'))));
  assert.equal(counted.run.pairing, 'concurrent');
  const countedOptions = { run: counted.run, suites: new Map(counted.suites.map((s) => [s.name, s])), baselineKey: '14.21.3/baseline' };
  const processes = counted.cells.flatMap((c) => c.processes);
  const begin = Math.min(...processes.map((p) => Date.parse(p.startedAt)));
  const last = Math.max(...processes.map((p) => Date.parse(p.startedAt) + p.wallMs));
  const end = Date.parse(counted.finishedAt);
  const asOf = (now) => counted.cells.map((c) => ({ ...c, status: c.status === 'unsupported' ? 'unsupported' : 'pending', processes: c.processes.filter((p) => Date.parse(p.startedAt) + p.wallMs <= now) }));
  for (const [share, within] of [[0.1, 1.5], [0.25, 1.25], [0.5, 1.25], [0.75, 1.25], [0.95, 1.5]]) {
    const now = begin + share * (last - begin);
    const { ms, atLeast } = timeLeft(asOf(now), countedOptions, { now });
    assert.equal(atLeast, false);
    const ratio = ms / (end - now);
    assert.ok(ratio > 1 / within && ratio < within, `at ${share * 100}%: estimated ${(ms / 60_000).toFixed(1)} min, ${((end - now) / 60_000).toFixed(1)} min were left`);
  }
});
