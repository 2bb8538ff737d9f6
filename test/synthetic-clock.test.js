// The synthetic clock counted processes run with (cli/process/synthetic-clock.c and .js), on real
// runtimes under real valgrind: the runtime's clock advances by the reads and jumps to its timers
// (a 60 s timer ends in the seconds valgrind's start-up takes, on Node 4.9.1, whose libuv waits
// through syscall(2), and on Node 16), its children keep the real clock, and the programs in front of
// it (setarch, valgrind's launcher) leave it off. That counts repeat with it: test/long/instructions-clock.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { syntheticClock, clockEnvironment, describeClock, readClockReport, CLOCK_STEP_NS } from '../cli/process/synthetic-clock.js';
import { findValgrind, setarchPrefix } from '../cli/process/valgrind.js';
import { onPath } from '../cli/process/host-tools.js';
import { testRuntime, OLDEST } from './helpers/runtimes.js';

const run = promisify(execFile);
const canRun = onPath('valgrind') && onPath('cc');

// Prints the runtime's elapsed time over a 60 s timer, the wall clock it read, the two variables
// as its environment shows them, and a child's view of the monotonic clock (seconds).
const PROGRAM = `var t = process.hrtime(); setTimeout(function () {
  var e = process.hrtime(t);
  var child = require('child_process').execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.hrtime()[0]))']).toString();
  console.log(JSON.stringify({ elapsed: e[0] + e[1] / 1e9, now: Date.now(), env: [process.env.NODEBENCH_CLOCK_FOR, process.env.NODEBENCH_CLOCK_STEP_NS], child: Number(child) }));
}, 60000);`;

test('under valgrind, the runtime\'s clock is synthetic: a 60 s timer ends at once, its child reads the real clock', { timeout: 300_000, skip: !canRun && 'valgrind or a C compiler is not installed' }, async () => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-clock-'));
  const clock = await syntheticClock({ env: { ...process.env, NODEBENCH_CACHE: cache } });
  assert.ok(clock.library && fs.existsSync(clock.library), JSON.stringify(clock));
  // Built once per cache and source: the second ask is the same file.
  assert.equal((await syntheticClock({ env: { ...process.env, NODEBENCH_CACHE: cache } })).library, clock.library);
  assert.match(describeClock(clock), /^synthetic: every read in the main thread advances it 1 µs/);
  const valgrind = await findValgrind();
  const realUptime = fs.readFileSync('/proc/uptime', 'utf8');
  for (const spec of [OLDEST, '16.20.2']) {
    const runtime = await testRuntime(spec);
    const started = Date.now();
    const [file, ...args] = [...(setarchPrefix() ?? []), valgrind.path, '--tool=none', '-q', runtime.path, '-e', PROGRAM];
    const { stdout } = await run(file, args, {
      env: clockEnvironment(clock, runtime.path, { ...process.env }), timeout: 120_000
    });
    const seen = JSON.parse(stdout.trim().split('\n').pop());
    assert.ok(Date.now() - started < 55_000, `${spec}: the 60 s timer was waited for in real time (${Date.now() - started} ms)`);
    assert.ok(seen.elapsed >= 60 && seen.elapsed < 61, `${spec}: ${stdout}`);
    // Monotonic time starts at 1,000 s and advances CLOCK_STEP_NS a read; the wall clock reads 2023-11-14.
    assert.ok(seen.now >= 1_700_001_000_000 && seen.now < 1_700_001_100_000, `${spec}: ${stdout}`);
    assert.deepEqual(seen.env, [null, null], `${spec}: the variables stayed in the runtime's environment: ${stdout}`);
    // The child (not under valgrind, the library preloaded but off) reads the host's monotonic clock.
    assert.ok(Math.abs(seen.child - Number(realUptime.split(' ')[0])) < 600, `${spec}: the child's clock ${seen.child} s, the host's uptime ${realUptime}`);
  }
  assert.equal(CLOCK_STEP_NS, 1000);
});

