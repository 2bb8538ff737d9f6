// diff --fail-on-regression N --confirm on real runs: a comparison that looks slower is measured
// again (both columns, interleaved, in a fresh run on this machine) and the gate fails only when
// that run decides it slower; the decision and its reasons are in --format json and Markdown; what
// --confirm cannot re-run is refused in one sentence. The suite (test/fixtures/suites/marked) does
// ten times the work in `slows` under --title=nodebench-marked (a Node option that only names the
// process), a real slowdown of one benchmark between two flag sets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { nodebench, root } from '../helpers/cli.js';
import { schemaErrors } from '../helpers/schema.js';
import { resultObject, runtimeRecord } from '../helpers/result-file.js';
import { summarize } from '../../cli/stats/summary.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-confirm-'));
const suite = path.join(root, 'test', 'fixtures', 'suites', 'marked', 'index.js');
const RUN = { processes: 3, maxProcesses: 3, samples: 5, minSampleMs: 5, warmupMinMs: 20, metrics: false };

async function runMarked(name, benchmarks) {
  const matrix = path.join(tmp, `${name}.yaml`);
  fs.writeFileSync(matrix, YAML.stringify({ runtimes: ['system'], flagSets: { baseline: [], marked: ['--title=nodebench-marked'] }, suites: [{ name: suite, benchmarks }], run: RUN }));
  const out = path.join(tmp, `${name}.json`);
  const run = await nodebench(['matrix', '--matrix', matrix, '--out', out]);
  assert.equal(run.exitCode, 0, run.stderr);
  return { out, result: JSON.parse(fs.readFileSync(out, 'utf8')) };
}

