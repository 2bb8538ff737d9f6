// The run loop with the launch policy (cli/policy/policy.js) and a fake launcher on a fake clock:
// no process runs, so every property can be checked over thousands of runs. The fake world: cells
// of a few rows and columns, each with a true cost per operation and a fixed cost per process;
// processes spread around the truth, some run on a disturbed machine (a slow reference), some cells
// fail. The real launcher is covered end to end by matrix-integration.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { runCells } from '../cli/policy/run-loop.js';
import { createBudget, ceilingBound, processCostMs, processCeilings } from '../cli/policy/budget.js';
import { createCell } from '../cli/results/cell.js';
import { completeRun } from '../cli/options.js';
import { prng } from '../cli/stats/random.js';

const METRICS_WINDOW_MS = 300;

// A matrix of `rows` benchmarks x `columns` runtimes; the first column is the baseline.
function fakeMatrix({ rows, columns, serviceRows = 0, seed }) {
  const random = prng(seed);
  const cells = [];
  const truth = new Map();
  for (let r = 0; r < rows; r++) {
    const suite = r < serviceRows ? 'service' : 'micro';
    for (let c = 0; c < columns; c++) {
      const runtime = { version: `${16 + c}.0.0`, label: `${16 + c}` };
      const cell = createCell({ id: cells.length, runtime, flagSet: { name: 'baseline', flags: [] }, suite: { name: suite }, benchmark: { name: `b${r}` } });
      cells.push(cell);
      truth.set(cell.id, {
        nsPerOp: 100 * (1 + random() * 9),
        processMs: 200 + Math.floor(random() * 800),
        // Spread between processes of one cell: 1% to 15%, so that some cells need top-ups.
        spread: 0.01 + random() * 0.14
      });
    }
  }
  const suites = new Map([['micro', { name: 'micro', service: false }], ['service', { name: 'service', service: true }]]);
  return { cells, truth, suites, baselineKey: '16/baseline' };
}

// A launcher that "runs" a process by advancing the clock by the cell's fixed cost and returning
// samples drawn around the cell's truth. disturbedShare of processes get a slow reference (the
// machine was slow); failShare of cells fail on their first launch.
function fakeLauncher({ truth, clock, seed, disturbedShare = 0.1, failShare = 0, hangShare = 0 }) {
  const random = prng(seed);
  const failing = new Set([...truth.keys()].filter(() => random() < failShare));
  const log = [];
  const gauss = () => Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random());
  return {
    log,
    async launch(launch, cell) {
      const t = truth.get(cell.id);
      log.push({ ...launch, at: clock.t, status: cell.status });
      if (launch.kind === 'metrics') {
        clock.t += t.processMs - 100 + METRICS_WINDOW_MS;
        return { metrics: { windowMs: METRICS_WINDOW_MS, gc: null } };
      }
      const startedAt = clock.t;
      clock.t += t.processMs;
      if (failing.has(cell.id)) return { status: 'failed', error: 'threw: planted failure', wallMs: t.processMs, startedAt };
      if (random() < hangShare) {
        clock.t += launch.timeoutMs;
        return { status: 'timeout', error: 'did not finish within 10 s', wallMs: launch.timeoutMs, startedAt };
      }
      const level = t.nsPerOp * Math.exp(t.spread * gauss());
      const disturbed = random() < disturbedShare;
      const samples = Array.from({ length: 5 }, () => level * (1 + 0.01 * gauss()));
      return {
        status: 'ok',
        wallMs: t.processMs,
        startedAt,
        result: {
          benchmarkType: 'sync',
          measurement: {
            samplesNsPerOp: samples,
            iterationsPerSample: 1000,
            calibrationBatches: 3,
            warmup: { batches: 3, ms: 20, stable: true },
            sampleMs: 100,
            cpuNsPerOp: level,
            cpuMethod: 'fake',
            disturbance: { referenceNs: [1000 * (disturbed ? 1.6 : 1 + 0.02 * random())], runQueueWaitNs: samples.map(() => 0), stealShare: 0 }
          },
          memory: {}
        }
      };
    }
  };
}

