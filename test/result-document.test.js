// cli/results/document.js: the result document's top level as a run creates it (before the first
// process) and finishes it (when measuring ends), checked against the schema; a run's real document
// is covered by every engine test (resume, matrix-integration, api), this is the module alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createResult, finishResult, NODEBENCH_VERSION } from '../cli/results/document.js';
import { createCell } from '../cli/results/cell.js';
import { completeRun } from '../cli/options.js';
import { createBudget } from '../cli/policy/budget.js';
import { runtimeRecord } from './helpers/result-file.js';
import { schemaErrors } from './helpers/schema.js';

// A plan as matrix/plan.js hands it over: a runtime with where it ran from, a suite with more
// benchmarks than the matrix selected, one cell per selected benchmark.
function plan() {
  const runtime = { ...runtimeRecord('16.20.2'), path: '/cache/16.20.2/bin/node', installedAt: '2026-11-27T00:00:00.000Z' };
  const flagSet = { name: 'baseline', flags: [] };
  const suite = { name: 's', file: '/suites/s/index.js', params: { n: 1 }, benchmarks: [{ name: 'a' }, { name: 'b' }], selected: ['a'] };
  const cells = [createCell({ id: 0, runtime, flagSet, suite, benchmark: { name: 'a' } })];
  return { command: ['matrix', '--quick'], runtimes: [runtime], flagSets: [flagSet], suites: [suite], run: completeRun({ seed: 7, measure: 'instructions' }), cells, order: 'in order' };
}

test('a created document records the plan, not this machine\'s paths, and passes the schema as it is first saved', () => {
  const { result, startWarnings } = createResult(plan());
  assert.equal(result.status, 'running');
  assert.equal(result.finishedAt, null);
  assert.deepEqual(result.nodebench, { version: NODEBENCH_VERSION, command: ['matrix', '--quick'] });
  assert.equal(result.runtimes[0].path, undefined, 'the cache path it ran from is not recorded');
  assert.equal(result.runtimes[0].installedAt, undefined);
  assert.deepEqual(result.suites[0].benchmarks, [{ name: 'a' }], 'only the selected benchmarks');
  assert.deepEqual(result.schedule, { seed: 7, processesPerCell: result.run.processes, maxProcessesPerCell: result.run.maxProcesses, targetRme: result.run.targetRme, order: 'in order' });
  // A count is not moved by the host's load, so an instructions run warns of none.
  assert.deepEqual(startWarnings, []);
  assert.deepEqual(result.warnings, []);
  assert.deepEqual(schemaErrors(result), []);
});

test('a finished document says how the run ended, and passes the schema', () => {
  const { run } = plan();
  const { result } = createResult(plan());
  finishResult(result, { run, interrupted: true, budget: createBudget(undefined).state });
  assert.equal(result.status, 'interrupted');
  assert.ok(Date.parse(result.finishedAt) >= Date.parse(result.createdAt));
  assert.equal(result.cells[0].status, 'skipped', 'a cell that never ran is skipped by the interrupt');
  assert.equal(result.schedule.timeBudget, undefined, 'no budget, no record of one');
  assert.equal(result.host.loadAverageEnd.length, 3);
  assert.deepEqual(schemaErrors(result), []);
});

test('a document that continues a complete run is refused', () => {
  const { result: previous } = createResult(plan());
  finishResult(previous, { run: previous.run, interrupted: false, budget: createBudget(undefined).state });
  assert.throws(() => createResult({ ...plan(), previous, file: 'r.json' }), /r\.json holds a complete run; there is nothing to resume/);
});
