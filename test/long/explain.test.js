// nodebench explain on real runtimes: a slowdown planted in one named function of a user's file (in
// the flag set that sets --title=explain-slow) is the top row, called slower, with the right size;
// an A/A explain calls no function changed; Node 6 is profiled over its --inspect port, whose port
// closes with the worker; Node 4 cannot be profiled and says why while the other side is still
// shown; bad input is one sentence and exit 2. Few processes, short windows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { explainComparison } from '../../cli/explain/index.js';
import { renderExplainTerminal } from '../../cli/explain/terminal.js';
import { renderExplainMarkdown } from '../../cli/explain/markdown.js';
import { renderExplainHtml } from '../../cli/explain/html.js';
import net from 'node:net';
import { nodebench } from '../helpers/cli.js';
import { launchInspected } from '../../cli/explain/inspect-port.js';
import { samplerOptions } from '../../cli/options.js';
import { testRuntime } from '../helpers/runtimes.js';
import { writeResultFile, okCell, runtimeRecord } from '../helpers/result-file.js';

// Both functions are too large for V8 to inline, so each keeps its own frame; `planted` does three
// rounds instead of one when the process was started with --title=explain-slow (or, on Node 6, which
// has no --title, with --no-deprecation: neither changes any code the benchmark runs).
const PLANTED = `'use strict';
var SLOW = process.execArgv.indexOf('--title=explain-slow') >= 0 || process.execArgv.indexOf('--no-deprecation') >= 0;
var data = [];
for (var i = 0; i < 4000; i++) data.push((i * 7919) % 1000);
function mix(s, x, r) {
  s = (s + x * r) | 0; s = (s ^ (s << 5)) | 0; s = (s + (x >> 2)) | 0; s = (s ^ (s >>> 7)) | 0;
  return s;
}
function steady(xs) {
  var s = 0;
  for (var i = 0; i < xs.length; i++) {
    s = (s + xs[i] * 3) | 0; s = (s ^ (s << 3)) | 0; s = (s + (xs[i] >> 1)) | 0; s = (s ^ (s >>> 5)) | 0;
    s = (s + xs[i] * 5) | 0; s = (s ^ (s << 7)) | 0; s = (s + (xs[i] >> 3)) | 0; s = (s ^ (s >>> 9)) | 0;
    s = (s + xs[i] * 7) | 0; s = (s ^ (s << 2)) | 0; s = (s + (xs[i] >> 4)) | 0; s = (s ^ (s >>> 3)) | 0;
    s = (s + xs[i] * 9) | 0; s = (s ^ (s << 4)) | 0; s = (s + (xs[i] >> 5)) | 0; s = (s ^ (s >>> 6)) | 0;
  }
  return s;
}
function planted(xs) {
  var s = 0;
  var rounds = SLOW ? 3 : 1;
  for (var r = 1; r <= rounds; r++) {
    for (var i = 0; i < xs.length; i++) {
      s = mix(s, xs[i], r); s = (s ^ (s << 3)) | 0; s = (s + (xs[i] >> 1)) | 0; s = (s ^ (s >>> 5)) | 0;
      s = (s + xs[i] * 5) | 0; s = (s ^ (s << 7)) | 0; s = (s + (xs[i] >> 3)) | 0; s = (s ^ (s >>> 9)) | 0;
      s = (s + xs[i] * 7) | 0; s = (s ^ (s << 2)) | 0; s = (s + (xs[i] >> 4)) | 0; s = (s ^ (s >>> 3)) | 0;
      s = (s + xs[i] * 9) | 0; s = (s ^ (s << 4)) | 0; s = (s + (xs[i] >> 5)) | 0; s = (s ^ (s >>> 6)) | 0;
    }
  }
  return s;
}
module.exports = { name: 'planted', benchmarks: { work: { fn: function work() { return steady(data) + planted(data); } } } };
`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-explain-'));
const suite = path.join(dir, 'planted.js');
fs.writeFileSync(suite, PLANTED);
// Four processes of 0.8 s a side: on a 2-core machine shared with other work (load average 10), three
// of 0.6 s left the planted change undecided, or at 1.8x its size, in two of four explains.
const quick = { processes: 4, metricsProcesses: 0, windowMs: 800 };
const explain = (from, to, name, options = {}) => explainComparison({ suite, from, to, benchmark: 'work' }, { ...quick, profileDir: path.join(dir, name), ...options }, { command: ['explain', 'test'] });