async function runFake({ rows, columns, serviceRows, seed, budgetMin, run: runOptions = {}, disturbedShare, failShare, hangShare, stopAfter = Infinity, cells: given }) {
  const world = fakeMatrix({ rows, columns, serviceRows, seed });
  const cells = given || world.cells;
  const clock = { t: 0 };
  const now = () => clock.t;
  const run = completeRun({ seed, metricsMs: METRICS_WINDOW_MS, timeBudgetMin: budgetMin, ...runOptions });
  const launcher = fakeLauncher({ truth: world.truth, clock, seed: seed + 1, disturbedShare, failShare, hangShare });
  const budget = createBudget(run.timeBudgetMin, { now });
  let launches = 0;
  const original = launcher.launch;
  launcher.launch = async (launch, cell) => { launches++; return original(launch, cell); };
  await runCells(cells, {
    runtimes: new Map(), suites: world.suites, run, sampler: {}, baselineKey: world.baselineKey, cores: 2,
    save: async () => {}, budget, launcher, now, shouldStop: () => launches >= stopAfter
  });
  return { cells, log: launcher.log, clock, run, budget, world };
}

const worlds = fc.record({
  rows: fc.integer({ min: 1, max: 6 }),
  columns: fc.integer({ min: 1, max: 4 }),
  serviceRows: fc.integer({ min: 0, max: 1 }),
  seed: fc.integer({ min: 0, max: 2 ** 30 }),
  disturbedShare: fc.constantFrom(0, 0.1, 0.3, 0.7),
  failShare: fc.constantFrom(0, 0, 0.2),
  hangShare: fc.constantFrom(0, 0, 0.05, 0.3),
  processes: fc.integer({ min: 1, max: 5 }),
  maxProcesses: fc.integer({ min: 1, max: 9 }),
  budgetMin: fc.option(fc.double({ min: 0.01, max: 3, noNaN: true }), { nil: undefined })
});

const timingOf = (log) => log.filter((l) => l.kind === 'timing');
const firstRoundKey = (l) => `${l.cellId}@${l.round}`;

test('every cell that does not fail gets its first rounds, whatever the budget, and nothing is launched twice (property)', async () => {
  await fc.assert(fc.asyncProperty(worlds, async (w) => {
    const { cells, log, run } = await runFake({ ...w, run: { processes: w.processes, maxProcesses: w.maxProcesses } });
    const firsts = timingOf(log).filter((l) => l.rerunOf === undefined).map(firstRoundKey);
    // Only a round whose process hung (recorded on the cell) runs again.
    const hung = new Set(cells.flatMap((c) => (c.hangs || []).map((h) => `${c.id}@${h.round}`)));
    const again = firsts.filter((key, i) => firsts.indexOf(key) !== i);
    assert.ok(again.every((key) => hung.has(key)) && again.length <= hung.size, `launched twice without a hang: ${again.join(' ')}`);
    for (const cell of cells) {
      assert.ok(['ok', 'failed', 'timeout'].includes(cell.status), `cell ${cell.id} ended ${cell.status}`);
      assert.ok((cell.hangs?.length ?? 0) <= 1, 'a cell was given a second chance twice');
      // A cell times out on its second hang, or on its first process (nothing says it ever finishes).
      if (cell.status === 'timeout') assert.ok(cell.hangs?.length === 1 || cell.processes.length === 0, 'a cell timed out without its one second chance');
      if (cell.status !== 'ok') continue;
      for (let round = 0; round < run.processes; round++) {
        assert.ok(cell.processes.some((p) => !p.rerun && p.round === round), `cell ${cell.id} lacks round ${round}`);
      }
      assert.ok(cell.summary, 'an ok cell is finalized');
    }
    // A failed or timed-out cell is never launched again.
    for (const cell of cells.filter((c) => c.status === 'failed' || c.status === 'timeout')) {
      assert.equal(log.filter((l) => l.cellId === cell.id && l.status === 'failed').length, 0);
    }
  }), { numRuns: 150 });
});

