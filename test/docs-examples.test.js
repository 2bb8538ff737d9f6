// What the README and the docs tell a user to type, run as they say it (issue 39, item 11): the CI
// snippet pasted as it is, a column named by its runtime's major, one definition of "same", report
// --format json as docs/commands.md promises, docs/api.md's example run on a real matrix (it compared
// two different benchmarks of one runtime), and history's help naming the --store default once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import sucrase from 'sucrase';
import YAML from 'yaml';
import { nodebench, root } from './helpers/cli.js';
import { testRuntime } from './helpers/runtimes.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-docs-'));
const SMOKE = path.join(root, 'test', 'fixtures', 'suites', 'smoke', 'index.js');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
// A real default matrix's gc and promises cells (test/history-real-runs.test.js): 4.9.1, 6.17.1,
// 14.21.3, 16.20.2 and 24.21.0, each with its flag sets.
const m1 = path.join(dir, 'm1.json');
fs.writeFileSync(m1, zlib.gunzipSync(fs.readFileSync(path.join(root, 'test', 'fixtures', 'history', 'aa', 'm1.json.gz'))));

const userError = (run, pattern) => {
  assert.equal(run.exitCode, 2, run.stdout + run.stderr);
  assert.match(run.stderr, pattern);
  assert.doesNotMatch(run.stderr, /\n\s+at /);
  assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
};

// The words of a shell line, for lines without quotes (as the README's are).
const words = (line) => line.trim().split(/\s+/);

test('a column is named by its runtime\'s major where that is one runtime, and refused in a sentence where it is two', { timeout: 180_000 }, async () => {
  const byMajor = await nodebench(['diff', m1, '--from', '16/baseline', '--to', '24/baseline', '--format', 'json']);
  assert.equal(byMajor.exitCode, 0, byMajor.stderr);
  const exact = await nodebench(['diff', m1, '--from', '16.20.2/baseline', '--to', '24.21.0/baseline', '--format', 'json']);
  assert.deepEqual(JSON.parse(byMajor.stdout).rows.map((r) => r.column), JSON.parse(exact.stdout).rows.map((r) => r.column));
  assert.ok(JSON.parse(byMajor.stdout).rows.every((r) => r.column === '16.20.2/baseline -> 24.21.0/baseline'));
  assert.equal((await nodebench(['report', m1, '--baseline', '16/baseline', '--summary'])).exitCode, 0);
  assert.match((await nodebench(['report', m1, '--baseline', '16', '--summary'])).stdout, /against 16\.20\.2\/baseline/);
  userError(await nodebench(['diff', m1, '--from', '18/baseline', '--to', '24/baseline']), /^nodebench: Column "18\/baseline" is not in .*m1\.json; it has 4\.9\.1\/baseline, /);
  // explain names columns as diff does: past the columns, to the benchmark it is asked for.
  userError(await nodebench(['explain', m1, '--from', '6/baseline', '--to', '16', '--benchmark', 'promises/nope']), /^nodebench: Benchmark "promises\/nope" is not in /);
  userError(await nodebench(['explain', m1, '--from', '18/baseline', '--to', '16', '--benchmark', 'promises/nope']), /^nodebench: Column "18\/baseline" \(--from\) is not in /);
  // Two 16.x runtimes in one run: "16" could be either.
  await Promise.all(['16.13.2', '16.20.2'].map((v) => testRuntime(v)));
  const two = path.join(dir, 'two16.json');
  const run = await nodebench(['run', SMOKE, '--benchmarks', 'sum-loop', '--node', '16.13.2,16.20.2', '--quick', '--out', two]);
  assert.equal(run.exitCode, 0, run.stderr);
  userError(await nodebench(['diff', two, '--from', '16/baseline', '--to', '16.20.2/baseline']), /^nodebench: Column "16\/baseline" in .*two16\.json could be 16\.13\.2\/baseline or 16\.20\.2\/baseline; give the version\.$/);
});

