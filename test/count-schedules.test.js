// Processes of a counted cell that took different decisions (cli/stats/count-schedules.js): the run
// loop gives such a cell one more process, and the process whose schedule the others do not share
// is set aside, on real process records of gc/old-gen-marking on Node 6.17.1
// (test/fixtures/count-schedules). The loop runs with a launcher that hands back those records; the
// records were counted under real valgrind (test/long/instructions-clock.test.js runs it for real).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCells } from '../cli/policy/run-loop.js';
import { createBudget } from '../cli/policy/budget.js';
import { createCell, finalizeCell, currentSummary } from '../cli/results/cell.js';
import { completeRun, INSTRUCTIONS_RUN } from '../cli/options.js';
import { oddSchedules, wantsTieBreak } from '../cli/stats/count-schedules.js';
import { validProcess } from './helpers/schema.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = JSON.parse(fs.readFileSync(path.join(here, 'fixtures', 'count-schedules', 'node6-old-gen-marking.json'), 'utf8'));
const [threeA, threeB] = fixture.threeBatches;
const [two] = fixture.twoBatches;

// What a launcher reports of a counted process, from its record.
function outcomeOf(record) {
  const { round, memory, wallMs, startedAt, ...measurement } = record;
  return { status: 'ok', result: { benchmarkType: 'sync', memory, measurement }, wallMs, startedAt: Date.parse(startedAt) };
}

const countedCell = () => createCell({ id: 0, runtime: { version: '6.17.1', label: '6.17.1' }, flagSet: { name: 'baseline', flags: [] }, suite: { name: 'gc' }, benchmark: { name: 'old-gen-marking' }, perProcess: 'throughput', measure: 'instructions' });

// Runs one counted cell through the run loop; `records` are what its launches return, in order (an
// outcome as it is where a record has a status).
async function runCounted(records) {
  const cell = countedCell();
  const launches = [];
  const launcher = { async launch(launch) { launches.push(launch); const next = records[launches.length - 1]; return next.status ? next : outcomeOf(next); } };
  const run = completeRun({ ...INSTRUCTIONS_RUN, measure: 'instructions' });
  await runCells([cell], { run, suites: new Map([['gc', { name: 'gc' }]]), sampler: {}, baselineKey: '6.17.1/baseline', launcher, budget: createBudget(undefined), save: async () => {} });
  return { cell, launches };
}

const copy = (record) => JSON.parse(JSON.stringify(record));

test('two counted processes that took different schedules and disagree get a third; the one whose schedule the others do not share is set aside and named', async () => {
  assert.equal(wantsTieBreak([threeA, two]), true);
  assert.equal(wantsTieBreak([threeA, threeB]), false, 'two that agree need no third');
  const { cell, launches } = await runCounted([copy(two), copy(threeA), copy(threeB)]);
  assert.deepEqual(launches.map((l) => l.round), [0, 1, 2]);
  assert.equal(cell.status, 'ok');
  assert.equal(cell.processes.length, 3);
  const [first, ...others] = cell.processes;
  assert.equal(first.setAside.kind, 'schedule');
  assert.match(first.setAside.reason, /1 per batch, 1 calibration and 2 warm-up batches, against 1 per batch, 1 calibration and 3 warm-up batches\) and counted 80\.\d\d% more instructions per operation/);
  assert.ok(others.every((p) => !p.setAside));
  for (const p of cell.processes) assert.ok(validProcess(p), JSON.stringify(validProcess.errors));
  // The cell counts the two that agree: exact again, no count-varies, and not "disturbed".
  assert.equal(cell.summary.processes, 2);
  assert.ok(Math.abs(cell.summary.estimate / 24.406e6 - 1) < 1e-3, String(cell.summary.estimate));
  const codes = cell.warnings.map((w) => w.code);
  assert.ok(codes.includes('schedule-differs') && !codes.includes('count-varies') && !codes.includes('disturbed'), JSON.stringify(cell.warnings));
});