test('disturbed processes are replaced at most once each and at most `processes` times per cell, never before the next round has passed (property)', async () => {
  await fc.assert(fc.asyncProperty(worlds, async (w) => {
    const { cells, log, run } = await runFake({ ...w, run: { processes: w.processes, maxProcesses: w.maxProcesses } });
    for (const cell of cells) {
      const reruns = cell.processes.filter((p) => p.rerun).length;
      assert.ok(reruns <= run.processes, `cell ${cell.id}: ${reruns} replacements for ${run.processes} processes`);
      const launchedReruns = log.filter((l) => l.cellId === cell.id && l.rerunOf !== undefined).length;
      assert.ok(launchedReruns <= cell.processes.filter((p) => p.replaced).length, 'a replacement without a process set aside and marked replaced');
    }
    // In the first rounds, a replacement of round r waits until round r + 1 has run for every cell.
    const timing = timingOf(log);
    timing.forEach((l, i) => {
      if (l.rerunOf === undefined || l.rerunOf >= run.processes - 1) return;
      const before = timing.slice(0, i).filter((x) => x.rerunOf === undefined && x.round === l.rerunOf + 1).length;
      const all = timing.filter((x) => x.rerunOf === undefined && x.round === l.rerunOf + 1).length;
      assert.equal(before, all, `replacement of round ${l.rerunOf} launched before round ${l.rerunOf + 1} had finished`);
    });
  }), { numRuns: 150 });
});

test('top-ups stop at each cell\'s ceiling (maxProcesses, up to cheapFactor times that for a cheap cell) and bring their row\'s baseline along (property)', async () => {
  await fc.assert(fc.asyncProperty(worlds, fc.constantFrom(1, 2, 3), async (w, cheapFactor) => {
    const { cells, log, run, world } = await runFake({ ...w, run: { processes: w.processes, maxProcesses: w.maxProcesses, cheapFactor } });
    const maxProcesses = Math.max(run.maxProcesses, run.processes);
    const topUps = timingOf(log).filter((l) => l.rerunOf === undefined && l.round >= run.processes);
    if (maxProcesses === run.processes) assert.equal(topUps.length, 0, 'top-ups without room for them');
    const most = cheapFactor === 1 ? maxProcesses : ceilingBound(run);
    assert.ok(most <= Math.max(run.processes, Math.floor(maxProcesses * cheapFactor)));
    for (const cell of cells) {
      const firsts = cell.processes.filter((p) => !p.rerun).length;
      assert.ok(firsts <= most, `cell ${cell.id} has ${firsts} rounds (at most ${most})`);
    }
    const byId = new Map(cells.map((c) => [c.id, c]));
    for (const l of topUps) {
      const cell = byId.get(l.cellId);
      const baseline = cells.find((c) => c.benchmark === cell.benchmark && `${c.runtimeLabel}/${c.flagSet}` === world.baselineKey);
      if (!baseline || baseline === cell || log.find((x) => x.cellId === baseline.id && x.status === 'failed')) continue;
      if (baseline.status !== 'ok') continue;
      assert.ok(topUps.some((x) => x.cellId === baseline.id && x.round === l.round), `top-up of cell ${cell.id} in round ${l.round} without its baseline`);
    }
  }), { numRuns: 150 });
});

test('under a budget, replacements and top-ups never run past it: the run ends by the budget or by the work that must run (property)', async () => {
  await fc.assert(fc.asyncProperty(worlds, fc.double({ min: 0.005, max: 2, noNaN: true }), async (w, budgetMin) => {
    // A hang cannot be budgeted (it lasts until its limit): the worlds here have none.
    const world0 = { ...w, hangShare: 0 };
    const { log, clock, run, budget } = await runFake({ ...world0, budgetMin, run: { processes: w.processes, maxProcesses: w.maxProcesses } });
    const { world } = await runFake({ ...world0, budgetMin, stopAfter: 0, run: { processes: w.processes, maxProcesses: w.maxProcesses } });
    // What had to run whatever the budget: first rounds and metrics processes, at their fixed costs.
    let mandatoryMs = 0;
    for (const l of log) {
      const t = world.truth.get(l.cellId);
      if (l.kind === 'metrics') mandatoryMs += t.processMs - 100 + METRICS_WINDOW_MS;
      else if (l.rerunOf === undefined && l.round < run.processes) mandatoryMs += t.processMs;
    }
    const deadline = budgetMin * 60_000;
    assert.ok(clock.t <= Math.max(deadline, mandatoryMs) + 1e-6, `ended at ${clock.t} ms; budget ${deadline} ms, mandatory ${mandatoryMs} ms`);
    const elastic = timingOf(log).filter((l) => l.rerunOf !== undefined || l.round >= run.processes);
    for (const l of elastic) assert.ok(l.at < deadline, 'an elastic launch started after the deadline');
    if (!budget.state.reached) assert.deepEqual(budget.state.skipped, { replacements: 0, topUps: 0 });
  }), { numRuns: 150 });
});

