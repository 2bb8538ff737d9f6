// Whole commands (`nodebench exec`, matrix.yaml `commands:`): each process is one run of the user's
// command with the runtime under test first on PATH and the flag set delivered to node; measured,
// failed, timed out and refused as the README says. Real runtimes, real processes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodebench } from '../helpers/cli.js';
import { testRuntime } from '../helpers/runtimes.js';
import { settled } from '../helpers/processes.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-exec-'));
// A "build" that says which node ran it and with which flags, one line per run.
const script = path.join(tmp, 'build.js');
fs.writeFileSync(script, `var fs = require('fs');
var x = 0; for (var i = 0; i < 3e6; i++) x += i;
fs.appendFileSync(process.env.RUNS_LOG, process.version + ' ' + process.execArgv.join(' ') + ' ' + (process.env.NODE_OPTIONS || '') + '\\n');
`);

const read = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

test('exec runs the command under each runtime and flag set, as an argument array, and records wall, CPU, RSS and how the flags arrived', async () => {
  const [old, current] = await Promise.all([testRuntime('16.20.2'), testRuntime('20')]);
  const log = path.join(tmp, 'runs.log');
  const out = path.join(tmp, 'exec.json');
  const { exitCode, stdout, stderr } = await nodebench(['exec', '--node', `16.20.2,${current.version}`, '--flags', '--max-semi-space-size=32', '--processes', '2', '--max-processes', '2',
    '--env', `RUNS_LOG=${log}`, '--out', out, '--', 'node', script], { cwd: tmp });
  assert.equal(exitCode, 0, stderr);
  const result = read(out);
  assert.equal(result.suites[0].kind, 'command');
  assert.equal(result.cells.length, 4);
  for (const cell of result.cells) {
    assert.equal(cell.status, 'ok', cell.error);
    assert.equal(cell.benchmarkType, 'command');
    for (const p of cell.processes) {
      assert.equal(p.command.exitCode, 0);
      assert.ok(p.command.wallMs > 0 && Math.abs(p.samplesNsPerOp[0] - p.command.wallMs * 1e6) < 1);
      assert.ok(p.command.peakRssBytes > 10 * 1048576, `peak RSS ${p.command.peakRssBytes}`);
      assert.ok(p.command.userMs !== null && p.command.userMs + p.command.systemMs > 0);
    }
  }
  // Every run's node was the column's runtime; the flags reached it on both (NODE_OPTIONS on 20,
  // which allows --max-semi-space-size there, a wrapper on 16, which does not).
  const lines = fs.readFileSync(log, 'utf8').trim().split('\n');
  assert.equal(lines.length, 8);
  assert.equal(lines.filter((l) => l.startsWith('v16.20.2')).length, 4);
  assert.equal(lines.filter((l) => l.startsWith(`v${current.version}`)).length, 4);
  assert.equal(lines.filter((l) => /--max-semi-space-size=32/.test(l)).length, 4);
  const via = (runtime, flagSet) => result.cells.find((c) => c.runtime === runtime && c.flagSet === flagSet).processes[0].command.flagsVia;
  assert.equal(via('16.20.2', 'baseline'), 'none');
  assert.match(via('16.20.2', '--max-semi-space-size=32'), /wrapper/);
  assert.equal(via(current.version, '--max-semi-space-size=32'), 'NODE_OPTIONS');
  assert.equal(old.version, '16.20.2');
  // The tables read as time per run, with the commands grid under them.
  assert.match(stdout, /time per run ±95% margin/);
  assert.match(stdout, /commands, per run/);
  assert.match(stdout, /\d+(\.\d+)? ms/);
});

test('a command that fails, is not found or hangs fails only its cell, with the reason; the others are kept', async () => {
  const current = await testRuntime('20');
  const matrix = path.join(tmp, 'commands.yaml');
  // A duration no other process on the machine uses, to find the hanging command's sleeps by; far
  // longer than the hang guard below, so a run under it proves the sleeps were cut.
  const marker = (300 + Math.floor(Math.random() * 1000) / 1000).toFixed(3);
  fs.writeFileSync(matrix, `runtimes: [${current.version}]
commands:
  - name: fine
    run: [node, -e, "0"]
  - name: breaks
    run: [node, -e, "console.error('disk on fire'); process.exit(3)"]
  - name: missing
    run: [no-such-program-here]
  - name: hangs
    run: "sleep ${marker} & sleep ${marker}"
    shell: true
run: { processes: 1, maxProcesses: 1, timeoutSec: 5 }
`);
  const out = path.join(tmp, 'mixed.json');
  const started = Date.now();
  const { exitCode, stderr } = await nodebench(['matrix', '--matrix', matrix, '--out', out], { cwd: tmp });
  assert.equal(exitCode, 1, stderr);
  const cells = Object.fromEntries(read(out).cells.map((c) => [c.benchmark, c]));
  assert.equal(cells.fine.status, 'ok');
  assert.equal(cells.breaks.status, 'failed');
  assert.match(cells.breaks.error, /exited with status 3: disk on fire/);
  assert.equal(cells.missing.status, 'failed');
  assert.match(cells.missing.error, /no-such-program-here was not found/);
  assert.equal(cells.hangs.status, 'timeout');
  // A hang guard, not a timing: the run takes seconds, maybe three times that with CI's test files in
  // parallel on 2 cores; the sleeps would take 300 s.
  assert.ok(Date.now() - started < 120_000, 'the hanging command was not cut at its time limit');
  // Nothing the hanging command started is left running (a killed process is given a moment to exit).
  const sleeps = () => fs.readdirSync('/proc').filter((pid) => /^\d+$/.test(pid)).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1') === `sleep\u0000${marker}\u0000`;
    } catch {
      return false;
    }
  });
  assert.deepEqual(await settled(sleeps), []);
});