// Node 6 has no inspector module: nodebench drives its Profiler over --inspect (inspect-port.js).
// On 16.20.2 TurboFan sometimes inlined `work` with parts of `planted` and `steady` into nodebench's
// batch loop on one side only (CI, under npm test: A's planted 21.6 µs plus 24.5 µs in the harness
// row, B's 107 µs in planted itself), so the rows' sizes depended on a JIT decision: both sides run
// with --no-turbo-inlining there, which keeps every function its own frame (docs/explain.md: inlining).
for (const [runtime, slow, via, common] of [['16.20.2', '--title=explain-slow', 'inspector-module', '--no-turbo-inlining'], ['24.21.0', '--title=explain-slow', 'inspector-module', ''], ['6.17.1', '--no-deprecation', 'inspect-port', '']]) {
  test(`the planted slowdown is the top row with its size on Node ${runtime}`, { timeout: 180_000 }, async () => {
    const [sideA, sideB] = [common ? `${runtime}/${common}` : runtime, `${runtime}/${[common, slow].filter(Boolean).join(' ')}`];
    // A loaded CI host can starve one side's profiled processes for a while (B/A 4.8 for a 3x change
    // was seen at load 12 on 2 cores): what follows must hold in one of three explains.
    // The planted work is `planted` and the `mix` it calls: where V8 inlined mix on one side only, the
    // time moves between the two rows, so the 3x is checked on the two together.
    const plantedWork = (d, side) => ['planted', 'mix'].reduce((sum, name) => sum + (d.functions.rows.find((r) => r.name === name)?.[side]?.estimate || 0), 0);
    const sized = (d) => {
      const [first] = d.functions.rows;
      const ratio = plantedWork(d, 'b') / plantedWork(d, 'a');
      const steadyRow = d.functions.rows.find((r) => r.name === 'steady');
      return first.name === 'planted' && first.change.verdict === 'slower' && ratio > 2.1 && ratio < 3.9 &&
        Math.abs(first.change.estimate / d.functions.totals.change.estimate - 1) <= 0.3 && Math.abs(steadyRow.change.estimate) < first.change.estimate / 3;
    };
    let doc = await explain(sideA, sideB, `planted-${runtime}`);
    for (let again = 1; again <= 2 && !sized(doc); again++) doc = await explain(sideA, sideB, `planted-${runtime}-again-${again}`);
    const [top] = doc.functions.rows;
    assert.equal(top.name, 'planted', renderExplainTerminal(doc));
    assert.equal(top.change.verdict, 'slower');
    // Only `planted` changed, so its change is the whole operation's; three rounds instead of one.
    const total = doc.functions.totals.change.estimate;
    assert.ok(Math.abs(top.change.estimate / total - 1) <= 0.3, `planted ${top.change.estimate} ns of the whole ${total} ns`);
    const ratio = plantedWork(doc, 'b') / plantedWork(doc, 'a');
    assert.ok(ratio > 2.1 && ratio < 3.9, `planted (with mix) B/A ${ratio}, expected 3 ±30%\n${renderExplainTerminal(doc)}`);
    // `steady` did not change: four processes a side on a loaded host can still decide a few percent
    // of drift in it "slower", so what is checked is that the change is not put there: its share is
    // a small fraction of planted's (planted's own change is two of steady's whole time).
    const steady = doc.functions.rows.find((r) => r.name === 'steady');
    assert.ok(Math.abs(steady.change.estimate) < top.change.estimate / 3, `steady ${steady.change.estimate} ns against planted ${top.change.estimate} ns\n${renderExplainTerminal(doc)}`);
    assert.equal(doc.sides.b.flags.join(' '), [common, slow].filter(Boolean).join(' '));
    assert.equal(doc.sides.a.profiling.via, via);
    for (const p of doc.sides.a.profiling.processes) assert.ok(fs.statSync(p.file).size > 0 && JSON.parse(fs.readFileSync(p.file, 'utf8')).nodes.length > 0);
    assert.match(renderExplainMarkdown(doc), /\| planted \| planted\.js:\d+:\d+ \|/);
    assert.match(renderExplainHtml(doc), /<td>planted<\/td>/);
    assert.match(doc.summary, /planted/);
  });
}

