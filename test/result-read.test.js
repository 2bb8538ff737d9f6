// Reading result files: validated against the schema with one sentence on what is wrong, migrated
// from older schema versions, and unfinished cells shown as "unfinished" with a reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodebench } from './helpers/cli.js';
import { resultObject, writeResultFile, okCell } from './helpers/result-file.js';
import { migrate } from '../cli/results/migrate.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-read-'));
const write = (name, data) => {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, JSON.stringify(data));
  return file;
};

test('a file that does not match the schema is refused with one sentence and exit 2', async () => {
  const valid = resultObject([okCell('a')]);
  const cases = [
    [tmp, /is a directory; give the path of a result file inside it/],
    [write('null-cell.json', { ...valid, cells: [null] }), /does not match the nodebench result schema: cells\.0 must be object; pass a file written by/],
    [write('no-summary.json', { ...valid, cells: [{ ...okCell('a'), summary: undefined }] }), /cells\.0 must have required property 'summary'/],
    [write('no-status.json', { ...valid, cells: [{ ...okCell('a'), status: undefined }] }), /cells\.0 must have required property 'status'/],
    [write('no-runtimes.json', { ...valid, runtimes: undefined }), /the top level must have required property 'runtimes'/],
    [write('bad-status.json', { ...valid, cells: [okCell('a', 'weird')] }), /cells\.0\.status must be equal to one of the allowed values \(pending, ok,/]
  ];
  for (const [file, message] of cases) {
    const run = await nodebench(['report', file]);
    assert.equal(run.exitCode, 2, file);
    assert.match(run.stderr, message);
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
    assert.doesNotMatch(run.stderr, /\n\s+at /);
  }
});

test('older schema versions go through the migration chain; a version with no step is refused', () => {
  const steps = { 1: (v1) => ({ ...v1, schemaVersion: 2, cells: v1.cells.map((c) => ({ ...c, migrated: true })) }) };
  const migrated = migrate({ schemaVersion: 1, cells: [{ id: 0 }] }, 2, 'old.json', steps);
  assert.deepEqual(migrated, { schemaVersion: 2, cells: [{ id: 0, migrated: true }] });
  assert.equal(migrate(migrated, 2, 'x.json', steps), migrated);
  assert.throws(() => migrate({ schemaVersion: 0, cells: [] }, 2, 'ancient.json', steps), /ancient\.json has schemaVersion 0, which this nodebench cannot migrate to 2/);
});

test('unfinished cells read "unfinished" with a sentence in report and diff, never undefined', async () => {
  const a = writeResultFile([okCell('a'), okCell('b')]);
  const b = writeResultFile([okCell('a'), okCell('b', 'pending')], { status: 'interrupted' });
  const report = await nodebench(['report', b]);
  assert.equal(report.exitCode, 0, report.stderr);
  assert.match(report.stdout, /^b\s+unfinished$/m);
  assert.match(report.stdout, /b on 16\.20\.2\/baseline: unfinished: the run was interrupted before this cell was measured; continue it with the command that started it \(matrix, run or exec\) plus --resume <file>/);
  const markdown = await nodebench(['report', b, '--format', 'markdown']);
  assert.match(markdown.stdout, /\| b \| unfinished: the run was interrupted/);
  const diff = await nodebench(['diff', a, b]);
  assert.match(diff.stdout, /s\/b\s+16\.20\.2\/baseline\s+\S+\s+unfinished .*ok -> unfinished \(the run was interrupted/);
  assert.match(diff.stdout, /1 cell\(s\) unfinished/);
  for (const run of [report, markdown, diff]) assert.doesNotMatch(run.stdout, /undefined/);
  const gate = await nodebench(['diff', a, b, '--fail-on-regression', '5']);
  assert.equal(gate.exitCode, 1);
  assert.match(gate.stderr, /s\/b: 16\.20\.2\/baseline unfinished in B/);
  assert.equal((await nodebench(['diff', a, b, '--fail-on-regression', '5', '--allow-missing'])).exitCode, 0);
});

test('diff options are checked before any file is read', async () => {
  for (const [args, message] of [
    [['--fail-on-regression', 'five'], /--fail-on-regression takes a percentage like 5, not "five"/],
    [['--fail-on-regression', '-3'], /--fail-on-regression takes a percentage like 5, not "-3"/],
    [['--drift', 'x'], /--drift takes a percentage like 1, or auto, not "x"/],
    [['--format', 'pdf'], /--format "pdf" is not known; use table, markdown, json, html/]
  ]) {
    const run = await nodebench(['diff', '/nonexistent-a.json', '/nonexistent-b.json', ...args]);
    assert.equal(run.exitCode, 2);
    assert.match(run.stderr, message);
  }
});

test('an unfinished cell of a nodebench run is told to continue it with its command plus --resume, as matrix cells are', async () => {
  const file = writeResultFile([okCell('a'), okCell('b', 'pending')], { status: 'interrupted' });
  const data = JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.writeFileSync(file, JSON.stringify({ ...data, nodebench: { version: '0.1.0', command: ['run', 'suite.js'] } }));
  const report = await nodebench(['report', file]);
  assert.equal(report.exitCode, 0, report.stderr);
  assert.match(report.stdout, /b on 16\.20\.2\/baseline: unfinished: the run was interrupted before this cell was measured; continue it with the command that started it \(matrix, run or exec\) plus --resume <file>/);
});
