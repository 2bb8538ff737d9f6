// diff --confirm for a code change between two result files of one runtime (Node 4.9.1, as in the
// default matrix): each side is re-measured from its own suite file, two rows of one column in the
// same rounds; its cost is estimated before it starts and bounded by --confirm-minutes; a second
// diff resumes what an interrupted one measured, judges a complete one as it is, and writes beside
// a file that holds anything else; what it cannot do is one sentence and exit 2.
// The suite files are written here: `touched` does four times the work in side B's version (a real
// slowdown), `steady` is the same in both, and the copy is side A's file unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { execa } from 'execa';
import { nodebench, cliPath, root } from '../helpers/cli.js';
import { schemaErrors } from '../helpers/schema.js';
import { resultObject, runtimeRecord } from '../helpers/result-file.js';
import { summarize } from '../../cli/stats/summary.js';

const RUNTIME = '4.9.1';
const COLUMN = `${RUNTIME}/baseline`;
const RUN = { processes: 3, maxProcesses: 3, samples: 5, minSampleMs: 5, warmupMinMs: 20, metrics: false };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-confirm-code-'));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const read = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
const processCount = (result) => result.cells.reduce((n, c) => n + c.processes.length, 0);
const noStack = (stderr) => assert.doesNotMatch(stderr, /\n\s+at /);

const suiteText = (touchedWork) => `'use strict';
function work(n) {
  var x = 0;
  for (var i = 0; i < n; i++) x = (x * 31 + i) | 0;
  return x;
}
module.exports = {
  name: 'change',
  benchmarks: {
    steady: function () { return work(2000); },
    touched: function () { return work(${touchedWork}); }
  }
};
`;
const suiteAt = (dir, text) => {
  fs.mkdirSync(path.join(tmp, dir), { recursive: true });
  const file = path.join(tmp, dir, 'bench.js');
  fs.writeFileSync(file, text);
  return file;
};
const before = suiteAt('main', suiteText(2000));
const after = suiteAt('pr', suiteText(8000));
const unchanged = suiteAt('copy', suiteText(2000));

// A result file as a run of `file` on Node 4.9.1 would write it, its first measurement made up:
// tight processes, each benchmark `factors[name]` times slower than 1 µs, so that the gate's
// candidates do not depend on the load of the machine running the test. `wallMs` sets what each
// process took (the confirmation's estimate). The re-measurement is real.
function firstMeasurement(name, { file, factors = { steady: 1 }, wallMs } = {}) {
  const cell = (benchmark, factor) => {
    const processes = Array.from({ length: 4 }, (_, round) => ({ round, iterationsPerSample: 1000, warmup: { batches: 1, ms: 1, stable: true }, ...(wallMs ? { wallMs } : {}), samplesNsPerOp: [1, 1.001, 1.002].map((x) => 1000 * factor * x * (1 + round / 1000)) }));
    return { runtime: RUNTIME, runtimeLabel: RUNTIME, flagSet: 'baseline', flags: [], suite: 'change', benchmark, status: 'ok', benchmarkType: 'sync', processes, summary: summarize(processes) };
  };
  const result = resultObject(Object.entries(factors).map(([benchmark, factor]) => cell(benchmark, factor)), { runtimes: [runtimeRecord(RUNTIME)] });
  result.suites = [{ name: 'change', file, params: {}, benchmarks: [] }];
  result.run = RUN;
  const out = path.join(tmp, name);
  fs.writeFileSync(out, JSON.stringify(result));
  return out;
}

