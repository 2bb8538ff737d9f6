// nodebench kills only what it started and still owns (issue 40, item 1). A command whose spawn fails
// (E2BIG: an argument list too long for the OS) once left nodebench holding a child without a pid;
// at --timeout it sent SIGKILL to an uninitialised id, and from a shell that took the shell's whole
// process group with it. Real runtimes, real processes; where strace is installed, every kill the
// run sends is checked against the processes it created.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { nodebench, cliPath, root } from './helpers/cli.js';
import { testRuntime } from './helpers/runtimes.js';
import { assertUserError } from './helpers/history.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-kill-ownership-'));
const read = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

const hasStrace = (() => {
  try {
    return execa.sync('strace', ['-V'], { reject: false }).exitCode === 0;
  } catch {
    return false;
  }
})();

// nodebench as a user runs it, in a session of its own (so that a kill of "its own group" could take
// nothing but itself), under strace where there is one. Returns execa's result and, under strace, the
// kills it sent: [{ target, signal }] and the ids of every process and thread it created.
async function tracedNodebench(args, { env, cwd = tmp } = {}) {
  const trace = path.join(tmp, `strace-${process.hrtime.bigint()}.txt`);
  const command = hasStrace
    ? ['strace', ['-f', '-qq', '-e', 'trace=kill,clone,clone3,fork,vfork', '-o', trace, process.execPath, cliPath, ...args]]
    : [process.execPath, [cliPath, ...args]];
  const run = await execa(command[0], command[1], { reject: false, stdin: 'ignore', cwd, detached: true, env: { NO_COLOR: '1', ...env } });
  if (!hasStrace) return { run, kills: null };
  const lines = fs.readFileSync(trace, 'utf8').split('\n');
  const created = new Set(lines.map((l) => /\b(?:clone3?|v?fork)\(.*\)\s+=\s+(\d+)/.exec(l)).filter(Boolean).map((m) => Number(m[1])));
  const kills = lines.map((l) => /\bkill\((-?\d+), (SIG\w+|0)\)/.exec(l)).filter(Boolean).map((m) => ({ target: Number(m[1]), signal: m[2] }));
  return { run, kills, created };
}

// Every signal sent went to a process (or the group of one) that this nodebench created; a probe
// with signal 0 (is that pid still alive?) sends nothing.
function assertOwnKills({ kills, created }) {
  if (!kills) return;
  assert.ok(kills.some((k) => k.signal === 'SIGKILL'), 'strace saw the run end its workers\' groups');
  const strangers = kills.filter((k) => k.signal !== '0' && (k.target === 0 || !created.has(Math.abs(k.target))));
  assert.deepEqual(strangers, [], `kills of processes nodebench did not create (created: ${created.size})`);
}

test('exec with 140 KB of environment runs: the command probe takes its request on stdin, not as one over-long argument', async () => {
  const current = await testRuntime('20');
  const env = {};
  for (let i = 0; i < 5; i++) env[`NODEBENCH_TEST_BULK_${i}`] = String(i).repeat(28_000);
  const out = path.join(tmp, 'big-env.json');
  const traced = await tracedNodebench(['exec', '--node', current.version, '--processes', '1', '--max-processes', '1', '--timeout', '20', '--out', out, '--', 'node', '-e', '0'], { env });
  assert.equal(traced.run.signal, undefined, `nodebench was killed by ${traced.run.signal}`);
  assert.equal(traced.run.exitCode, 0, traced.run.stderr);
  const result = read(out);
  assert.equal(result.status, 'complete');
  assert.equal(result.cells[0].status, 'ok', result.cells[0].error);
  assertOwnKills(traced);
});

