// One output contract (cli/output/emit.js) for report, diff and history show: the same format names
// and aliases everywhere, --out writing what stdout would get, and $GITHUB_STEP_SUMMARY failures as
// one warning.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodebench } from './helpers/cli.js';
import { writeResultFile, okCell } from './helpers/result-file.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-contract-'));
const result = writeResultFile([okCell('a'), okCell('b')]);

test('text and md are table and markdown in every command; --out gets what stdout gets', { timeout: 120_000 }, async () => {
  const store = path.join(tmp, 'store');
  assert.equal((await nodebench(['history', 'add', result, '--store', store])).exitCode, 0);
  for (const command of [['report', result], ['diff', result, result], ['history', 'show', '--store', store]]) {
    const shown = {};
    for (const format of ['table', 'text', 'markdown', 'md']) {
      const run = await nodebench([...command, '--format', format], { stripFinalNewline: false });
      assert.equal(run.exitCode, 0, `${command[0]} --format ${format}: ${run.stderr}`);
      shown[format] = run.stdout;
    }
    assert.equal(shown.text, shown.table, command[0]);
    assert.equal(shown.md, shown.markdown, command[0]);
    assert.notEqual(shown.table, shown.markdown);
    const out = path.join(tmp, `${command[0]}.md`);
    const written = await nodebench([...command, '--format', 'markdown', '--out', out]);
    assert.equal(written.exitCode, 0, written.stderr);
    assert.equal(written.stdout, '');
    assert.equal(fs.readFileSync(out, 'utf8'), shown.markdown);
  }
});

// The summary is a courtesy: it never decides the exit code (a gate's verdict does).
test('a $GITHUB_STEP_SUMMARY that cannot be written is one warning; the command carries on', { timeout: 60_000 }, async () => {
  const folder = fs.mkdtempSync(path.join(tmp, 'summary-'));
  const run = await nodebench(['diff', result, result], { env: { GITHUB_STEP_SUMMARY: folder } });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.match(run.stderr, /^warning: the step summary was skipped \(\$GITHUB_STEP_SUMMARY\): .+ is a folder, not a regular file; point it at a file\.$/m);
  assert.doesNotMatch(run.stderr, /\n\s+at /);
});