test('a planted slowdown in side B\'s suite file, two real runs of one runtime: re-measured from each side\'s file and decided slower', { timeout: 300_000 }, async (t) => {
  const runOf = async (name, file) => {
    const matrix = path.join(tmp, `${name}.yaml`);
    fs.writeFileSync(matrix, YAML.stringify({ runtimes: [RUNTIME], flagSets: { baseline: [] }, suites: [{ name: file }], run: RUN }));
    const out = path.join(tmp, `${name}.json`);
    const run = await nodebench(['matrix', '--matrix', matrix, '--out', out]);
    assert.equal(run.exitCode, 0, run.stderr);
    return out;
  };
  const a = await runOf('main', before);
  const b = await runOf('pr', after);
  const confirmOut = path.join(tmp, 'planted.confirm.json');
  const gate = await nodebench(['diff', a, b, '--fail-on-regression', '50', '--confirm', '--confirm-processes', '8', '--confirm-out', confirmOut, '--json']);
  assert.match(gate.stderr, /^nodebench: confirming \d comparison\(s\) the first measurement cannot clear: re-measuring both sides, 8 processes per cell, \d+ processes in all, about \S+ by the files' process times \(--confirm-minutes 10\), into /m);
  const json = JSON.parse(gate.stdout);
  const touched = json.gate.confirm.candidates.find((c) => c.label === 'change/touched');
  assert.ok(touched, 'the slowdown is a candidate');
  assert.deepEqual(touched.code, { a: before, b: after });
  if (!touched.confirmation) {
    assert.match(touched.problem, /^the machine was too busy to re-measure it/);
    t.diagnostic(`not checked further: ${touched.problem}`);
    return;
  }
  assert.equal(touched.confirmation.verdict, 'slower', JSON.stringify(touched.confirmation));
  // Paired by round where both sides kept a process of the round; on a busy host, with most set
  // aside, it falls back to the unpaired comparison (0.249, 3 quiet processes a side, 2026-11-27).
  assert.ok(touched.confirmation.ratio < 0.5, JSON.stringify(touched.confirmation));
  assert.equal(gate.exitCode, 1, gate.stderr);
  assert.deepEqual(json.gate.failures.map((f) => f.label), ['change/touched']);
  assert.match(gate.stderr, /change\/touched: 4\.9\.1\/baseline -\d+\.\d% slower \(re-measured, 95% CI/);
  // Each side from its own file: two versions of suite "change" as two rows of the one column.
  const again = read(confirmOut);
  assert.deepEqual(schemaErrors(again), []);
  assert.deepEqual(again.suites.map((s) => [s.name, s.file]).sort(), [['change@A', before], ['change@B', after]]);
  assert.deepEqual([...new Set(again.cells.map((c) => `${c.runtimeLabel}/${c.flagSet}`))], [COLUMN]);
  assert.ok(again.cells.every((c) => c.processes.length >= 8));
  assert.deepEqual(json.gate.confirm.runs.map((r) => r.measured), ['new']);
});

test('an unchanged copy of the suite file, made to look slower: re-measured and not slower; the comparisons beyond --confirm-minutes keep their first comparison', { timeout: 300_000 }, async () => {
  // Each process recorded at 3 s: one candidate at 6 processes a side is about 36 s, so one fits in
  // a minute and two do not, whatever the processes really take here (about 0.2 s).
  const a = firstMeasurement('copy-a.json', { file: before, factors: { steady: 1, touched: 1 }, wallMs: 3000 });
  const b = firstMeasurement('copy-b.json', { file: unchanged, factors: { steady: 3, touched: 3 }, wallMs: 3000 });
  const gate = await nodebench(['diff', a, b, '--fail-on-regression', '50', '--confirm', '--confirm-processes', '6', '--confirm-minutes', '1', '--json']);
  assert.match(gate.stderr, /^nodebench: confirming 1 comparison\(s\) the first measurement cannot clear \(of 2\): re-measuring both sides, 6 processes per cell, 12 processes in all, about 36s by the files' process times \(--confirm-minutes 1\), into \S+; the 1 other\(s\), which the first measurement made look less slow, keep their first comparison \(re-measuring them too would take about 36s more\)$/m);
  const json = JSON.parse(gate.stdout);
  const [remeasured, left] = json.gate.confirm.candidates;
  assert.deepEqual(remeasured.code, { a: before, b: unchanged });
  if (remeasured.confirmation) assert.ok(!(remeasured.confirmation.verdict === 'slower' && remeasured.confirmation.ratio < 0.5), JSON.stringify(remeasured.confirmation));
  else assert.match(remeasured.problem, /^the machine was too busy to re-measure it/);
  assert.equal(left.confirmation, null);
  assert.equal(left.problem, 'not re-measured: beyond --confirm-minutes 1');
  assert.equal(left.kept, true);
  // The one left out stands on its first comparison, which the made-up files decide 3x slower.
  assert.equal(gate.exitCode, 1, gate.stderr);
  assert.deepEqual(json.gate.failures.map((f) => f.label), [left.label]);
  assert.match(gate.stderr, new RegExp(`${left.label}: 4\\.9\\.1/baseline -\\d+\\.\\d% slower \\(95% CI [^)]*\\) \\(not re-measured: beyond --confirm-minutes 1\\)`));
  assert.deepEqual(json.gate.confirm.estimate, { processes: 12, minutes: 0.6 });
  assert.equal(json.gate.confirm.minutes, 1);
  assert.ok(fs.existsSync(b.replace(/\.json$/, '.confirm.json')), 'the default file sits beside B');
});

test('interrupted after its first processes were saved, then run again: resumed, nothing lost; complete, judged as it is; other candidates, written beside', { timeout: 400_000 }, async () => {
  const a = firstMeasurement('resume-a.json', { file: before });
  const b = firstMeasurement('resume-b.json', { file: unchanged, factors: { steady: 3 } });
  const out = path.join(tmp, 'resume.confirm.json');
  const args = ['diff', a, b, '--fail-on-regression', '50', '--confirm', '--confirm-processes', '15', '--confirm-out', out, '--json'];
  const child = execa(process.execPath, [cliPath, ...args], { reject: false, stdin: 'ignore', cwd: root, env: { NO_COLOR: '1' } });
  const deadline = Date.now() + 120_000;
  // Interrupted once a save holds some finished processes (the first comes after the first process).
  for (;;) {
    await sleep(100);
    let saved = null;
    try {
      saved = read(out);
    } catch {
      // Not written yet.
    }
    if (saved && processCount(saved) >= 1) break;
    assert.ok(Date.now() < deadline, 'no save with a finished process within 120 s');
  }
  child.kill('SIGINT');
  const first = await child;
  assert.equal(first.exitCode, 130, first.stderr);
  assert.match(first.stderr, /nodebench: The confirmation was interrupted; the \d+ processes it measured are kept in \S+resume\.confirm\.json, and the same diff --confirm continues it\.$/);
  noStack(first.stderr);
  const interrupted = read(out);
  assert.equal(interrupted.status, 'interrupted');
  const kept = processCount(interrupted);
  assert.ok(kept >= 1 && kept < 30, `${kept} processes`);

  const second = await nodebench(args);
  assert.equal(second.exitCode, 0, second.stderr);
  assert.match(second.stderr, new RegExp(`nodebench: \\S+resume\\.confirm\\.json holds ${kept} processes of this confirmation \\(interrupted\\): resuming it, \\d+ to run, about \\S+`));
  assert.match(second.stderr, new RegExp(`resuming: ${kept} processes kept`));
  const resumed = read(out);
  assert.deepEqual(schemaErrors(resumed), []);
  assert.equal(resumed.status, 'complete');
  assert.equal(resumed.createdAt, interrupted.createdAt);
  assert.ok(processCount(resumed) > kept && resumed.cells.every((c) => c.processes.filter((p) => !p.rerun).length === 15));
  for (const cell of interrupted.cells) {
    const startedAt = new Set(resumed.cells[cell.id].processes.map((p) => p.startedAt));
    for (const p of cell.processes) assert.ok(startedAt.has(p.startedAt), `cell ${cell.id} lost its process of round ${p.round}`);
  }
  assert.deepEqual(JSON.parse(second.stdout).gate.confirm.runs.map((r) => r.measured), ['resumed']);

  // Complete: judged again as it is, the file untouched.
  const bytes = fs.readFileSync(out);
  const third = await nodebench(args);
  assert.equal(third.exitCode, 0, third.stderr);
  assert.match(third.stderr, /holds this confirmation, complete \(\d+ processes\): judged as it is/);
  assert.deepEqual(fs.readFileSync(out), bytes);
  const thirdJson = JSON.parse(third.stdout);
  assert.deepEqual(thirdJson.gate.confirm.runs.map((r) => r.measured), ['reused']);
  assert.deepEqual(thirdJson.gate.confirm.candidates.map((c) => c.confirmation?.ratio), JSON.parse(second.stdout).gate.confirm.candidates.map((c) => c.confirmation?.ratio));

  // Another confirmation (other processes per cell): the file is kept, the new one written beside it.
  const fourth = await nodebench(args.map((x) => (x === '15' ? '4' : x)));
  assert.equal(fourth.exitCode, 0, fourth.stderr);
  assert.match(fourth.stderr, /nodebench: \S+resume\.confirm\.json is kept \(it has 15 processes per cell, now 4\); this confirmation goes to \S+resume\.confirm\.2\.json/);
  assert.deepEqual(fs.readFileSync(out), bytes);
  assert.equal(read(out.replace(/\.json$/, '.2.json')).status, 'complete');
});

test('--confirm-minutes is a hard bound: a confirmation slower than the files said stops there, is judged on what it has and resumed by the next diff', { timeout: 300_000 }, async () => {
  // Processes recorded at 10 ms, so 30 a side fit in 3 s by the estimate; each takes about 0.2 s here.
  const a = firstMeasurement('bound-a.json', { file: before, wallMs: 10 });
  const b = firstMeasurement('bound-b.json', { file: unchanged, factors: { steady: 3 }, wallMs: 10 });
  const out = path.join(tmp, 'bound.confirm.json');
  const args = ['diff', a, b, '--fail-on-regression', '50', '--confirm', '--confirm-processes', '30', '--confirm-minutes', '0.05', '--confirm-out', out, '--json'];
  const first = await nodebench(args);
  assert.match(first.stderr, /time limit of 0\.05 min reached: stopped; \S+bound\.confirm\.json keeps what finished/);
  const json = JSON.parse(first.stdout);
  const [run] = json.gate.confirm.runs;
  assert.equal(run.stoppedAtLimit, true);
  assert.ok(run.processes < run.planned, JSON.stringify(run));
  assert.equal(read(out).status, 'interrupted');
  // The made-up first look fails the gate; what the bound left is judged (or, too few, keeps it).
  assert.ok([0, 1].includes(first.exitCode), first.stderr);
  // More time for the same candidates: the same confirmation, resumed and finished.
  const second = await nodebench(args.map((x) => (x === '0.05' ? '5' : x)));
  assert.match(second.stderr, new RegExp(`holds ${run.processes} processes of this confirmation \\(interrupted\\): resuming it`));
  assert.equal(second.exitCode, 0, second.stderr);
  assert.equal(read(out).status, 'complete');
  assert.ok(read(out).cells.every((c) => c.processes.filter((p) => !p.rerun).length === 30));
});

test('whole commands: run only as the user names them after --; one checkout measured at two commits records one folder, --confirm-a-cwd and --confirm-b-cwd name each side\'s, re-measured as two rows', { timeout: 300_000 }, async (t) => {
  const script = (n) => `var x = 0; for (var i = 0; i < ${n}; i++) x = (x * 31 + i) | 0; console.log(x);\n`;
  const folder = (name, n) => {
    fs.mkdirSync(path.join(tmp, name), { recursive: true });
    fs.writeFileSync(path.join(tmp, name, 'work.js'), script(n));
    return path.join(tmp, name);
  };
  const checkout = folder('checkout', 2e6);
  const exec = async (out) => {
    const run = await nodebench(['exec', '--node', process.versions.node, '--processes', '3', '--max-processes', '3', '--name', 'work', '--out', out, '--', 'node', 'work.js'], { cwd: checkout });
    assert.equal(run.exitCode, 0, run.stderr);
    return out;
  };
  const a = await exec(path.join(tmp, 'cmd-a.json'));
  fs.writeFileSync(path.join(checkout, 'work.js'), script(2e8));
  const b = await exec(path.join(tmp, 'cmd-b.json'));
  // A hundred times the loop: the command takes several times as long, even on a loaded host where
  // a run of the unchanged command spreads ±40% (2026-11-27, load average 7 on 2 cores).
  const gate = ['--fail-on-regression', '20', '--confirm', '--confirm-processes', '8'];
  const where = `commands/work \\(${process.versions.node.replace(/\./g, '\\.')}/baseline\\)`;
  // The command a result file names is not run: the user names it, and it must be what ran.
  const unnamed = await nodebench(['diff', a, b, ...gate]);
  assert.equal(unnamed.exitCode, 2, unnamed.stderr);
  assert.match(unnamed.stderr, new RegExp(`^nodebench: --confirm cannot re-measure ${where}: it is the whole command node work\\.js, and nodebench does not run a command a result file names; if you trust it, name it yourself after -- \\(\\.\\.\\. --confirm -- node work\\.js\\), or compare without --confirm\\.$`));
  const other = await nodebench(['diff', a, b, ...gate, '--', 'node', 'other.js']);
  assert.equal(other.exitCode, 2, other.stderr);
  assert.match(other.stderr, /A and B measured the command node work\.js, not the one after -- \(node other\.js\); name the command they measured/);
  const withEnv = path.join(tmp, 'cmd-env.json');
  const planted = read(b);
  planted.suites[0].benchmarks[0].command.env = { NODE_OPTIONS: '--require /tmp/x.js' };
  fs.writeFileSync(withEnv, JSON.stringify(planted));
  const env = await nodebench(['diff', a, withEnv, ...gate, '--', 'node', 'work.js']);
  assert.equal(env.exitCode, 2, env.stderr);
  assert.match(env.stderr, /its command ran through a shell or with variables of its own \(exec --shell or --env\), which --confirm does not take from a result file/);
  const refused = await nodebench(['diff', a, b, ...gate, '--', 'node', 'work.js']);
  assert.equal(refused.exitCode, 2, refused.stderr);
  assert.match(refused.stderr, new RegExp(`^nodebench: --confirm cannot re-measure ${where}: A and B ran it on the same runtime \\(Node [\\d.]+\\), flags and command \\(node work\\.js in \\S+checkout\\), so nothing differs that could be re-measured side by side; if the code there changed between the two runs, give each side's folder with --confirm-a-cwd <folder> and --confirm-b-cwd <folder>, otherwise compare without --confirm\\.$`));
  for (const run of [unnamed, other, env, refused]) noStack(run.stderr);
  const main = folder('cmd-main', 2e6);
  const pr = folder('cmd-pr', 2e8);
  const confirmed = await nodebench(['diff', a, b, ...gate, '--confirm-a-cwd', main, '--confirm-b-cwd', pr, '--json', '--', 'node', 'work.js']);
  const [work] = JSON.parse(confirmed.stdout).gate.confirm.candidates;
  assert.deepEqual(work.code, { a: `node work.js in ${main}`, b: `node work.js in ${pr}` });
  const again = read(b.replace(/\.json$/, '.confirm.json'));
  assert.deepEqual(again.suites[0].benchmarks.map((x) => [x.name, x.command.cwd]), [['work@A', main], ['work@B', pr]]);
  if (!work.confirmation) {
    assert.match(work.problem, /^the machine was too busy to re-measure it/);
    t.diagnostic(`not checked further: ${work.problem}`);
    return;
  }
  assert.equal(work.confirmation.verdict, 'slower', JSON.stringify(work.confirmation));
  assert.equal(confirmed.exitCode, 1, confirmed.stderr);
});

test('what --confirm cannot do for a code change: one sentence naming the fix, exit 2', { timeout: 120_000 }, async () => {
  const cases = [];
  const expect = async (args, pattern) => {
    const run = await nodebench(args);
    cases.push(run);
    assert.equal(run.exitCode, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, pattern);
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
    noStack(run.stderr);
  };
  const a = firstMeasurement('err-a.json', { file: before });
  const gone = firstMeasurement('err-gone.json', { file: path.join(tmp, 'gone', 'bench.js'), factors: { steady: 3 } });
  const same = firstMeasurement('err-same.json', { file: before, factors: { steady: 3 } });
  const gate = ['--fail-on-regression', '50', '--confirm'];
  // The same runtime, flags and suite file on both sides: nothing differs to re-measure.
  await expect(['diff', a, same, ...gate], /^nodebench: --confirm cannot re-measure change\/steady \(4\.9\.1\/baseline\): A and B ran it on the same runtime \(Node 4\.9\.1\), flags and suite file \(\S+main\/bench\.js\), so nothing differs that could be re-measured side by side; if the code there changed between the two runs, give each side's version with --confirm-a <suite-file> and --confirm-b <suite-file>, otherwise compare without --confirm\.$/);
  // B's file is not on this machine.
  await expect(['diff', a, gone, ...gate], /^nodebench: --confirm cannot re-measure change\/steady \(4\.9\.1\/baseline\): B ran suite "change" from \S+gone\/bench\.js, which is not on this machine; give B's version with --confirm-b <suite-file>, or compare without --confirm\.$/);
  // A file of another suite given for B.
  const marked = path.join(root, 'test', 'fixtures', 'suites', 'marked', 'index.js');
  await expect(['diff', a, gone, ...gate, '--confirm-b', marked], /^nodebench: --confirm-b \S+marked\/index\.js is suite "marked", which \S+err-gone\.json did not run \(it ran change\); give the file of one of its suites\.$/);
  await expect(['diff', a, gone, ...gate, '--confirm-b', path.join(tmp, 'nowhere.js')], /^nodebench: --confirm-b \S+nowhere\.js does not exist; give the path of that side's suite file on this machine\.$/);
  await expect(['diff', a, gone, ...gate, '--confirm-a-cwd', path.join(tmp, 'nowhere')], /^nodebench: --confirm-a-cwd \S+nowhere is not a folder on this machine; give the folder that side's whole commands run in\.$/);
  await expect(['diff', a, gone, '--fail-on-regression', '50', '--confirm-b', before], /^nodebench: --confirm-b goes with --confirm; add it, or leave it out\.$/);
  for (const bad of ['0', 'ten', '', '100000']) {
    await expect(['diff', a, same, ...gate, '--confirm-minutes', bad], new RegExp(`^nodebench: --confirm-minutes takes a number of minutes above 0 and at most 1440, like 10, not "${bad}"\\.$`));
  }
  // Less time than the quickest candidate needs.
  const slow = firstMeasurement('err-slow.json', { file: unchanged, factors: { steady: 3 }, wallMs: 60_000 });
  await expect(['diff', a, slow, ...gate], /^nodebench: Re-measuring even the quickest comparison the first measurement cannot clear \(change\/steady, 4\.9\.1\/baseline\) takes about 30m0\ds at 30 processes per cell, more than --confirm-minutes 10; raise --confirm-minutes to 31, or lower --confirm-processes\.$/);
  assert.ok(cases.length >= 10);
});