test('an interrupted run continues where it stopped: nothing twice, nothing missing (property)', async () => {
  await fc.assert(fc.asyncProperty(worlds, fc.integer({ min: 0, max: 40 }), async (w, stopAfter) => {
    const options = { ...w, run: { processes: w.processes, maxProcesses: w.maxProcesses } };
    const first = await runFake({ ...options, stopAfter });
    const pendingAfterStop = first.cells.filter((c) => c.status === 'pending').length;
    const second = await runFake({ ...options, cells: first.cells });
    const firsts = [...timingOf(first.log), ...timingOf(second.log)].filter((l) => l.rerunOf === undefined).map(firstRoundKey);
    // The launch that the stop interrupted ran but was not recorded, so it may run again; so does
    // the round of a process that hung.
    const twice = firsts.length - new Set(firsts).size;
    const hangs = second.cells.reduce((n, c) => n + (c.hangs?.length ?? 0), 0);
    assert.ok(twice <= (first.log.length ? 1 : 0) + hangs, `${twice} first-round processes ran twice`);
    for (const cell of second.cells) {
      assert.ok(['ok', 'failed', 'timeout'].includes(cell.status));
      if (cell.status === 'ok') assert.ok(cell.processes.filter((p) => !p.rerun && p.round < second.run.processes).length >= second.run.processes);
    }
    assert.ok(pendingAfterStop >= 0);
  }), { numRuns: 100 });
});

test('--quick: one process per cell, no top-ups, no metrics', async () => {
  const { cells, log } = await runFake({ rows: 3, columns: 3, seed: 7, disturbedShare: 0, run: { processes: 1, maxProcesses: 1, metrics: false } });
  assert.equal(log.length, 9);
  assert.ok(cells.every((c) => c.status === 'ok' && c.processes.length === 1 && !c.metrics));
});

test('metrics processes: run.metricsProcesses per ok micro-benchmark cell, in rounds after every timing process, never for a service cell (property)', async () => {
  await fc.assert(fc.asyncProperty(worlds, fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 30 }), async (w, metricsProcesses, stopAfter) => {
    const options = { ...w, run: { processes: w.processes, maxProcesses: w.maxProcesses, metricsProcesses } };
    // Interrupted once and continued, as a resumed run would be.
    const first = await runFake({ ...options, stopAfter });
    const { cells, log } = await runFake({ ...options, cells: first.cells });
    const all = [...first.log, ...log];
    const firstMetrics = log.findIndex((l) => l.kind === 'metrics');
    if (firstMetrics >= 0) assert.ok(log.slice(firstMetrics).every((l) => l.kind === 'metrics'), 'a timing process after the metrics began');
    for (const cell of cells) {
      const wanted = cell.status === 'ok' && cell.suite === 'micro' ? metricsProcesses : 0;
      assert.equal(cell.metrics?.processes?.length ?? 0, wanted, `cell ${cell.id} (${cell.suite}, ${cell.status})`);
      const launched = all.filter((l) => l.kind === 'metrics' && l.cellId === cell.id);
      assert.ok(launched.length <= wanted + 1, 'metrics processes launched beyond the wanted (one may be cut by the stop)');
    }
    // Rounds: no cell's (k+1)-th metrics process before every cell's k-th.
    const metricsLog = log.filter((l) => l.kind === 'metrics');
    metricsLog.forEach((l, i) => {
      assert.ok(metricsLog.slice(i + 1).every((later) => later.metricsIndex >= l.metricsIndex), 'metrics rounds out of order');
    });
  }), { numRuns: 100 });
});

