// Result files crafted to break the readers (issue 40, items 11-13): a result file that is
// /dev/zero or /dev/urandom ran report, diff and explain into `RangeError: Invalid string length`
// (exit 70) after 3-34 s; params nested 100,000 deep overflowed JSON.stringify's stack in history add
// and merge (exit 70), and made explain print "internal error" and never exit; keptSamples that
// point past a process's samples made diff print NaN% for every row and pass a gate with exit 0.
// Each is one sentence and exit 2, at once. No runtime is started: every file is refused on read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { nodebench } from './helpers/cli.js';
import { assertUserError } from './helpers/history.js';
import { resultObject, okCell, writeResultFile, runtimeRecord } from './helpers/result-file.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-crafted-'));
const good = writeResultFile([okCell('b')]);
// A hang guard only: a refusal takes well under a second, the hangs and crashes it replaces minutes.
const run = (args) => nodebench(args, { cwd: dir, timeout: 120_000 });

// Every command that reads a result file, with `file` where the result goes.
const readers = (file) => [
  ['report', file],
  ['diff', file, good],
  ['diff', good, file],
  ['explain', file, '--from', '16.20.2/baseline', '--to', '16.20.2/baseline', '--benchmark', 's/b'],
  ['merge', file, good, '--allow-partial', '--out', path.join(dir, 'merged.json')],
  ['history', 'add', file, '--store', path.join(dir, 'store')]
];

function refused(result, args, pattern) {
  assert.equal(result.timedOut, false, `${args.join(' ')} hung`);
  assertUserError(result, pattern);
}

test('a result file that is /dev/zero, /dev/urandom, a link to one, or a FIFO is one sentence for every reader, at once', { timeout: 600_000 }, async () => {
  const fifo = path.join(dir, 'fifo.json');
  await execa('mkfifo', [fifo]);
  const link = path.join(dir, 'zero.json');
  fs.symlinkSync('/dev/zero', link);
  for (const [file, kind] of [['/dev/zero', 'a character device'], ['/dev/urandom', 'a character device'], [link, 'a character device'], [fifo, 'a FIFO']]) {
    for (const args of readers(file)) {
      const escaped = file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      refused(await run(args), args, new RegExp(`Result file ${escaped} is ${kind}, not a file; give the path of a result file written by nodebench matrix, run or merge\\.$`));
    }
  }
  assert.ok(!fs.existsSync(path.join(dir, 'store', 'store.lock')), 'history add left the store locked');
});

// JSON.parse takes any depth; JSON.stringify, structuredClone and every recursive walk do not.
function deepResult(depth) {
  const result = resultObject([okCell('b')]);
  result.suites[0].params = '__DEEP__';
  const deep = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const file = path.join(dir, `deep-${depth}.json`);
  fs.writeFileSync(file, JSON.stringify(result).replace('"__DEEP__"', deep));
  return file;
}

test('a result nested 100,000 deep is one sentence for report, diff, merge, history add and explain, which exits', { timeout: 600_000 }, async () => {
  const file = deepResult(100_000);
  for (const args of readers(file)) {
    refused(await run(args), args, /deep-100000\.json nests its values more than 64 deep \(at suites\[0\]\.params\.a\.a\.a…\); nodebench writes no such file: pass a file written by nodebench matrix, run or merge\.$/);
  }
  // What a suite's own parameters may nest stays allowed.
  const shallow = deepResult(20);
  assert.equal((await run(['report', shallow])).exitCode, 0);
});

test('keptSamples that point past a process\'s samples are refused, so no gate passes on NaN', { timeout: 300_000 }, async () => {
  const data = resultObject([okCell('b'), okCell('c')]);
  data.cells[0].processes[1].keptSamples = [0, 7];
  const file = path.join(dir, 'kept.json');
  fs.writeFileSync(file, JSON.stringify(data));
  for (const args of [...readers(file), ['diff', good, file, '--fail-on-regression', '5']]) {
    refused(await run(args), args, /kept\.json: cells\[0\] \(s\/b on 16\.20\.2\/baseline\), process 2 keeps sample 7 of its 3 \(keptSamples\); nodebench writes no such file: pass a file written by nodebench matrix, run or merge\.$/);
  }
  data.cells[0].processes[1].keptSamples = [1, 1];
  fs.writeFileSync(file, JSON.stringify(data));
  refused(await run(['report', file]), ['report'], /process 2 keeps sample 1 twice \(keptSamples\)/);
});

// An instruction count is above 0 (cli/process/valgrind.js refuses any other), as a time is: a file
// counting 0 instructions per operation made diff print "+Infinity%" and pass a gate with exit 0.
// A result file of counts as `nodebench matrix --measure instructions` writes one: the run's measure,
// each cell's and each process's.
function countedResult(count, options) {
  const data = resultObject([okCell('b'), okCell('c')], options);
  data.run.measure = 'instructions';
  for (const cell of data.cells) {
    cell.measure = 'instructions';
    for (const record of cell.processes) {
      record.measure = 'instructions';
      record.instructionsPerOp = record.samplesNsPerOp.map(() => count);
      delete record.samplesNsPerOp;
    }
  }
  return data;
}