test('README\'s CI snippet runs as pasted', { timeout: 600_000 }, async () => {
  const block = readme.split('## In CI')[1].split('```sh\n')[1].split('```')[0].trim().split('\n');
  assert.equal(block.length, 2, block.join('\n'));
  const [matrix, diff] = block.map(words);
  assert.deepEqual(matrix.slice(0, 3), ['npx', 'nodebench', 'matrix']);
  await Promise.all(['20', '22'].map((v) => testRuntime(v)));
  // The matrix line as written, on a suite of one benchmark and --quick, so that the test takes
  // seconds (the smoke suite holds one that hangs until its time limit).
  const suite = path.join(dir, 'one.js');
  fs.writeFileSync(suite, "'use strict';\nmodule.exports = { name: 'one', benchmarks: { sum: function () { var t = 0; for (var i = 0; i < 100; i++) t += i; return t; } } };\n");
  const ran = await nodebench([...matrix.slice(2), '--suites', suite, '--quick'], { cwd: dir });
  assert.equal(ran.exitCode === 0 || ran.exitCode === 1, true, ran.stderr);
  assert.ok(fs.existsSync(path.join(dir, 'result.json')));
  // The diff line exactly as written: it names the columns by their majors.
  const compared = await nodebench(diff.slice(2), { cwd: dir });
  assert.ok(compared.exitCode === 0 || compared.exitCode === 1, compared.stderr);
  assert.match(compared.stdout, /20\.\d+\.\d+\/baseline -> 22\.\d+\.\d+\/baseline/);
});

test('"same" is one thing everywhere: its 90% interval within ±equivalence, two one-sided tests at 5%', async () => {
  const help = (await nodebench(['diff', '--help'])).stdout.replace(/\s+/g, ' ');
  assert.match(help, /--equivalence <percent> a change whose 90% interval lies within ±percent \(two one-sided tests at 5%\) is "same"/);
  for (const [file, text] of [['README.md', readme], ...['commands.md', 'ci.md', 'statistics.md'].map((f) => [`docs/${f}`, fs.readFileSync(path.join(root, 'docs', f), 'utf8')])]) {
    const flat = text.replace(/\s+/g, ' ');
    assert.doesNotMatch(flat, /95% interval (lies )?with?in ±/, `${file} defines "same" by a 95% interval`);
  }
  const verdicts = (await nodebench(['diff', m1, '--from', '16/baseline', '--to', '24/baseline'])).stdout;
  assert.match(verdicts, /same: the 90% interval within ±2% \(two one-sided tests at 5%\)/);
});

test('report --format json is the result document, as docs/commands.md says every command takes json', async () => {
  const run = await nodebench(['report', m1, '--format', 'json']);
  assert.equal(run.exitCode, 0, run.stderr);
  const document = JSON.parse(run.stdout);
  const original = JSON.parse(fs.readFileSync(m1, 'utf8'));
  assert.equal(document.cells.length, original.cells.length);
  assert.deepEqual(document.cells.map((c) => c.summary?.opsPerSec ?? null), original.cells.map((c) => c.summary?.opsPerSec ?? null));
  assert.equal(document.createdAt, original.createdAt);
});

test('docs/api.md\'s example compares one benchmark on two runtimes, run on a real matrix', { timeout: 300_000 }, async () => {
  const example = fs.readFileSync(path.join(root, 'docs', 'api.md'), 'utf8').split('```ts\n')[1].split('```')[0];
  // The example imports 'nodebench' by name, as a user's file does.
  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-api-example-'));
  fs.mkdirSync(path.join(project, 'node_modules'));
  fs.symlinkSync(root, path.join(project, 'node_modules', 'nodebench'), 'dir');
  fs.writeFileSync(path.join(project, 'package.json'), '{ "type": "module" }\n');
  fs.writeFileSync(path.join(project, 'example.js'), sucrase.transform(example, { transforms: ['typescript'] }).code);
  await Promise.all(['16.20.2', '20.20.2'].map((v) => testRuntime(v)));
  const matrix = path.join(project, 'matrix.yaml');
  fs.writeFileSync(matrix, YAML.stringify({
    runtimes: ['16.20.2', '20.20.2'],
    suites: [{ name: SMOKE, benchmarks: ['sum-loop', 'promise-chain'] }],
    run: { samples: 3, minSampleMs: 2, warmupMaxMs: 100, maxProcesses: 3, metrics: false }
  }));
  const { compareColumns } = await import(path.join(project, 'example.js'));
  const said = await compareColumns(matrix, path.join(project, 'r.json'));
  const last = said.trim().split('\n').at(-1);
  assert.match(last, /^smoke\/(sum-loop|promise-chain): 20\.20\.2\/baseline vs 16\.20\.2\/baseline: \d+\.\d{3}x \[\d+\.\d{3}, \d+\.\d{3}\] \(.+\), (faster|slower|same|undecided)$/);
});

test('history help names the --store default once', async () => {
  for (const sub of ['add', 'show', 'check']) {
    const help = (await nodebench(['history', sub, '--help'])).stdout.replace(/\s+/g, ' ');
    assert.equal(help.split('results/history').length - 1, 1, `history ${sub} --help: ${help}`);
  }
});