test('a damaged library in the cache (truncated) is built again, not preloaded as if it worked', { timeout: 120_000, skip: !onPath('cc') && 'no C compiler' }, async () => {
  const first = await syntheticClock({ env: { ...process.env, NODEBENCH_CACHE: fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-clock-a-')) } });
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-clock-b-'));
  const damaged = path.join(cache, 'tools', path.basename(first.library));
  fs.mkdirSync(path.dirname(damaged), { recursive: true });
  fs.writeFileSync(damaged, fs.readFileSync(first.library).subarray(0, 1000));
  const clock = await syntheticClock({ env: { ...process.env, NODEBENCH_CACHE: cache } });
  assert.equal(clock.library, damaged);
  assert.equal(fs.statSync(damaged).size, fs.statSync(first.library).size);
});

test('without a C compiler the clock is real, and the process record says why', async () => {
  const clock = await syntheticClock({ env: { PATH: '/nonexistent', NODEBENCH_CACHE: fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-clock-none-')) } });
  assert.equal(clock.library, undefined);
  assert.match(clock.reason, /no C compiler \(cc\) on PATH to build the synthetic clock: install one/);
  assert.match(describeClock(clock), /^real \(no C compiler/);
  assert.deepEqual(clockEnvironment(clock, '/x/node', { A: '1' }), { A: '1' });
  const other = await syntheticClock({ env: { NODEBENCH_CACHE: '/tmp/x' }, platform: 'darwin' });
  assert.match(other.reason, /LD_PRELOAD, which darwin has not/);
});

test('the clock\'s environment keeps a preload the caller gave, and names the runtime it is for', () => {
  const env = clockEnvironment({ library: '/cache/tools/synthetic-clock-abc.so' }, '/r/bin/node', { LD_PRELOAD: '/mine.so' });
  assert.deepEqual(env, { LD_PRELOAD: '/mine.so:/cache/tools/synthetic-clock-abc.so', NODEBENCH_CLOCK_FOR: '/r/bin/node', NODEBENCH_CLOCK_STEP_NS: '1000' });
});

// bfj's pattern: a stream written in many small pieces into deflate (one thread-pool job each),
// and a 1 ms timer polling until it ends. Prints the polls and the elapsed time the runtime read.
const POOL_PROGRAM = `var zlib = require('zlib'); var d = zlib.createDeflate(); var polls = 0, ended = false;
var t = process.hrtime();
d.on('data', function () {}); d.on('end', function () { ended = true; var e = process.hrtime(t); console.log(JSON.stringify({ polls: polls, elapsed: e[0] * 1e9 + e[1] })); });
(function poll() { if (!ended) { polls++; setTimeout(poll, 1); } })();
for (var i = 0; i < 3000; i++) d.write(new Buffer('{"id":' + i + ',"text":"' + 'abc'.repeat(i % 40) + '"}'));
d.end();`;

test('work handed to the thread pool takes no synthetic time: a timer polling a deflate repeats its polls and its clock (Node 4.9.1, 16.20.2)', { timeout: 120_000, skip: !onPath('cc') && 'no C compiler' }, async () => {
  const clock = await syntheticClock({ env: { ...process.env, NODEBENCH_CACHE: fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-clock-pool-')) } });
  for (const spec of [OLDEST, '16.20.2']) {
    const runtime = await testRuntime(spec);
    const runs = [];
    const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-clock-report-')), 'report.json');
    for (let i = 0; i < 3; i++) {
      const { stdout } = await run(runtime.path, ['--predictable', '-e', POOL_PROGRAM], { env: clockEnvironment(clock, runtime.path, { ...process.env }, report), timeout: 60_000 });
      runs.push(JSON.parse(stdout.trim()));
      // No poll waited in vain, at exit neither: the platform's threads, woken to stop, leave the
      // count as they end (before, every process's last poll waited the cap: 2 s and a report of 1).
      assert.equal(readClockReport(report).pollsGivenUp, 0, spec);
    }
    // Without the wait for the pool, a poll that found deflate unfinished jumped the clock by 1 ms:
    // 26,424 and 40,089 polls in two runs on 4.9.1, 11,169 and 38,159 on 16.20.2 (2026-11-28).
    // --predictable, as counted processes run. Without the wait the elapsed time was 11-38 s of jumps.
    assert.deepEqual(runs, [runs[0], runs[0], runs[0]], `${spec}: ${JSON.stringify(runs)}`);
    assert.ok(runs[0].polls < 100, `${spec}: ${JSON.stringify(runs)}`);
  }
});

// Node 16's V8 posts every scavenge as a job that one of the platform's threads or the main thread,
// joining it, may run, and the two paths read the clock differently. With the main thread first,
// the main thread always takes it: the same synthetic time at the end of three processes, and no
// thread but the main one read the clock past start-up. Before, natively on 2 cores (2026-11-28):
// 2,990, 2,976 and 3,014 µs, and 79, 35 and 83 reads by other threads.
const SCAVENGING_PROGRAM = `var a = []; for (var i = 0; i < 4e6; i++) { a.push({ i: i }); if (a.length > 2e5) a = []; }
var t = process.hrtime(); console.log(t[0] * 1e9 + t[1]);`;

test('the main thread first: Node 16\'s scavenge jobs run in the main thread, and a scavenging loop ends at the same synthetic time in every process', { timeout: 60_000, skip: !onPath('cc') && 'no C compiler' }, async () => {
  const clock = await syntheticClock({ env: { ...process.env, NODEBENCH_CACHE: fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-clock-scavenge-')) } });
  const runtime = await testRuntime('16.20.2');
  const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-clock-report-')), 'report.json');
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const { stdout } = await run(runtime.path, ['--predictable', '-e', SCAVENGING_PROGRAM], { env: clockEnvironment(clock, runtime.path, { ...process.env }, report), timeout: 30_000 });
    const { otherThreadClockReads, waitsForMainGivenUp } = readClockReport(report);
    runs.push({ endNs: Number(stdout.trim()), otherThreadClockReads, waitsForMainGivenUp });
  }
  assert.deepEqual(runs, [runs[0], runs[0], runs[0]], JSON.stringify(runs));
  assert.ok(runs[0].otherThreadClockReads <= 5, JSON.stringify(runs));
  assert.equal(runs[0].waitsForMainGivenUp, 0);
});

// A pool thread blocked outside its waits (opening a FIFO nobody writes to) cannot be told from a
// working one: a poll waits for it up to the cap, then goes on, and the process reports each poll
// that gave up. The 1 ms timer polls three times, then opens the FIFO's other end.
const BLOCKED_POOL_PROGRAM = `var fs = require('fs'); var fifo = process.argv[1]; var polls = 0;
fs.open(fifo, 'r', function (err, fd) { if (err) throw err; fs.closeSync(fd); console.log(JSON.stringify({ polls: polls })); });
(function poll() { if (++polls < 3) return setTimeout(poll, 1); fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK)); })();`;

test('a poll waits for a blocked pool thread at most the cap, and the process reports the polls that gave up', { timeout: 60_000, skip: !(onPath('cc') && onPath('mkfifo')) && 'no C compiler or mkfifo' }, async () => {
  const clock = await syntheticClock({ env: { ...process.env, NODEBENCH_CACHE: fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-clock-blocked-')) } });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-clock-fifo-'));
  const fifo = path.join(dir, 'fifo');
  await run('mkfifo', [fifo]);
  const runtime = await testRuntime('16.20.2');
  const report = path.join(dir, 'report.json');
  const { stdout } = await run(runtime.path, ['--predictable', '-e', BLOCKED_POOL_PROGRAM, fifo], { env: clockEnvironment(clock, runtime.path, { ...process.env }, report), timeout: 30_000 });
  assert.deepEqual(JSON.parse(stdout.trim()), { polls: 3 });
  const { pollsGivenUp } = readClockReport(report);
  // Each of the timer's waits found the pool thread still blocked (and the loop polls once more
  // between timers); 5 here on 2026-11-28, each after 2 s.
  assert.ok(pollsGivenUp >= 2 && pollsGivenUp <= 6, `polls that gave up: ${pollsGivenUp}`);
  // Without the report file's variable, nothing is written; a file that is not a report reads as none.
  fs.writeFileSync(report, 'not json');
  assert.equal(readClockReport(report), null);
  assert.equal(readClockReport(path.join(dir, 'absent.json')), null);
});
