// Counting instructions (measure 'instructions'): the worker's counting sampler with a fake counter,
// callgrind's parts read back into instructions per operation, the valgrind command line and its
// refusals. Real runtimes under real valgrind: test/long/instructions-valgrind.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { callgrindPrefix, findValgrind, instructionFigures, parsePartHeader, readParts, makeCountingDir, removeCountingDir, valgrindProblem, CYCLE_FORMULA, estimatedCycles } from '../cli/process/valgrind.js';
import { malformedResult } from '../cli/runner/outcome.js';
import { processRecord } from '../cli/results/cell.js';
import { instructionsTimeout, VALGRIND_TIMEOUT_FACTOR } from '../cli/runner/instructions.js';
import { summarize, warningsFor } from '../cli/stats/summary.js';
import { MEASURES } from '../cli/measure.js';

const require = createRequire(import.meta.url);
const counting = require('../worker/instructions.js');

// A counter whose counts are the calls of a fake benchmark since the previous mark: `costOf(call)`
// instructions each, plus `overhead` per batch; marks are parts 1, 2, ...
function fakeCounter({ costOf, overhead = 500 }) {
  const state = { calls: 0, marks: 0, since: 0, counts: new Map() };
  return {
    state,
    fn() {
      state.calls++;
      state.since += costOf(state.calls);
      return state.calls;
    },
    counter: {
      mark() {
        state.marks++;
        state.counts.set(state.marks, Math.round(state.since) + overhead);
        state.since = 0;
        return state.marks;
      },
      marks: () => state.marks,
      read: (part) => state.counts.get(part),
      close() {}
    }
  };
}

function measure(fn, options, counter, type = 'sync') {
  return new Promise((resolve, reject) => counting.measure(fn, {}, type, options, counter, (err, report) => (err ? reject(err) : resolve(report))));
}

test('the counting sampler calibrates on counts to 1-2-5 iterations, warms up until the count per operation settles, then counts the measured batches and marker batches of 0 iterations', async () => {
  // A benchmark whose calls cost 3000 instructions for its first 5,000 calls and 1000 after (a
  // tier-up, within the warm-up's minimum of instructions).
  const fake = fakeCounter({ costOf: (call) => (call <= 5000 ? 3000 : 1000) });
  const report = await measure(() => fake.fn(), { minBatchInstructions: 1e6, warmupMinInstructions: 20e6, warmupMinOperations: 12_000, batches: 4 }, fake.counter);
  assert.equal(report.measure, 'instructions');
  // 1 and 10 calls are far below 1e6 (x10); 100 calls count 300,500, so 1e6 x 1.1 needs 366, and
  // 500 (a 1-2-5 value) reach it.
  assert.equal(report.iterationsPerSample, 500);
  assert.deepEqual(report.batches.filter((b) => b.phase === 'calibrate').map((b) => b.operations), [1, 10, 100, 500]);
  // The warm-up went past the tier-up (call 5,000) and ended when the count per operation had settled.
  const warm = report.batches.filter((b) => b.phase === 'warmup');
  assert.ok(report.warmup.stable && report.warmup.instructions >= 20e6 && report.warmup.operations >= 12_000, JSON.stringify(report.warmup));
  assert.ok(611 + (warm.length - 6) * 500 > 5000, `${warm.length} warm-up batches`);
  // It stopped as soon as all three held: 24 batches of 500 calls are the first past 12,000.
  assert.equal(warm.length, 24);
  // The measured batches, then three marker batches of 0 iterations, every one with its own part.
  const phases = report.batches.map((b) => b.phase);
  assert.deepEqual(phases.slice(-7), ['sample', 'sample', 'sample', 'sample', 'marker', 'marker', 'marker']);
  assert.deepEqual(report.batches.map((b) => b.part), report.batches.map((b, i) => 2 * i + 2));
  assert.equal(report.marks, 2 * report.batches.length);
  assert.deepEqual(report.batches.filter((b) => b.phase === 'sample').map((b) => b.instructions), [500_500, 500_500, 500_500, 500_500]);
  assert.equal(report.operations, 2000);
});

