// The worker <-> host channel (worker/protocol.js) against what is really said on it: every
// message of real workers on Node 4.9.1 and on the newest runtime in the cache (each mode, a
// failure, an unsupported benchmark, a process that exits, a service, a process counted under
// valgrind) and of the command probe is one the protocol lists, with its required fields and no
// other; and the process records cli/results/cell.js makes of the real results are accepted by
// cli/results/result.schema.json, whose process fields are exactly those the protocol says a
// record keeps plus those the host adds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { root } from './helpers/cli.js';
import { testRuntime, OLDEST } from './helpers/runtimes.js';
import { listCached } from '../cli/runtimes/cache.js';
import semver from 'semver';
import { launchWorker, superviseWorker } from '../cli/process/supervise.js';
import { spawnWorker } from '../cli/process/spawn.js';
import { sendRequest } from '../cli/process/channel.js';
import { startService } from '../cli/runner/service-process.js';
import { runInstructions } from '../cli/runner/instructions.js';
import { processRecord } from '../cli/results/cell.js';

const protocol = createRequire(import.meta.url)('../worker/protocol.js');
const schema = JSON.parse(fs.readFileSync(path.join(root, 'cli', 'results', 'result.schema.json'), 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
ajv.addSchema(schema);
const validProcess = ajv.getSchema(`${schema.$id}#/definitions/process`);

const smoke = path.join(root, 'test', 'fixtures', 'suites', 'smoke', 'index.js');
const exits = path.join(root, 'test', 'fixtures', 'suites', 'exits', 'index.js');
const service = path.join(root, 'suites', 'service', 'index.js');
// Short processes: what is checked is what they say, not what they measure.
const SAMPLER = { samples: 3, minSampleMs: 1, warmupMinMs: 1, warmupMaxMs: 20, maxSampleMs: 50 };
const COUNTING = { batches: 2, markerBatches: 1, minBatchInstructions: 1e5, warmupMinInstructions: 1e5, warmupMinOperations: 10, warmupMaxInstructions: 1e6, warmupMaxBatches: 5 };

async function newestCached() {
  const versions = (await listCached()).filter((r) => r.state === 'ok').map((r) => r.version);
  return versions.sort(semver.compare).pop();
}

// What the protocol finds wrong with each message, named by the run that said it.
function departures(runs) {
  return runs.flatMap(({ name, messages }) => messages.flatMap((m) => protocol.problems(m).map((p) => `${name}: ${p}`)));
}

// Every message a worker says in each mode and way of ending, on one runtime.
async function workerRuns(runtime) {
  const run = async (name, request, options = {}) => {
    const launched = await launchWorker(runtime.path, [], request, { timeoutMs: 60_000, cwd: path.dirname(request.suite), ...options });
    return { name: `${name} on Node ${runtime.version}`, messages: launched.messages, launched };
  };
  const runs = [
    await run('list', { mode: 'list', suite: smoke }),
    await run('run', { mode: 'run', suite: smoke, benchmark: 'sum-loop', params: {}, sampler: { ...SAMPLER, recordDisturbance: true } }),
    await run('run without empty batches', { mode: 'run', suite: smoke, benchmark: 'promise-chain', params: {}, sampler: { ...SAMPLER, emptyBatches: 0 } }),
    await run('metrics', { mode: 'metrics', suite: smoke, benchmark: 'sum-loop', params: {}, sampler: { ...SAMPLER, samples: 1e9, maxSampleMs: 50 } }),
    await run('once', { mode: 'once', suite: smoke, benchmark: 'sum-loop', params: {} }),
    await run('a benchmark that throws', { mode: 'run', suite: smoke, benchmark: 'throws', params: {}, sampler: SAMPLER }),
    await run('a suite that exits in its setup', { mode: 'run', suite: exits, benchmark: 'never-reached', params: {}, sampler: SAMPLER })
  ];
  // Node 4 cannot parse async functions: the benchmark that needs them is unsupported there.
  if (semver.lt(runtime.version, '7.6.0')) runs.push(await run('an unsupported benchmark', { mode: 'run', suite: smoke, benchmark: 'needs-async-await', params: {}, sampler: SAMPLER }));
  return runs;
}

// A service worker through its whole life, without the load: listening, started, service-metrics.
async function serviceRun(runtime) {
  const worker = startService(runtime.path, [], { suite: service, benchmark: 'max-throughput', params: {} }, { cwd: path.dirname(service) });
  try {
    await worker.next('listening');
    worker.send('start');
    await worker.next('started');
    worker.send('stop');
    await worker.next('service-metrics');
    await worker.exited;
  } finally {
    worker.kill();
  }
  return { name: `a service on Node ${runtime.version}`, messages: worker.messages };
}

// The command probe (the host's Node) running a whole command: its hello and the measured run's
// command message; and for one that cannot start, the failed warm-up's.
async function probeRuns() {
  const probe = path.join(root, 'cli', 'runner', 'command-probe.js');
  const runs = [];
  for (const [name, argv] of [['a command', [process.execPath, '-e', '0']], ['a command that is not there', ['nodebench-no-such-command']]]) {
    const child = spawnWorker(process.execPath, [probe], { stdin: 'pipe', cwd: root });
    sendRequest(child, { argv, shell: false, cwd: root, env: { PATH: process.env.PATH }, warmupRuns: 1 });
    const { messages } = await superviseWorker(child, { timeoutMs: 60_000 });
    runs.push({ name: `the command probe, ${name}`, messages });
  }
  return runs;
}

// One process counted under valgrind, as a run measured in instructions starts it.
async function countedRun(runtime) {
  const cell = { flags: [], benchmark: 'sum-loop' };
  const { outcome, launched } = await runInstructions(cell, runtime, { file: smoke, params: {} }, { options: COUNTING, timeoutMs: 300_000 });
  assert.equal(outcome.status, 'ok', `the counted process on Node ${runtime.version}: ${outcome.error}`);
  return { name: `a counted process on Node ${runtime.version}`, messages: launched.messages, outcome };
}

const record = (outcome) => processRecord(1, outcome.result, 100, { startedAt: Date.now(), phasesMs: undefined });

// The process record's fields that come from the worker's result, by the protocol: the fields it
// keeps as they are, the record fields others become, and what the result message gives besides.
function fieldsFromWorker(measure) {
  const kept = Object.entries(protocol.MEASUREMENTS[measure]).map(([name, { kept: how }]) => (how === 'as is' ? name : how)).filter(Boolean);
  const besides = Object.values(protocol.RESULT_KEPT).filter((how) => how && !how.startsWith('cell.') && how !== 'the record');
  return [...kept, ...besides];
}

// What the host adds to a process record, and where.
const HOST_FIELDS = {
  round: 'the launch (policy/policy.js)', wallMs: 'the launcher', startedAt: 'the launcher', phasesMs: 'runner/launcher.js processPhases',
  rerun: 'a replacement launch', replaced: 'results/cell.js noteLaunch', duetWith: 'run.pairing duet', pair: 'run.pairing duet', cpu: 'run.pairing (taskset)',
  service: 'runner/service.js (a service cell)', command: 'runner/command.js (a command cell)',
  instructionsPerSample: 'process/valgrind.js instructionFigures', markerInstructions: 'process/valgrind.js instructionFigures',
  operationsPerSample: 'process/valgrind.js instructionFigures', cache: 'process/valgrind.js instructionFigures (run.cacheSim)', valgrind: 'runner/instructions.js',
  hostAdjustment: 'stats/covariate.js', keptSamples: 'results/cell.js judgeCell', setAside: 'results/cell.js judgeCell'
};

test('the protocol loads on Node 4.9.1 and lists the channel\'s final messages', async () => {
  const node4 = await testRuntime(OLDEST);
  const launched = await launchWorker(node4.path, [], { mode: 'once', suite: smoke, benchmark: 'sum-loop', params: {} }, { timeoutMs: 60_000, cwd: path.dirname(smoke) });
  // channel.js requires the protocol before the worker says anything.
  assert.deepEqual(launched.messages.map((m) => m.type), ['hello', 'phase', 'phase', 'value']);
  assert.deepEqual(protocol.finalTypes().sort(), ['error', 'exit', 'metrics', 'result', 'service-metrics', 'suite', 'unsupported', 'value']);
});

for (const which of ['oldest', 'newest']) {
  test(`every message of real workers on the ${which} runtime is one the protocol lists, with its fields and no other`, { timeout: 600_000 }, async () => {
    const runtime = await testRuntime(which === 'oldest' ? OLDEST : await newestCached());
    const runs = [...await workerRuns(runtime), await serviceRun(runtime)];
    const types = new Set(runs.flatMap((r) => r.messages.map((m) => m.type)));
    for (const type of ['hello', 'phase', 'suite', 'result', 'metrics', 'value', 'error', 'exit', 'listening', 'started', 'service-metrics']) {
      assert.ok(types.has(type), `the runs on Node ${runtime.version} said a ${type} message`);
    }
    assert.deepEqual(departures(runs), []);
    // A result with every optional field, and one without empty batches.
    const results = runs.filter((r) => r.name.startsWith('run')).map((r) => r.messages.find((m) => m.type === 'result'));
    assert.ok(results[0].measurement.disturbance && results[0].measurement.emptyNsPerOp, 'the first result has disturbance readings and empty batches');
    assert.equal(results[1].measurement.emptyNsPerOp, undefined);
  });
}

test('the command probe\'s messages are ones the protocol lists', { timeout: 120_000 }, async () => {
  const runs = await probeRuns();
  assert.deepEqual(runs.map((r) => r.messages.map((m) => `${m.type} ${m.phase ?? ''}`.trim())), [['hello', 'command measured'], ['hello', 'command warmup']]);
  assert.deepEqual(departures(runs), []);
});

test('the messages of a process counted under valgrind on Node 4.9.1 and the newest runtime are ones the protocol lists', { timeout: 900_000, skip: !fs.existsSync('/usr/bin/valgrind') && 'valgrind is not installed' }, async () => {
  const runs = [];
  for (const spec of [OLDEST, await newestCached()]) runs.push(await countedRun(await testRuntime(spec)));
  assert.deepEqual(departures(runs), []);
  for (const run of runs) {
    assert.equal(protocol.measureOf(run.messages.find((m) => m.type === 'result').measurement), 'instructions');
    // The record of a counted process is accepted by the schema.
    const kept = record(run.outcome);
    assert.ok(validProcess(kept), `${run.name}: ${ajv.errorsText(validProcess.errors)}`);
  }
});

test('the schema\'s process fields are exactly what the protocol says a record keeps and what the host adds; real records are accepted', { timeout: 300_000 }, async () => {
  const fromWorker = new Set([...fieldsFromWorker('time'), ...fieldsFromWorker('instructions')]);
  const overlap = Object.keys(HOST_FIELDS).filter((f) => fromWorker.has(f));
  assert.deepEqual(overlap, [], 'a field is either the worker\'s or the host\'s');
  const written = new Set([...fromWorker, ...Object.keys(HOST_FIELDS)]);
  const described = Object.keys(schema.definitions.process.properties);
  assert.deepEqual({ writtenButNotInTheSchema: [...written].filter((f) => !described.includes(f)), inTheSchemaButNeverWritten: described.filter((f) => !written.has(f)) },
    { writtenButNotInTheSchema: [], inTheSchemaButNeverWritten: [] });
  for (const spec of [OLDEST, await newestCached()]) {
    const runtime = await testRuntime(spec);
    const launched = await launchWorker(runtime.path, [], { mode: 'run', suite: smoke, benchmark: 'sum-loop', params: {}, sampler: { ...SAMPLER, recordDisturbance: true } }, { timeoutMs: 60_000, cwd: path.dirname(smoke) });
    const result = launched.messages.find((m) => m.type === 'result');
    const kept = record({ result });
    assert.ok(validProcess(kept), `the record of a process on Node ${runtime.version}: ${ajv.errorsText(validProcess.errors)}`);
    // Each field the protocol keeps as it is, is in the record with the worker's value.
    for (const name of protocol.keptAsIs('time')) assert.deepEqual(kept[name], result.measurement[name], name);
  }
});