test('a real slowdown is confirmed and fails the gate; the decision and its reasons are in the JSON and the Markdown', { timeout: 300_000 }, async (t) => {
  const { out, result } = await runMarked('real', ['steady', 'slows']);
  const from = `${result.runtimes[0].label}/baseline`;
  const to = `${result.runtimes[0].label}/marked`;
  const confirmOut = path.join(tmp, 'real-confirm.json');
  // `slows` is ten times slower (-90%); the threshold is 60% so that the unchanged `steady`, 3
  // processes a side on a loaded 2-core machine and then 8 re-measured, cannot join it in the gate
  // (unchanged code re-measured at 5 processes a side came out 34% slower here on 2026-11-24).
  const gate = await nodebench(['diff', out, '--from', from, '--to', to, '--fail-on-regression', '60', '--confirm', '--confirm-processes', '8', '--confirm-out', confirmOut, '--json']);
  const json = JSON.parse(gate.stdout);
  const busy = json.gate.confirm.candidates.find((c) => c.label === 'marked/slows' && !c.confirmation);
  if (busy) {
    // Other programs held the CPU through most of the re-measurement: not confirmed, and said so.
    assert.match(busy.problem, /^the machine was too busy to re-measure it/);
    assert.equal(gate.exitCode, 0);
    t.diagnostic(`not checked further: ${busy.problem}`);
    return;
  }
  assert.equal(gate.exitCode, 1, gate.stderr);
  assert.deepEqual(json.gate.failures.map((f) => f.label), ['marked/slows']);
  assert.match(json.gate.failures[0].columns[0].problem, /^-\d+\.\d% slower \(re-measured, 95% CI .*q [<=] [\d.]+\); first -\d+\.\d%$/);
  const confirm = json.gate.confirm;
  assert.match(confirm.rule, /the first measurement cannot clear .* both sides .*interleaved in one run/);
  assert.match(confirm.evidence, /the re-measurement alone decides/);
  assert.deepEqual(confirm.files, [confirmOut]);
  const slows = confirm.candidates.find((c) => c.label === 'marked/slows');
  assert.equal(slows.confirmation.verdict, 'slower');
  assert.ok(slows.confirmation.ratio < 0.6 && typeof slows.confirmation.paired === 'boolean' && slows.confirmation.method.length > 0);
  assert.ok(slows.first.ratio < 1);
  // The confirmation is a result file of its own, two columns of the suspicious benchmarks only.
  const again = JSON.parse(fs.readFileSync(confirmOut, 'utf8'));
  assert.deepEqual(schemaErrors(again), []);
  assert.deepEqual([...new Set(again.cells.map((c) => `${c.runtimeLabel}/${c.flagSet}`))].sort(), [from, to].sort());
  assert.ok(again.cells.every((c) => c.processes.length >= 8 && confirm.candidates.some((k) => k.label === `marked/${c.benchmark}`)));
  assert.match(gate.stderr, /nodebench: confirming \d comparison\(s\) the first measurement cannot clear/);
  assert.match(gate.stderr, /1 benchmark\(s\) fail the gate \(slower by more than 60% \(where re-measured, over the whole 95% interval\)/);

  const md = await nodebench(['diff', out, '--from', from, '--to', to, '--fail-on-regression', '60', '--confirm', '--confirm-processes', '8', '--confirm-out', path.join(tmp, 'md-confirm.json'), '--format', 'markdown']);
  if (/too busy to re-measure it/.test(md.stdout)) return;
  assert.equal(md.exitCode, 1);
  assert.match(md.stdout, /\*\*Gate failed\*\*: 1 benchmark\(s\) slower by more than 60% \(where re-measured, over the whole 95% interval\)/);
  assert.match(md.stdout, /confirm: \d comparison\(s\) could not be cleared [^\n]*\n(?: {2}[^\n]*\n)*? {2}marked\/slows [^\n]*re-measured -\d+\.\d% [^\n]*: slower, confirmed/);
});

// A result file as a run of the marked suite on this runtime would write it, with cells whose first
// measurement is made up (tight processes, B's `factor` times slower): what a noisy first run shows,
// whatever the load of the machine running the test. The re-measurement is real.
function syntheticRun(name, { factorB = 1, flagsB = ['--title=nodebench-marked'], file = suite } = {}) {
  const cell = (flagSet, flags, factor) => {
    const processes = Array.from({ length: 4 }, (_, round) => ({ round, iterationsPerSample: 1000, warmup: { batches: 1, ms: 1, stable: true }, samplesNsPerOp: [1, 1.001, 1.002].map((x) => 1000 * factor * x * (1 + round / 1000)) }));
    return { runtime: process.versions.node, runtimeLabel: 'host', flagSet, flags, suite: 'marked', benchmark: 'steady', status: 'ok', benchmarkType: 'sync', processes, summary: summarize(processes) };
  };
  const result = resultObject([cell('baseline', [], 1), cell('marked', flagsB, factorB)], {
    runtimes: [{ ...runtimeRecord('host', process.versions.node), provider: 'system', source: process.execPath }]
  });
  result.flagSets = [{ name: 'baseline', flags: [] }, { name: 'marked', flags: flagsB }];
  result.suites = [{ name: 'marked', file, params: {}, benchmarks: [] }];
  result.run = RUN;
  const out = path.join(tmp, name);
  fs.writeFileSync(out, JSON.stringify(result));
  return out;
}
const COLUMNS = ['--from', 'host/baseline', '--to', 'host/marked'];

test('a first measurement that only looked slower is re-measured and passes; without --confirm it fails', { timeout: 300_000 }, async () => {
  // The made-up first measurement is four times slower and the gate 60%: re-measured unchanged
  // code has come out 34% slower in one column at 5 processes a side on this 2-core machine in a
  // noisy period of its host (2026-11-24), which must not fail the gate nor this test.
  const noisy = syntheticRun('looked-slower.json', { factorB: 4 });
  const args = ['diff', noisy, ...COLUMNS, '--fail-on-regression', '60'];
  const first = await nodebench(args);
  assert.equal(first.exitCode, 1, 'the made-up first measurement alone fails the gate');
  const confirmed = await nodebench([...args, '--confirm', '--confirm-processes', '5', '--json']);
  assert.equal(confirmed.exitCode, 0, confirmed.stderr);
  const json = JSON.parse(confirmed.stdout);
  assert.equal(json.gate.passed, true);
  const [candidate] = json.gate.confirm.candidates;
  assert.equal(candidate.label, 'marked/steady');
  assert.ok(candidate.first.ratio < 0.6 && candidate.first.verdict === 'slower');
  // Re-measured, and the gate passed on it (above); or, on a machine too busy to re-measure it, not
  // confirmed either. Its ratio is not bounded here: under a busy loop beside the tests, unchanged
  // code re-measured at 5 processes a side came out at 0.39 (undecided, its interval that wide).
  const { confirmation } = candidate;
  if (confirmation) assert.ok(confirmation.ratio > 0 && !(confirmation.verdict === 'slower' && confirmation.ci.high < 0.4), JSON.stringify(confirmation));
  else assert.match(candidate.problem, /^the machine was too busy to re-measure it: \d+ of \d+ processes of host\/\S+ ran while other programs held the CPU$/);
  assert.ok(fs.existsSync(noisy.replace(/\.json$/, '.confirm.json')), 'the default file sits beside B');
});

test('--confirm user errors: one sentence, exit 2', { timeout: 120_000 }, async () => {
  const looked = syntheticRun('errors.json', { factorB: 2 });
  const without = await nodebench(['diff', looked, ...COLUMNS, '--confirm']);
  assert.equal(without.exitCode, 2);
  assert.match(without.stderr, /--confirm re-measures what would fail the gate; give --fail-on-regression too/);
  const processes = await nodebench(['diff', looked, ...COLUMNS, '--fail-on-regression', '5', '--confirm', '--confirm-processes', 'many']);
  assert.equal(processes.exitCode, 2);
  assert.match(processes.stderr, /--confirm-processes takes a whole number from 3 to 100, not "many"/);
  const stray = await nodebench(['diff', looked, ...COLUMNS, '--fail-on-regression', '5', '--confirm-out', 'x.json']);
  assert.equal(stray.exitCode, 2);
  assert.match(stray.stderr, /^nodebench: --confirm-out goes with --confirm; add it, or leave it out\.$/);
  // Both columns the same runtime, flags and suite file: what made B slower is not something nodebench can run.
  const same = await nodebench(['diff', syntheticRun('same-sides.json', { factorB: 2, flagsB: [] }), ...COLUMNS, '--fail-on-regression', '5', '--confirm']);
  assert.equal(same.exitCode, 2, same.stdout);
  assert.match(same.stderr, /^nodebench: --confirm cannot re-measure marked\/steady \(host\/baseline -> host\/marked\): A and B ran it on the same runtime \(Node [\d.]+\), flags and suite file \([^)]*marked\/index\.js\), so nothing differs that could be re-measured side by side; if the code there changed between the two runs, give each side's version with --confirm-a <suite-file> and --confirm-b <suite-file>, otherwise compare without --confirm\.$/);
  assert.doesNotMatch(same.stderr, /\n\s+at /);
  const other = syntheticRun('other-file.json', { file: path.join(root, 'test', 'fixtures', 'suites', 'smoke', 'index.js') });
  const files = await nodebench(['diff', other, looked, ...COLUMNS.slice(0, 2), '--to', 'host/marked', '--fail-on-regression', '5', '--confirm']);
  assert.equal(files.exitCode, 2, files.stdout);
  assert.match(files.stderr, /^nodebench: --confirm cannot re-measure marked\/steady \(host\/baseline -> host\/marked\): A and B differ in runtime or flags and also in suite file or parameters \([^;]*smoke\/index\.js; [^)]*marked\/index\.js\); it re-measures one change at a time/);
});