test('a count that never settles (GC every other batch) ends the warm-up at warmupMaxInstructions, and says so', async () => {
  const fake = fakeCounter({ costOf: (call) => (Math.floor(call / 100) % 2 ? 1000 : 1500) });
  const report = await measure(() => fake.fn(), { iterations: 100, warmupMaxInstructions: 5e6, batches: 2 }, fake.counter);
  assert.equal(report.warmup.stable, false);
  assert.ok(report.warmup.instructions >= 5e6 && report.warmup.instructions < 5.2e6, JSON.stringify(report.warmup));
});

test('batches grow back during the warm-up when the first calls, compiling, made calibration stop at a few iterations', async () => {
  // 200,000 instructions for each of the first 10 calls, then 1,000.
  const fake = fakeCounter({ costOf: (call) => (call <= 10 ? 200_000 : 1000) });
  const report = await measure(() => fake.fn(), { minBatchInstructions: 1e6, warmupMinInstructions: 5e6, batches: 2 }, fake.counter);
  assert.deepEqual(report.batches.filter((b) => b.phase === 'calibrate').map((b) => b.operations), [1, 10]);
  const warm = report.batches.filter((b) => b.phase === 'warmup').map((b) => b.operations);
  // 10 calls of 1,000 are far below 1e6 / 2: 10 x 1.1e6 / 10,500 -> 1048 -> 2000.
  assert.deepEqual(warm.slice(0, 2), [10, 2000]);
  assert.equal(report.iterationsPerSample, 2000);
  assert.ok(warm.slice(1).every((n) => n === 2000) && report.warmup.stable);
});

test('fixed iterations and warm-up batches are taken as given; a per-call form is refused in a sentence', async () => {
  const fake = fakeCounter({ costOf: () => 10 });
  const report = await measure(() => fake.fn(), { iterations: 7, warmupBatches: 2, markerBatches: 1, batches: 3 }, fake.counter);
  assert.deepEqual(report.batches.map((b) => `${b.phase}:${b.operations}`), ['warmup:7', 'warmup:7', 'sample:7', 'sample:7', 'sample:7', 'marker:0']);
  const none = await measure(() => fake.fn(), { iterations: 5, warmupBatches: 0, markerBatches: 0, batches: 1 }, fakeCounter({ costOf: () => 1 }).counter);
  assert.deepEqual(none.batches.map((b) => b.phase), ['sample']);
  await assert.rejects(measure({ timing: 'per-call', fn() {}, why: 'tinybench runs beforeEach before every call' }, {}, fake.counter),
    /tinybench runs beforeEach before every call, so nodebench would time each call alone; an instruction count cannot leave that work out/);
});

test('a promise benchmark is counted from the first call to the last settlement of its batch', async () => {
  const fake = fakeCounter({ costOf: () => 200 });
  const report = await measure(() => Promise.resolve(fake.fn()), { iterations: 50, warmupBatches: 1, batches: 2 }, fake.counter, 'promise');
  assert.deepEqual(report.batches.filter((b) => b.phase === 'sample').map((b) => b.instructions), [10_500, 10_500]);
});