// A count of 1e-300 per operation (found by a hostile review, 2026-11-29) made a ratio of Infinity,
// shown as "+Infinity%": below 1e-12 or above 1e18 per operation no value is a measurement
// (result.schema.json), and between them every ratio is finite.
test('an instructions result counting 0, 1e-300 or 1e300 instructions per operation is refused, as a time of 0 is', { timeout: 300_000 }, async () => {
  const counted = (count) => {
    const file = path.join(dir, `instructions-${count}.json`);
    fs.writeFileSync(file, JSON.stringify(countedResult(count)));
    return file;
  };
  assert.equal((await run(['report', counted(925)])).exitCode, 0, 'a count above 0 is read');
  for (const [count, rule] of [[0, '>= 1e-12'], [1e-300, '>= 1e-12'], [1e300, '<= 1000000000000000000']]) {
    const file = counted(count);
    for (const args of [...readers(file), ['diff', counted(925), file, '--fail-on-regression', '5']]) {
      refused(await run(args), args, new RegExp(`instructions-${String(count).replace('+', '\\+')}\\.json does not match the nodebench result schema: cells\\.0\\.processes\\.0\\.instructionsPerOp\\.0 must be ${rule}; pass a file written by nodebench matrix, run or merge\\.$`));
    }
  }
});

// Found by a hostile review (2026-11-29): a file whose run said instructions while some cells held
// times (or the other way round) was diffed as counts against nanoseconds, and decided; a count
// written 1e400 parsed as Infinity and passed the schema's "number"; counts of an arm64 build were
// merged with, and diffed against, counts of the x64 one.
test('a file whose cells are not of its run\'s measure, of an unknown measure, or with an infinite count is refused by every reader', { timeout: 300_000 }, async () => {
  const write = (name, data) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data));
    return file;
  };
  const mixed = countedResult(925);
  const timed = okCell('c');
  mixed.cells[1] = { ...timed, id: 1 };
  const unmarked = countedResult(925);
  delete unmarked.run.measure;
  const cycles = countedResult(925);
  cycles.run.measure = 'cycles';
  const cases = [
    [write('mixed.json', mixed), /mixed\.json: cells\[1\] \(s\/c on 16\.20\.2\/baseline\) is measured in time, its run in instructions; nodebench writes no such file/],
    [write('unmarked.json', unmarked), /unmarked\.json: cells\[0\] \(s\/b on 16\.20\.2\/baseline\) is measured in instructions, its run in time; nodebench writes no such file/],
    [write('cycles.json', cycles), /cycles\.json has run\.measure "cycles", which nodebench does not measure \(time or instructions\); nodebench writes no such file/],
    [write('infinite.json', JSON.stringify(countedResult(925)).replace('"instructionsPerOp":[925', '"instructionsPerOp":[1e400')), /infinite\.json does not match the nodebench result schema: cells\.0\.processes\.0\.instructionsPerOp\.0 must be number/]
  ];
  for (const [file, pattern] of cases) {
    for (const args of readers(file)) refused(await run(args), args, pattern);
  }
  const x64 = write('x64.json', countedResult(925));
  const arm64 = write('arm64.json', countedResult(925, { runtimes: [{ ...runtimeRecord('16.20.2'), arch: 'arm64', sha256: 'f'.repeat(64) }] }));
  const diff = ['diff', x64, arm64, '--fail-on-regression', '5'];
  refused(await run(diff), diff, /x64\.json counted instructions of x64 binaries and .*arm64\.json of arm64 ones; counts of different architectures do not compare/);
  const merge = ['merge', x64, arm64, '--allow-partial', '--out', path.join(dir, 'arches.json')];
  refused(await run(merge), merge, /arm64\.json counted Node 16\.20\.2 built for arm64 \(sha256 ffffffffffff…\) but .*x64\.json counted x64 \(sha256 000000000000…\); instruction counts of different binaries do not pool/);
  assert.equal((await run(['diff', x64, x64, '--fail-on-regression', '5'])).exitCode, 0, 'the same binary compares');
});

// What the deep file did to explain underneath: the request the worker waits for on stdin could
// not be serialised, the throw left the worker waiting, and its open stdin kept nodebench alive
// after "internal error". A request that cannot be sent now ends its worker.
test('a worker whose request cannot be serialised is ended, so nothing waits for it', { timeout: 60_000 }, async () => {
  const { launchWorker } = await import('../cli/process/supervise.js');
  const { taggedBy, settled } = await import('./helpers/processes.js');
  const request = { mode: 'describe' };
  request.self = request;
  await assert.rejects(launchWorker(process.execPath, [], request, { timeoutMs: 30_000 }), /circular/);
  assert.deepEqual(await settled(() => taggedBy(process.pid)), [], 'the worker is still waiting for its request');
});