test('a cell above the target is told why: the budget when the budget stopped its top-ups, maxProcesses otherwise', async () => {
  const tight = await runFake({ rows: 4, columns: 3, seed: 5, disturbedShare: 0, budgetMin: 0.2, run: { processes: 3, maxProcesses: 9, targetRme: 0.5 } });
  assert.ok(tight.budget.state.reached);
  const missed = tight.cells.flatMap((c) => c.warnings || []).filter((w) => w.code === 'target-missed');
  assert.ok(missed.length > 0);
  assert.ok(missed.some((w) => /time budget/.test(w.message)));
  const free = await runFake({ rows: 2, columns: 2, seed: 5, disturbedShare: 0, run: { processes: 3, maxProcesses: 4, targetRme: 0.1, cheapFactor: 1 } });
  const freeMissed = free.cells.flatMap((c) => c.warnings || []).filter((w) => w.code === 'target-missed');
  assert.ok(freeMissed.length > 0 && freeMissed.every((w) => /maxProcesses/.test(w.message)));
  assert.ok(free.cells.every((c) => c.processes.filter((p) => !p.rerun).length === 4));
});

test('duet: a row\'s baseline and one other cell run as a pair on the two cores, every cell gets its rounds, a pair is set aside and replaced together (property)', async () => {
  await fc.assert(fc.asyncProperty(worlds, async (w) => {
    const { cells, log, run, world } = await runFake({ ...w, serviceRows: 0, run: { processes: w.processes, maxProcesses: w.maxProcesses, pairing: 'duet' } });
    const byId = new Map(cells.map((c) => [c.id, c]));
    const isBase = (c) => `${c.runtimeLabel}/${c.flagSet}` === world.baselineKey;
    const groups = new Map();
    for (const l of timingOf(log)) if (l.group) groups.set(l.group, [...(groups.get(l.group) || []), l]);
    for (const [id, pair] of groups) {
      assert.ok(pair.length <= 2, `group ${id} has ${pair.length} launches`);
      if (pair.length < 2) continue; // the other side's cell had failed: it ran alone
      const [a, b] = pair;
      assert.notEqual(a.cpu, b.cpu, 'a pair on one core');
      assert.equal(a.round, b.round);
      const [ca, cb] = [byId.get(a.cellId), byId.get(b.cellId)];
      assert.equal(ca.benchmark, cb.benchmark, 'a pair across rows');
      assert.ok(isBase(ca) !== isBase(cb), 'a pair without exactly one baseline');
      assert.equal(a.duetWith, b.cellId);
      assert.equal(b.duetWith, a.cellId);
    }
    for (const cell of cells.filter((c) => c.status === 'ok' && !isBase(c))) {
      for (let round = 0; round < run.processes; round++) assert.ok(cell.processes.some((p) => !p.rerun && p.round === round), `cell ${cell.id} lacks round ${round}`);
    }
    // Both sides of a pair are kept, or neither.
    for (const cell of cells) {
      for (const p of cell.processes.filter((x) => x.pair !== undefined)) {
        const other = byId.get(p.duetWith);
        const partner = other.processes.find((q) => q.pair === p.pair);
        // Only a side that hung or failed leaves its partner's process unpaired.
        if (!partner) {
          assert.ok(other.hangs?.length || other.status !== 'ok', `the other side of pair ${p.pair} was not recorded`);
          continue;
        }
        if (partner && cell.status === 'ok' && byId.get(p.duetWith).status === 'ok') assert.equal(!!partner.setAside, !!p.setAside, `pair ${cell.id}/${p.duetWith} round ${p.round} kept on one side only`);
      }
    }
  }), { numRuns: 100 });
});

test('a duet\'s ratio pairs each cell with the baseline processes that ran beside it', async () => {
  const { pairedLogs } = await import('../cli/stats/compare.js');
  const { cells } = await runFake({ rows: 1, columns: 3, seed: 3, disturbedShare: 0, run: { processes: 3, maxProcesses: 3, pairing: 'duet', metrics: false } });
  const [base, ...others] = cells;
  for (const cell of others) {
    const logs = pairedLogs(base, cell);
    assert.equal(logs.length, 3, 'one pair per round');
    // Each log ratio is of the two processes of one pair.
    const pairs = cell.processes.map((p) => p.pair);
    assert.deepEqual(new Set(base.processes.filter((p) => p.duetWith === cell.id).map((p) => p.pair)), new Set(pairs));
  }
  // Sequential processes still pair by round.
  const sequential = await runFake({ rows: 1, columns: 2, seed: 3, disturbedShare: 0, run: { processes: 3, maxProcesses: 3, metrics: false } });
  assert.equal(pairedLogs(sequential.cells[0], sequential.cells[1]).length, 3);
});