test('across runtimes, a slowdown planted on Node 6 is the top row against Node 8', { timeout: 180_000 }, async () => {
  // Once more when load starved one side (as in the test above).
  const named = (d) => d.functions.rows[0].name === 'planted' && d.functions.rows[0].change.verdict === 'slower';
  let doc = await explain('8.17.0', '6.17.1/--no-deprecation', 'planted-8-6');
  if (!named(doc)) doc = await explain('8.17.0', '6.17.1/--no-deprecation', 'planted-8-6-again');
  const [top] = doc.functions.rows;
  assert.equal(top.name, 'planted', renderExplainTerminal(doc));
  assert.equal(top.change.verdict, 'slower');
  assert.equal(top.location, `planted.js:${PLANTED.split('\n').findIndex((l) => l.startsWith('function planted')) + 1}:17`);
  assert.deepEqual([doc.sides.a.profiling.via, doc.sides.b.profiling.via], ['inspector-module', 'inspect-port']);
  assert.match(renderExplainTerminal(doc), /B \(6\.17\.1\/--no-deprecation\) profiled over its --inspect port/);
});

const refused = (port) => new Promise((resolve) => {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('connect', () => {
    socket.destroy();
    resolve(false);
  });
  socket.on('error', (err) => resolve(err.code === 'ECONNREFUSED'));
});