test('a command whose arguments are too long for the OS in all fails its own cell in one sentence with the size; the other cells run and the result file is finished', async () => {
  const current = await testRuntime('20');
  // 22 arguments of 100,000 characters: each within what Linux takes in one string, 2.2 MB in all
  // beyond what it takes for a whole argument list (a quarter of the 8 MB stack limit). One
  // argument and 21 aliases of it keep the matrix file within its 256 KiB.
  const matrix = path.join(tmp, 'too-long.yaml');
  fs.writeFileSync(matrix, `runtimes: [${current.version}]
commands:
  - name: huge
    run: [node, -e, "0", &long "${'x'.repeat(100_000)}", ${Array(21).fill('*long').join(', ')}]
  - name: fine
    run: [node, -e, "0"]
run: { processes: 1, maxProcesses: 1, timeoutSec: 10 }
`);
  const out = path.join(tmp, 'too-long.json');
  const traced = await tracedNodebench(['matrix', '--matrix', matrix, '--out', out]);
  assert.equal(traced.run.exitCode, 1, traced.run.stderr);
  assert.doesNotMatch(traced.run.stderr, /\n\s+at /, 'no stack trace');
  const result = read(out);
  assert.equal(result.status, 'complete');
  const cells = Object.fromEntries(result.cells.map((c) => [c.benchmark, c]));
  assert.equal(cells.fine.status, 'ok', cells.fine.error);
  assert.equal(cells.huge.status, 'failed');
  assert.match(cells.huge.error, /too long for the operating system/);
  assert.match(cells.huge.error, /2\.\d MiB in all/);
  assert.doesNotMatch(cells.huge.error, /timed out|did not finish/);
  assertOwnKills(traced);
});

test('an argument or variable longer than the OS takes in one string is refused before anything runs, in one sentence', async () => {
  if (process.platform !== 'linux') return;
  const current = await testRuntime('20');
  const cases = [
    [`  - run: [node, -e, "0", "${'y'.repeat(200_000)}"]\n`, /command 1: argument 4 of run is 200,000 bytes; Linux passes at most 131,071 bytes in one argument/],
    [`  - run: "true ${'y'.repeat(200_000)}"\n    shell: true\n`, /command 1: run \(the shell command line\) is 200,005 bytes; Linux passes at most 131,071 bytes in one argument/],
    [`  - run: [node, -e, "0"]\n    env: {BIG: "${'y'.repeat(200_000)}"}\n`, /command 1: env BIG is 200,004 bytes with its name; Linux passes at most 131,071 bytes in one variable/]
  ];
  for (const [entry, expected] of cases) {
    const matrix = path.join(tmp, 'impossible.yaml');
    fs.writeFileSync(matrix, `runtimes: [${current.version}]\ncommands:\n${entry}`);
    const run = await nodebench(['matrix', '--matrix', matrix, '--out', path.join(tmp, 'never.json'), '--force'], { cwd: tmp });
    assertUserError(run, expected);
    assert.equal(fs.existsSync(path.join(tmp, 'never.json')), false);
  }
});

// killGroup inside a process of its own group and session: before, an id nodebench never recorded
// was signalled as given (a negative id is a single process, 0 the caller's own group, here only
// the child itself). 1 is left out of this list: as a group it is every process the user may signal.
test('killGroup and killWorker refuse an id they did not record: undefined, NaN, 0, a negative, the caller, a process started elsewhere', async () => {
  const script = path.join(tmp, 'refuse.mjs');
  fs.writeFileSync(script, `
import { spawn } from 'node:child_process';
import * as owner from ${JSON.stringify(path.join(root, 'cli', 'process', 'groups.js'))};
const stranger = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
const answers = [undefined, NaN, 2.5, -stranger.pid, stranger.pid, process.pid, 0].map((id) => owner.killGroup(id));
answers.push(...[undefined, stranger.pid, process.pid].map((pid) => owner.killWorker({ pid })));
let strangerAlive = true;
try { process.kill(stranger.pid, 0); } catch { strangerAlive = false; }
process.kill(stranger.pid, 'SIGKILL');
console.log(JSON.stringify({ answers, strangerAlive }));
`);
  const run = await execa(process.execPath, [script], { reject: false, detached: true, stdin: 'ignore' });
  assert.equal(run.signal, undefined, `the child was killed by ${run.signal}`);
  assert.equal(run.exitCode, 0, run.stderr);
  const { answers, strangerAlive } = JSON.parse(run.stdout);
  assert.deepEqual(answers, Array(10).fill(false));
  assert.equal(strangerAlive, true);
});