test('the counter reads the first event\'s total from a part\'s header, and says when it is not under callgrind', () => {
  assert.equal(counting.firstEventCount('# callgrind format\nversion: 1\nevents: Ir\nsummary: 4030409\n\nfn=(1) x\n'), 4030409);
  assert.equal(counting.firstEventCount('events: Ir\n'), null);
  assert.deepEqual([1, 2, 3, 4, 6, 11, 20, 21, 99, 100, 101, 499].map(counting.niceAtLeast), [1, 2, 5, 5, 10, 20, 20, 50, 100, 100, 200, 500]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-counter-'));
  try {
    const counter = counting.counter({ marker: path.join(dir, 'marks'), parts: path.join(dir, 'callgrind.out') });
    assert.equal(counter.mark(), 1);
    assert.throws(() => counter.read(1), /no instruction count was written for batch mark 1 .*: the worker is not running under valgrind's callgrind with --dump-before=fdatasync/);
    fs.writeFileSync(path.join(dir, 'callgrind.out.1'), 'events: Ir\nsummary: 12\n');
    assert.equal(counter.read(1), 12);
    counter.close();
    // A vgdb that cannot run is the sentence the host recognises (and then counts from the start).
    assert.equal(counter.switchable, false);
    const switching = counting.counter({ marker: path.join(dir, 'marks2'), parts: path.join(dir, 'callgrind.out'), vgdb: path.join(dir, 'no-vgdb'), vgdbPrefix: path.join(dir, 'vgdb') });
    assert.equal(switching.switchable, true);
    assert.match(switching.instrument('on'), /^valgrind's vgdb could not switch callgrind's instrumentation on \(.*ENOENT/);
    assert.deepEqual(switching.switches().map((s) => s.state), ['on']);
    switching.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

function part(n, ir, { events = 'Ir', trigger = '--dump-before=fdatasync' } = {}) {
  return `# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 1\ncmd: node x\npart: ${n}\n\n\ndesc: I1 cache:\ndesc: Trigger: ${trigger}\n\npositions: line\nevents: ${events}\nsummary: ${ir}\n\n\nfn=(1) main\n0 ${ir}\n`;
}

function measurement(batches, marks = batches.length * 2) {
  return { measure: 'instructions', iterationsPerSample: 100, batches, marks, warmup: { batches: 1, ms: 1, instructions: 1, stable: true }, sampleMs: 1 };
}

test('callgrind\'s parts become instructions per operation of each measured batch, the marker batch subtracted', () => {
  const dir = makeCountingDir(os.tmpdir());
  try {
    assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
    const counts = { 1: 5000, 2: 700_400, 3: 900, 4: 400, 5: 800, 6: 70_400, 7: 800, 8: 70_600 };
    for (const [n, ir] of Object.entries(counts)) fs.writeFileSync(path.join(dir, `callgrind.out.${n}`), part(n, ir));
    // Written at the exit: not a batch.
    fs.writeFileSync(path.join(dir, 'callgrind.out'), part(9, 123, { trigger: 'Program termination' }));
    fs.writeFileSync(path.join(dir, 'valgrind.log'), '==1== Callgrind, a call-graph generating cache profiler\n');
    const parts = readParts(dir);
    assert.deepEqual([...parts.keys()].sort((a, b) => a - b), [1, 2, 3, 4, 5, 6, 7, 8]);
    const batches = [
      { phase: 'warmup', operations: 1000, part: 2, instructions: 700_400 },
      { phase: 'marker', operations: 0, part: 4, instructions: 400 },
      { phase: 'sample', operations: 100, part: 6, instructions: 70_400 },
      { phase: 'sample', operations: 100, part: 8, instructions: 70_600 }
    ];
    assert.deepEqual(instructionFigures(measurement(batches), parts), { instructionsPerOp: [700, 702], instructionsPerSample: [70_400, 70_600], markerInstructions: 400 });
    // A benchmark that calls fdatasync itself adds parts nobody marked.
    fs.writeFileSync(path.join(dir, 'callgrind.out.9'), part(9, 10));
    assert.throws(() => instructionFigures(measurement(batches), readParts(dir)), /^Error: the benchmark called fdatasync\(\) itself \(callgrind wrote 9 counts for nodebench's 8 marks\)/);
    fs.rmSync(path.join(dir, 'callgrind.out.9'));
    fs.rmSync(path.join(dir, 'callgrind.out.5'));
    assert.throws(() => instructionFigures(measurement(batches), readParts(dir)), /callgrind wrote 7 of the 8 instruction counts nodebench marked \(part 5 is missing\)/);
    fs.writeFileSync(path.join(dir, 'callgrind.out.5'), part(5, 800));
    assert.throws(() => instructionFigures(measurement([...batches.slice(0, 3), { ...batches[3], instructions: 1 }]), readParts(dir)), /part 8 reads 70600 in callgrind's file and 1 in the worker's report/);
    assert.equal(valgrindProblem(dir), null);
    fs.appendFileSync(path.join(dir, 'valgrind.log'), '==1== vex amd64->IR: unhandled instruction bytes: 0x62 0xF1\n');
    assert.equal(valgrindProblem(dir), 'vex amd64->IR: unhandled instruction bytes: 0x62 0xF1');
  } finally {
    removeCountingDir(dir);
  }
  assert.equal(fs.existsSync(dir), false);
  // With cache simulation the first event need not be Ir.
  assert.deepEqual(parsePartHeader(part(3, '10 20', { events: 'Dr Ir' })), { part: 3, events: ['Dr', 'Ir'], totals: [10, 20], trigger: '--dump-before=fdatasync' });
  assert.equal(parsePartHeader('part: 1\nevents: Ir\n'), null);
  // The part that spans a switch of instrumentation has a wrapped negative total: no count, and no batch.
  assert.deepEqual(parsePartHeader(part(3, '18446744073696729111')).totals, [null]);
});

test('with cache simulation, each batch\'s misses are kept raw and estimated cycles per operation follow the stated formula, the marker\'s subtracted', () => {
  const dir = makeCountingDir(os.tmpdir());
  const events = 'Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw';
  try {
    const counts = { 1: '9 0 0 0 0 0 0 0 0', 2: '400 100 50 2 3 1 1 1 0', 3: '70400 9000 4000 20 30 10 5 6 2', 4: '70600 9000 4000 20 30 10 5 6 2' };
    for (const [n, totals] of Object.entries(counts)) fs.writeFileSync(path.join(dir, `callgrind.out.${n}`), part(n, totals, { events }));
    const batches = [
      { phase: 'marker', operations: 0, part: 2, instructions: 400 },
      { phase: 'sample', operations: 100, part: 3, instructions: 70_400 },
      { phase: 'sample', operations: 100, part: 4, instructions: 70_600 }
    ];
    const figures = instructionFigures(measurement(batches, 4), readParts(dir));
    assert.deepEqual(figures.instructionsPerOp, [700, 702]);
    assert.equal(figures.cache.formula, CYCLE_FORMULA);
    assert.deepEqual(figures.cache.perSample.D1mr, [30, 30]);
    assert.deepEqual(figures.cache.marker, { Ir: 400, Dr: 100, Dw: 50, I1mr: 2, D1mr: 3, D1mw: 1, ILmr: 1, DLmr: 1, DLmw: 0 });
    // Batch 1: 70,400 + 10 x 60 + 100 x 13 = 72,300; the marker: 400 + 10 x 6 + 100 x 2 = 660.
    assert.equal(estimatedCycles({ Ir: 70_400, Dr: 0, Dw: 0, I1mr: 20, D1mr: 30, D1mw: 10, ILmr: 5, DLmr: 6, DLmw: 2 }), 72_300);
    assert.deepEqual(figures.cache.estimatedCyclesPerOp, [(72_300 - 660) / 100, (72_500 - 660) / 100]);
    // Without the miss events (no --cache-sim), no cache figures.
    for (const n of [2, 3, 4]) fs.writeFileSync(path.join(dir, `callgrind.out.${n}`), part(n, counts[n].split(' ')[0]));
    assert.equal(instructionFigures(measurement(batches, 4), readParts(dir)).cache, undefined);
  } finally {
    removeCountingDir(dir);
  }
  // The simulated caches are fixed, never the host's.
  const { prefix } = callgrindPrefix({ valgrind: { path: '/usr/bin/valgrind', version: '3.19.0' }, setarch: null, dir: '/d', cacheSim: true });
  assert.deepEqual(prefix.filter((arg) => /^--(cache-sim|I1|D1|LL)=/.test(arg)), ['--cache-sim=yes', '--I1=32768,8,64', '--D1=32768,8,64', '--LL=8388608,16,64']);
});

test('the valgrind command is an argument array into the process\'s own folder, setarch first where there is one', () => {
  const valgrind = { path: '/usr/bin/valgrind', version: '3.19.0' };
  const { prefix, counting: files } = callgrindPrefix({ valgrind, setarch: ['/usr/bin/setarch', 'x86_64', '-R'], dir: '/tmp/d x' });
  assert.deepEqual(prefix, ['/usr/bin/setarch', 'x86_64', '-R', '/usr/bin/valgrind', '--tool=callgrind', '--callgrind-out-file=/tmp/d x/callgrind.out', '--dump-before=fdatasync', '--dump-instr=no', '--dump-line=no', '--trace-children=no', '--log-file=/tmp/d x/valgrind.log']);
  assert.deepEqual(files, { marker: '/tmp/d x/marks', parts: '/tmp/d x/callgrind.out' });
  assert.equal(callgrindPrefix({ valgrind, setarch: null, dir: '/d' }).prefix[0], '/usr/bin/valgrind');
  // With a vgdb, instrumentation starts off and the worker is told how to switch it on.
  const switched = callgrindPrefix({ valgrind: { ...valgrind, vgdb: '/usr/bin/vgdb' }, setarch: null, dir: '/d', switchable: true });
  assert.deepEqual(switched.prefix.slice(-3), ['--instr-atstart=no', '--vgdb-prefix=/d/vgdb', '--log-file=/d/valgrind.log']);
  assert.deepEqual(switched.counting, { marker: '/d/marks', parts: '/d/callgrind.out', vgdb: '/usr/bin/vgdb', vgdbPrefix: '/d/vgdb' });
  assert.ok(!callgrindPrefix({ valgrind, setarch: null, dir: '/d', switchable: true }).prefix.includes('--instr-atstart=no'));
});

test('no valgrind, or no Linux, is one sentence that says what to do', async () => {
  await assert.rejects(findValgrind({ env: { PATH: '/nonexistent' } }), { name: 'UserError', message: 'measuring instructions runs each process under valgrind, which is not installed here: install it (apt-get install valgrind on Debian/Ubuntu), or measure time.' });
  await assert.rejects(findValgrind({ platform: 'darwin' }), { name: 'UserError', message: /^measuring instructions needs Linux \(it runs each process under valgrind's callgrind\); on macOS, run nodebench in a Linux container or VM, or measure time\.$/ });
  await assert.rejects(findValgrind({ platform: 'win32' }), /on Windows, run nodebench in a Linux container or VM/);
});

test('a counted result is checked before it is recorded, and recorded in instructions, never as time', () => {
  const batches = [{ phase: 'marker', operations: 0, part: 2, instructions: 400 }, { phase: 'sample', operations: 100, part: 4, instructions: 70_400 }];
  const good = { measurement: { ...measurement(batches), instructionsPerOp: [700], instructionsPerSample: [70_400], markerInstructions: 400, timing: 'batch', sinkType: 'number', valgrind: { tool: 'callgrind' } }, memory: { rss: 1 } };
  assert.equal(malformedResult(good), null);
  assert.match(malformedResult({ measurement: { ...good.measurement, batches: [{ phase: 'marker', operations: 0, part: 2, instructions: 1 }] } }), /no measured batch/);
  assert.match(malformedResult({ measurement: { ...good.measurement, batches: [{ phase: 'sample', operations: -1, part: 2, instructions: 1 }] } }), /marked batches/);
  assert.match(malformedResult({ measurement: { ...good.measurement, marks: 1 } }), /marks/);
  const record = processRecord(2, good, 30_000, { startedAt: 0, phasesMs: { startMs: 1 } });
  assert.deepEqual(record, {
    round: 2, measure: 'instructions', instructionsPerOp: [700], instructionsPerSample: [70_400], markerInstructions: 400, iterationsPerSample: 100,
    calibrationBatches: undefined, warmup: good.measurement.warmup, sampleMs: 1, timing: 'batch', sinkType: 'number', valgrind: { tool: 'callgrind' },
    memory: { rss: 1 }, wallMs: 30_000, startedAt: '1970-01-01T00:00:00.000Z', phasesMs: { startMs: 1 }
  });
  assert.equal('samplesNsPerOp' in record, false);
});

test('a first process under valgrind gets its time limit scaled; one derived from its cell\'s counted processes does not', () => {
  assert.equal(instructionsTimeout({ timeoutMs: 120_000 }), 120_000 * VALGRIND_TIMEOUT_FACTOR);
  assert.equal(instructionsTimeout({ timeoutMs: 50_000, expectedMs: 10_000 }), 50_000);
});

test('a count that varies between processes names the polls that stopped waiting for a blocked thread-pool task', () => {
  const counted = (perOp, pollsGivenUp) => ({ measure: 'instructions', instructionsPerOp: [perOp, perOp, perOp], valgrind: { tool: 'callgrind', pollsGivenUp } });
  const warning = (processes) => warningsFor(summarize(processes, { measure: MEASURES.instructions }), processes).find((w) => w.code === 'count-varies');
  const blocked = warning([counted(1_000_000, 0), counted(1_030_000, 4)]);
  assert.match(blocked.message, /differ by 3\.00%/);
  assert.match(blocked.message, /In 1 of its processes the event loop stopped waiting for a thread-pool task that blocked \(valgrind\.pollsGivenUp/);
  assert.doesNotMatch(warning([counted(1_000_000, 0), counted(1_030_000, null)]).message, /stopped waiting/);
  assert.equal(warning([counted(1_000_000, 0), counted(1_000_001, 0)]), undefined);
});