test('the --inspect port closes with the worker, also when nodebench kills it mid-window; a taken port is tried once more', { timeout: 60_000 }, async () => {
  const node6 = (await testRuntime('6.17.1')).path;
  const request = (windowMs) => ({ mode: 'profile', suite, benchmark: 'work', params: {}, sampler: samplerOptions(), windowMs });
  const file = path.join(dir, 'port.cpuprofile');
  const done = await launchInspected(node6, [], request(300), { timeoutMs: 30_000, cwd: dir, intervalUs: 250, profileFile: file });
  assert.equal(done.driverError, null);
  assert.ok(done.messages.some((m) => m.type === 'profile') && done.profile.nodes.length > 0);
  assert.ok(await refused(done.port), 'the debugger port is still open after the worker ended');
  // A port another process holds (as when one takes it between nodebench's look and the worker's
  // bind): Node 6 exits with "address already in use", and nodebench tries once more on a free one.
  const holder = net.createServer();
  await new Promise((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const taken = holder.address().port;
  const retried = await launchInspected(node6, [], request(300), { timeoutMs: 30_000, cwd: dir, intervalUs: 250, profileFile: file, port: taken });
  holder.close();
  assert.notEqual(retried.port, taken);
  assert.ok(retried.profile && retried.messages.some((m) => m.type === 'profile'), retried.stderrTail);
  // A window far longer than the time limit: the worker is killed while the profiler runs.
  const killed = await launchInspected(node6, [], request(60_000), { timeoutMs: 2500, cwd: dir, intervalUs: 250, profileFile: file + '2' });
  assert.equal(killed.timedOut, true);
  assert.equal(killed.profile, null);
  assert.ok(await refused(killed.port), 'the debugger port is still open after the worker was killed');
});

test('an A/A explain calls no function changed by more than noise', { timeout: 180_000 }, async () => {
  // Both sides without TurboFan inlining, as in the planted test: inlining on one side only moves
  // time between rows. Even so, four processes a side on a loaded 2-core host can make a few percent
  // of drift significant, so a function called changed is allowed while its change is under a third
  // of the operation (the planted 3x is two whole rounds of it); when none is called, the summary says so.
  const doc = await explain('16.20.2/--no-turbo-inlining', '16.20.2/--no-turbo-inlining', 'aa');
  assert.ok(doc.functions.rows.length >= 2);
  const called = doc.functions.rows.filter((r) => r.change && r.change.verdict !== 'undecided');
  const whole = doc.functions.totals.a.estimate;
  for (const row of called) assert.ok(Math.abs(row.change.estimate) < 0.3 * whole, `${row.name} ${row.change.estimate} ns of ${whole} ns\n${renderExplainTerminal(doc)}`);
  if (!called.length) assert.match(doc.summary, /No function's change is clear of noise/);
  else assert.match(doc.summary, /whose change is clear of noise/);
  // A name from a profile is data: escape codes, a table's pipe and HTML stay inert in every format.
  const hostile = structuredClone(doc);
  hostile.functions.rows[0].name = 'evil\u001b[2J|</td><script>x</script>\nrow';
  assert.ok(!renderExplainTerminal(hostile).includes('\u001b'));
  assert.match(renderExplainTerminal(hostile), /evil\\x1b\[2J\|<\/td><script>x<\/script>\\nrow/);
  const markdownRow = renderExplainMarkdown(hostile).split('\n').find((l) => l.includes('evil'));
  assert.match(markdownRow, /^\| evil\\\\x1b\[2J\\\|&lt;\/td>&lt;script>x&lt;\/script>\\\\nrow \|/);
  // In HTML the control characters are escaped as on a terminal too (escapeHtml), the markup as entities.
  assert.ok(renderExplainHtml(hostile).includes('<td>evil\\x1b[2J|&lt;/td&gt;&lt;script&gt;x&lt;/script&gt;\nrow</td>'));
});

test('Node 4 cannot be profiled: its column says why, the other side is still shown with GC and deopts', { timeout: 180_000 }, async () => {
  const doc = await explain('4.9.1', '16.20.2', 'node4', { processes: 2, metricsProcesses: 1 });
  assert.match(doc.sides.a.profiling.unavailable, /Node 4\.9\.1 has no inspector \(--inspect arrived in Node 6\.3\) and no --cpu-prof \(Node 12\+\)/);
  assert.deepEqual(doc.sides.a.profiling.processes, []);
  assert.equal(doc.sides.b.profiling.processes.filter((p) => p.file).length, 2);
  assert.ok(doc.functions.rows.some((r) => r.name === 'planted' && r.b.estimate > 0 && r.a === null));
  assert.equal(doc.gc.processes.a, 1);
  assert.equal(doc.optimization.a.optimized, true, JSON.stringify(doc.optimization.a));
  assert.ok(Array.isArray(doc.flags.changed) && doc.flags.changed.length > 0);
  const text = renderExplainTerminal(doc);
  assert.match(text, /A \(4\.9\.1\/baseline\) not profiled: Node 4\.9\.1 has no inspector/);
  assert.match(doc.summary, /Only 16\.20\.2\/baseline could be profiled/);
});

test('bad input is one sentence and exit 2', { timeout: 60_000 }, async () => {
  const file = writeResultFile([okCell('b'), okCell('b', 'ok', { runtimeLabel: '14.21.3' })], { runtimes: [runtimeRecord('16.20.2'), runtimeRecord('14.21.3')] });
  // A second file of the same run whose suite ran with other parameters: not one suite to re-run.
  const other = path.join(dir, 'other.json');
  const changed = JSON.parse(fs.readFileSync(file, 'utf8'));
  changed.suites[0].params = { size: 2 };
  fs.writeFileSync(other, JSON.stringify(changed));
  const cases = [
    [[file, '--from', '12.0.0/baseline', '--to', '16.20.2/baseline', '--benchmark', 's/b'], /^nodebench: Column "12\.0\.0\/baseline" \(--from\) is not in .*; it has 16\.20\.2\/baseline, 14\.21\.3\/baseline\.$/],
    [[file, '--from', '14.21.3/baseline', '--to', '16.20.2/baseline', '--benchmark', 's/nope'], /^nodebench: Benchmark "s\/nope" is not in .*; give SUITE\/BENCHMARK as one of s\/b\.$/],
    [['--suite', suite, '--from', '16.20.2', '--to', '16.20.2', '--benchmark', 'missing\u001b[2J'], /^nodebench: Benchmark "missing\\x1b\[2J" is not in .*planted\.js; give SUITE\/BENCHMARK as one of planted\/work\.$/],
    [['--suite', path.join(dir, 'absent.js'), '--from', '16', '--to', '16', '--benchmark', 'work'], /^nodebench: Suite file .*absent\.js is not on this machine; check the path given to --suite\.$/],
    [['--suite', suite, '--from', '16.20.2/no-dashes', '--to', '16', '--benchmark', 'work'], /^nodebench: --from "16\.20\.2\/no-dashes" is not RUNTIME or RUNTIME\/FLAGS/],
    [[file, other, '--from', '14.21.3/baseline', '--to', '16.20.2/baseline', '--benchmark', 'b'], /^nodebench: The two result files ran suite "s" from different files or with different parameters; .* --suite FILE\.$/],
    [['--from', '16', '--to', '16', '--benchmark', 'work'], /^nodebench: Give a result file .* or a suite file with --suite FILE\.$/],
    [['--suite', suite, '--from', '16', '--to', '16', '--benchmark', 'work', '--format', 'pdf'], /^nodebench: --format "pdf" is not known; use table, markdown, html, json\.$/]
  ];
  for (const [args, message] of cases) {
    const run = await nodebench(['explain', ...args]);
    assert.equal(run.exitCode, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, message);
    assert.equal(run.stdout, '');
  }
});

// diff --explain: under the diff of the planted result (test/fixtures/planted-result.json, a real run
// whose second flag set makes `slower` four times the work), one explanation for the one benchmark
// decided slower, in the diff's own format; --explain with a format it does not go with is a sentence.
test('diff --explain explains each benchmark decided slower under the diff', { timeout: 180_000 }, async () => {
  // The fixture names its suite by the absolute path of the checkout that measured it; explain re-runs
  // that file, so a copy names this checkout's copy of it (the recorded path exists on no other machine).
  const recorded = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'planted-result.json'), 'utf8'));
  for (const s of recorded.suites) s.file = path.join(import.meta.dirname, '..', 'fixtures', 'suites', 'planted', 'index.js');
  const planted = path.join(dir, 'planted-result.json');
  fs.writeFileSync(planted, JSON.stringify(recorded));
  const columns = ['--from', '24.21.0/baseline', '--to', '24.21.0/--title=nodebench-planted'];
  const refused = await nodebench(['diff', planted, ...columns, '--explain', '--format', 'json']);
  assert.equal(refused.exitCode, 2);
  assert.match(refused.stderr, /--explain goes with --format table or markdown/);
  const profiles = path.join(dir, 'diff-explain');
  const explained = await nodebench(['diff', planted, ...columns, '--explain', '--profile-dir', profiles]);
  assert.equal(explained.exitCode, 0, explained.stderr);
  const [table, ...after] = explained.stdout.split('CPU self time per operation');
  assert.match(table, /planted\/slower .*slower/);
  assert.equal(after.length, 1, 'one explanation: only `slower` was decided slower');
  assert.match(explained.stdout, /Under the profiler an operation cost .* on 24\.21\.0\/baseline and .* on 24\.21\.0\/--title=nodebench-planted/);
  assert.ok(fs.readdirSync(path.join(profiles, 'planted_slower')).some((f) => f.endsWith('.cpuprofile')));
});

// Issue 39, item 6: Wikimedia's finding in a user's words. Node 6 runs promises as JavaScript
// inside V8 (promise.js), Node 16 as built-ins the profiler counts as "(program)": the summary says
// so, instead of stopping at "CreateResolvingFunctions (V8's promise.js)".
test('explain says in plain words what V8\'s promise.js functions and "(program)" are (promises/chain-native, Node 6 -> 16)', { timeout: 600_000 }, async () => {
  await Promise.all(['6.17.1', '16.20.2'].map((v) => testRuntime(v)));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-explain-words-'));
  const suite = path.join(import.meta.dirname, '..', '..', 'suites', 'promises', 'index.js');
  const run = await nodebench(['explain', '--suite', suite, '--from', '6.17.1', '--to', '16.20.2', '--benchmark', 'chain-native', '--profile-dir', path.join(dir, 'p'), '--format', 'json']);
  assert.equal(run.exitCode, 0, run.stderr);
  const doc = JSON.parse(run.stdout);
  assert.match(doc.summary, /In plain words: functions "\(V8's ….js\)" are V8's own library written in JavaScript/);
  assert.match(doc.summary, /"\(program\)" \(\d+(\.\d+)?% on 16\.20\.2/);
  // Margins past ±100% say so rather than print a figure; ±100% itself is the last one printed
  // (cli/render/marks.js hasEstimate), which a margin of 99.5-100% rounds to (seen 2026-11-28).
  const markdown = await nodebench(['explain', '--suite', suite, '--from', '6.17.1', '--to', '16.20.2', '--benchmark', 'chain-native', '--profile-dir', path.join(dir, 'q'), '--processes', '2', '--metrics-processes', '2']);
  const margins = [...markdown.stdout.matchAll(/±(\d+(?:\.\d+)?)%/g)].map((m) => Number(m[1]));
  assert.ok(margins.length > 0, markdown.stdout);
  assert.deepEqual(margins.filter((m) => m > 100), [], markdown.stdout);
});