test('top-ups by decision go to ratios still undecided, and stop where every ratio is decided', async () => {
  // Columns 10% apart with little spread: every ratio is decided after the first rounds.
  const clear = await runFake({ rows: 3, columns: 3, seed: 21, disturbedShare: 0, run: { processes: 3, maxProcesses: 8, targetRme: 0.01, topUp: 'decision', metrics: false } });
  const topUpsOf = (r) => timingOf(r.log).filter((l) => l.rerunOf === undefined && l.round >= r.run.processes).length;
  for (const cell of clear.cells) clear.world.truth.get(cell.id);
  // The same world under the margin rule tops up (no cell reaches a 0.01% margin).
  const byMargin = await runFake({ rows: 3, columns: 3, seed: 21, disturbedShare: 0, run: { processes: 3, maxProcesses: 8, targetRme: 0.01, topUp: 'margin', metrics: false } });
  assert.ok(topUpsOf(byMargin) > 0, 'the margin rule made no top-ups');
  assert.ok(topUpsOf(clear) < topUpsOf(byMargin), `decision ${topUpsOf(clear)} vs margin ${topUpsOf(byMargin)} top-ups`);
  // No target-missed warning under decision: the tables mark undecided ratios instead.
  assert.ok(clear.cells.every((c) => !(c.warnings || []).some((w) => w.code === 'target-missed')));
});

test('cheap cells keep more processes than dear ones: the same seconds buy them more (cheapFactor)', async () => {
  const { cells, run } = await runFake({ rows: 6, columns: 3, seed: 11, disturbedShare: 0, run: { processes: 4, maxProcesses: 6, targetRme: 0.01, cheapFactor: 3, metrics: false } });
  const costs = cells.map((c) => processCostMs(c));
  const typical = [...costs].sort((a, b) => a - b)[Math.floor(costs.length / 2)];
  const kept = (c) => c.processes.filter((p) => !p.rerun).length;
  const cheap = cells.filter((c, i) => costs[i] < typical / 1.5);
  const dear = cells.filter((c, i) => costs[i] >= typical);
  assert.ok(cheap.length && dear.length, 'the fake world has cheap and dear cells');
  // The target is out of reach: every cell keeps its ceiling, and a cheap cell's is higher.
  for (const cell of dear) assert.ok(kept(cell) <= run.maxProcesses || cells.some((o) => o !== cell && o.benchmark === cell.benchmark && kept(o) >= kept(cell)), `dear cell ${cell.id} kept ${kept(cell)}`);
  for (const cell of cheap) assert.ok(kept(cell) > run.maxProcesses, `cheap cell ${cell.id} (${processCostMs(cell)} ms, median ${typical} ms) kept only ${kept(cell)}`);
  assert.ok(cells.every((c) => kept(c) <= ceilingBound(run)));
});

test('a dear cell whose processes are all set aside as disturbed stops at its ceiling in rounds, not the cheap cells\' (property)', async () => {
  await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: 2 ** 30 }), async (seed) => {
    // A busy machine: 70% of processes disturbed; one column only, so no baseline drags a cell along.
    const { cells, run } = await runFake({ rows: 6, columns: 1, seed, disturbedShare: 0.7, run: { processes: 3, maxProcesses: 5, targetRme: 0.01, cheapFactor: 3, metrics: false } });
    const ceiling = processCeilings(cells, run);
    for (const cell of cells.filter((c) => c.status === 'ok')) {
      const rounds = cell.processes.filter((p) => !p.rerun).length;
      // The ceiling moves as costs come in: one round of slack for the last top-up decided before.
      assert.ok(rounds <= ceiling(cell) + 1, `cell ${cell.id}: ${rounds} rounds for a ceiling of ${ceiling(cell)}`);
    }
  }), { numRuns: 60 });
});