test('commands in matrix.yaml are checked before anything runs: one sentence naming the entry and the fix, exit 2', async () => {
  const cases = [
    ['commands:\n  - name: build\n    run: "npm run build"\n', /commands\.yaml:4: command 1: run is one string \("npm run build"\); write it as a list of arguments.*or set shell: true/],
    ['commands:\n  - run: []\n', /command 1: run must be a non-empty list of arguments/],
    ['commands:\n  - run: [node]\n    cwd: ./nowhere\n', /command 1: cwd .*nowhere is not a directory/],
    ['commands:\n  - run: [node]\n    colour: blue\n', /command entries take name, run, shell, cwd, env, warmup, not colour/],
    ['commands:\n  - {name: a, run: [node]}\n  - {name: a, run: [npm]}\n', /command name "a" is used twice/],
    // A NUL cannot be in a process's environment: refused here, not Node's own message on the cell.
    ['commands:\n  - run: [node]\n    env: {"A\\0B": x}\n', /commands\.yaml:4: command 1: env name "A\\u0000B" cannot be a variable name/],
    ['commands:\n  - run: [node]\n    env: {A: "x\\0y"}\n', /commands\.yaml:4: command 1: env A contains a NUL character/],
    ['commands:\n  - run: [node]\n    env: {"A=B": x}\n', /env name "A=B" cannot be a variable name/],
    ['commands:\n  - name: "n\\0m"\n    run: [node]\n', /command 1: name contains a NUL character/],
    // docs/matrix.md: a file with commands plans no suites; an empty list is nothing to run, not every suite.
    ['commands: []\n', /commands\.yaml:2: commands is an empty list and no suites are named, so there is nothing to run/]
  ];
  for (const [text, expected] of cases) {
    const matrix = path.join(tmp, 'commands.yaml');
    fs.writeFileSync(matrix, `runtimes: [system]\n${text}`);
    const { exitCode, stderr } = await nodebench(['matrix', '--matrix', matrix, '--out', path.join(tmp, 'never.json'), '--force'], { cwd: tmp });
    assert.equal(exitCode, 2, stderr);
    assert.match(stderr, expected);
    assert.equal(stderr.trim().split('\n').length, 1, stderr);
  }
  const { exitCode, stderr } = await nodebench(['exec', '--node', 'system', '--env', 'NOEQUALS', '--', 'node'], { cwd: tmp });
  assert.equal(exitCode, 2);
  assert.match(stderr, /--env "NOEQUALS" must look like NAME=value/);
});

test('two exec results of a command diff and gate like any benchmark', async () => {
  const current = await testRuntime('20');
  const runs = [];
  for (const name of ['a', 'b']) {
    const out = path.join(tmp, `gate-${name}.json`);
    const { exitCode, stderr } = await nodebench(['exec', '--node', current.version, '--processes', '3', '--max-processes', '3', '--name', 'build',
      '--env', `RUNS_LOG=${path.join(tmp, 'gate.log')}`, '--out', out, '--', 'node', script], { cwd: tmp });
    assert.equal(exitCode, 0, stderr);
    runs.push(out);
  }
  const { exitCode, stdout, stderr } = await nodebench(['diff', ...runs, '--format', 'json'], { cwd: tmp });
  assert.ok([0, 1].includes(exitCode), stderr);
  const diff = JSON.parse(stdout);
  assert.equal(diff.rows.length, 1);
  const [row] = diff.rows;
  assert.equal(row.label, 'commands/build');
  assert.equal(row.before, 'ok');
  assert.equal(row.after, 'ok');
  assert.ok(row.comparison.ratio > 0 && row.comparison.ci.low <= row.comparison.ci.high);
  // A planted slowdown (the same command busy for at least 1.5 s more) fails the gate, even on a
  // machine as noisy as a shared CI runner.
  const slow = path.join(tmp, 'slow.js');
  fs.writeFileSync(slow, `${fs.readFileSync(script, 'utf8')}\nvar until = Date.now() + 1500; while (Date.now() < until) x++;\n`);
  const slowOut = path.join(tmp, 'gate-slow.json');
  const made = await nodebench(['exec', '--node', current.version, '--processes', '3', '--max-processes', '3', '--name', 'build',
    '--env', `RUNS_LOG=${path.join(tmp, 'gate.log')}`, '--out', slowOut, '--', 'node', slow], { cwd: tmp });
  assert.equal(made.exitCode, 0, made.stderr);
  const gate = await nodebench(['diff', runs[0], slowOut, '--fail-on-regression', '5'], { cwd: tmp });
  assert.equal(gate.exitCode, 1, gate.stdout + gate.stderr);
  assert.match(gate.stderr, /commands\/build/);
});