test('a cell whose processes agree runs no third; one whose third agrees with neither keeps all three and says its count varies', async () => {
  const agreeing = await runCounted([copy(threeA), copy(threeB)]);
  assert.equal(agreeing.launches.length, 2);
  assert.ok(!agreeing.cell.processes.some((p) => p.setAside));
  // A third schedule (10 warm-up batches) whose count is a third one: no majority, nothing set aside.
  const third = copy(threeB);
  third.warmup.batches = 10;
  third.instructionsPerOp = third.instructionsPerOp.map((x) => x * 1.3);
  const split = await runCounted([copy(two), copy(threeA), third]);
  assert.equal(split.launches.length, 3, 'one more process, once');
  assert.ok(!split.cell.processes.some((p) => p.setAside));
  assert.ok(split.cell.warnings.some((w) => w.code === 'count-varies'), JSON.stringify(split.cell.warnings));
});

test('processes that disagree with the same schedule (time-dependent work) run no third and are all kept', async () => {
  const drifting = copy(threeB);
  drifting.instructionsPerOp = drifting.instructionsPerOp.map((x) => x * 1.01);
  assert.equal(wantsTieBreak([threeA, drifting]), false);
  assert.equal(oddSchedules([threeA, drifting, copy(threeA)]), null);
  const { cell, launches } = await runCounted([copy(threeA), drifting]);
  assert.equal(launches.length, 2);
  assert.ok(cell.warnings.some((w) => w.code === 'count-varies'));
});

test('an extra process that fails leaves the cell its processes, said in the warning, and is not run again', async () => {
  const { cell, launches } = await runCounted([copy(two), copy(threeA), { status: 'failed', error: 'exited with code 1', wallMs: 10, startedAt: Date.now() }]);
  assert.equal(launches.length, 3);
  assert.equal(cell.status, 'ok');
  assert.deepEqual(cell.tieBreak, { status: 'failed', error: 'exited with code 1' });
  assert.equal(cell.processes.length, 2);
  assert.ok(cell.warnings.some((w) => w.code === 'schedule-differs' && /failed \(exited with code 1\), so all of them count/.test(w.message)), JSON.stringify(cell.warnings));
});

test('judged afresh at every finalize: a resumed cell whose new processes made the other schedule the majority sets the others aside; an interrupted cell owed its extra process says so', () => {
  const cell = countedCell();
  cell.processes.push(copy(two), copy(threeA), copy(threeB));
  finalizeCell(cell, { processesPerCell: 3 });
  assert.equal(cell.processes[0].setAside?.kind, 'schedule');
  // Resumed (results/resume.js keeps the records) with two more processes of the first one's schedule.
  cell.status = 'pending';
  cell.processes.push({ ...copy(two), round: 3 }, { ...copy(two), round: 4 });
  finalizeCell(cell, { processesPerCell: 5 });
  assert.deepEqual(cell.processes.map((p) => p.setAside?.kind ?? null), [null, 'schedule', 'schedule', null, null]);
  assert.ok(Math.abs(cell.summary.estimate / 43.94e6 - 1) < 1e-3, String(cell.summary.estimate));
  // While the run goes on, what chooses top-ups leaves the odd process out as well.
  const running = countedCell();
  running.processes.push(copy(two), copy(threeA), copy(threeB));
  assert.equal(currentSummary(running).processes, 2);
  const owed = countedCell();
  owed.processes.push(copy(two), copy(threeA));
  finalizeCell(owed, { interrupted: true, processesPerCell: 2 });
  assert.ok(owed.warnings.some((w) => w.code === 'interrupted' && /--resume runs it/.test(w.message)), JSON.stringify(owed.warnings));
  // A crafted record without counts makes no extra process.
  assert.equal(wantsTieBreak([threeA, { ...copy(two), instructionsPerOp: [] }]), false);
});
