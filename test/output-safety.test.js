// Output that cannot be turned against its reader: names (benchmark, flag set, suite, runtime label)
// and errors from a result file are shown with their control characters escaped on a terminal (with
// colour or without), can never become a spreadsheet formula in CSV, and can never add a column or
// a row to a Markdown table. Arbitrary strings through every writer (fast-check; FUZZ_RUNS as in
// fuzz.test.js), and a real run of a suite whose names and errors are hostile.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { parse as parseCsv } from 'csv-parse/sync';
import { marked } from 'marked';
import { nodebench } from './helpers/cli.js';
import { resultObject, okCell, runtimeRecord } from './helpers/result-file.js';

// chalk decides its colour level when it is first imported: forced on before any module of
// nodebench loads it, so that the coloured tables are tested with real colour codes around the names.
process.env.FORCE_COLOR = '1';
const { renderTerminal } = await import('../cli/report/terminal.js');
const { renderCsv } = await import('../cli/report/csv.js');
const { renderMarkdown } = await import('../cli/report/markdown.js');
const { renderDiffMarkdown, renderDiffPage, DIFF_HEADER } = await import('../cli/diff/render.js');
const { renderHtml } = await import('../cli/report/html.js');
const { pairCells, diffResults } = await import('../cli/diff/compare.js');
const { renderDiffTable: renderDiff } = await import('../cli/diff/formats.js');
const { createProgress } = await import('../cli/progress.js');
const { terminalText } = await import('../cli/text/escape.js');

const runs = Number(process.env.FUZZ_RUNS || 40);
// Anything a terminal would act on: C0 but newline, DEL, C1, line separators, bidi controls.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex -- nodebench's own colour codes
const SGR = /\u001b\[[0-9;]*m/g;

// Names: arbitrary code points, weighted towards the ones that do harm.
const hostile = fc.constantFrom('\u001b]0;owned\u0007', '\u001b[2J', '\u009b31m', '\u202e', '|', '\n', '\r\n', '\\', '`', '```', '<details>', '</details>', '=1+1', '-2', '+x', '@SUM(A1)', '\t', '"', ',');
const name = fc.array(fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), hostile), { minLength: 1, maxLength: 4 }).map((parts) => parts.join(''));
const names = (n) => fc.uniqueArray(name, { minLength: n, maxLength: n });

function hostileResult([suite, benchmarkA, benchmarkB, label, flagSet, error]) {
  const cell = (benchmark, status = 'ok') => ({ ...okCell(benchmark, status, { suite, runtimeLabel: label, flagSet, opsPerSec: 1e7 }), ...(status === 'failed' ? { error } : {}) });
  return resultObject([cell(benchmarkA), cell(benchmarkB, 'failed')], {
    runtimes: [runtimeRecord(label, '16.20.2')]
  });
}
const withFlagSet = (result, flagSet) => ({ ...result, flagSets: [{ name: flagSet, flags: [] }], suites: [{ ...result.suites[0], name: result.cells[0].suite }] });

test('the terminal tables show every control character of a name or an error escaped, with colour or without', () => {
  fc.assert(fc.property(names(6), (n) => {
    const result = withFlagSet(hostileResult(n), n[4]);
    const plain = renderTerminal(result, { color: false, verbose: true });
    assert.doesNotMatch(plain, RAW_CONTROL);
    assert.ok(!plain.includes('\u001b'));
    const coloured = renderTerminal(result, { color: true, verbose: true });
    assert.ok(coloured.includes('\u001b[31m'), 'colour codes are there (FAILED in red)');
    // Every escape sequence in the coloured output is one of nodebench's own colour codes.
    assert.equal(coloured.replace(SGR, ''), plain);
    // Each benchmark is one row: a newline in a name cannot start another.
    const rows = plain.split('\n').filter((line) => line.startsWith(terminalText(n[1])) || line.startsWith(terminalText(n[2])));
    assert.ok(rows.length >= 2);
  }), { numRuns: runs * 5 });
});

test('the progress line and its plain lines escape names and errors', () => {
  fc.assert(fc.property(names(4), fc.boolean(), (n, live) => {
    let written = '';
    const stream = { isTTY: live, columns: 200, write: (text) => { written += text; } };
    const progress = createProgress({ stream, live });
    const cell = { runtimeLabel: n[0], flagSet: n[1], suite: n[2], benchmark: n[3] };
    progress.update({ done: 1, total: 1, cell, outcome: { status: 'failed', error: n[3] } });
    progress.log(`warning: ${n[2]}`);
    progress.done();
    // The live line moves back with \r, which nodebench writes itself; nothing else gets through.
    assert.doesNotMatch(written.replace(/\r/g, ''), RAW_CONTROL);
  }), { numRuns: runs * 5 });
});

test('CSV: a name comes back with its control characters escaped, a formula-looking one prefixed with \', numbers stay numbers', () => {
  fc.assert(fc.property(names(6), (n) => {
    const result = withFlagSet(hostileResult(n), n[4]);
    // The runtime's V8 version and the flags are text from the file too.
    result.runtimes[0].v8 = `${n[3]}\u001b[2J`;
    result.cells[0].flags = [n[4], '--x=\u009b31m'];
    const csv = renderCsv(result);
    assert.doesNotMatch(csv.replace(/\n/g, ''), RAW_CONTROL);
    const rows = parseCsv(csv, { relax_column_count: false });
    assert.equal(rows.length, 3, 'a header and one row per cell');
    const [header, ok, failed] = rows;
    const field = (row, column) => row[header.indexOf(column)];
    const neutral = (raw) => {
      const text = terminalText(raw);
      return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
    };
    assert.equal(field(ok, 'suite'), neutral(n[0]));
    assert.equal(field(ok, 'v8'), neutral(`${n[3]}\u001b[2J`));
    assert.equal(field(ok, 'flags'), neutral(`${n[4]} --x=\u009b31m`));
    assert.equal(field(ok, 'benchmark'), neutral(n[1]));
    assert.equal(field(failed, 'benchmark'), neutral(n[2]));
    assert.equal(field(ok, 'flagSet'), neutral(n[4]));
    assert.equal(field(failed, 'error'), neutral(n[5]));
    for (const row of rows) for (const value of row) assert.ok(!/^[=+\-@\t\r]/.test(value) || /^-?\d/.test(value), `${JSON.stringify(value)} reads as a formula`);
    assert.equal(field(ok, 'opsPerSec'), '10000000');
  }), { numRuns: runs * 5 });
  // A negative figure is a number, not a neutralised text.
  const negative = renderCsv(resultObject([{ ...okCell('a'), metrics: { cpuNsPerOp: -1.5 } }]));
  assert.equal(parseCsv(negative)[1][parseCsv(negative)[0].indexOf('cpuNsPerOp')], '-1.5');
});

test('HTML: the report page and the diff page show every control character of a name escaped, and markup as text', () => {
  fc.assert(fc.property(names(6), (n) => {
    const result = withFlagSet(hostileResult(n), n[4]);
    const rows = diffResults(pairCells(result, result, { fileA: n[0], fileB: n[3] }), { driftCv: 0.01 });
    const pages = [renderHtml(result), renderDiffPage(rows, { fileA: n[0], fileB: n[3], resultA: result, resultB: result, failures: null })];
    for (const page of pages) {
      assert.doesNotMatch(page, RAW_CONTROL);
      // One page: a name cannot close an element or the data script.
      assert.equal(page.match(/<\/script>/g).length, 4);
      assert.equal(page.match(/<\/html>/g).length, 1);
    }
  }), { numRuns: runs });
});

// The tables marked finds in a Markdown text, as [columns, rows].
const tablesOf = (markdown) => marked.lexer(markdown).filter((t) => t.type === 'table').map((t) => [t.header.length, t.rows.length]);

test('Markdown: a name never adds a column or a row, in report and in diff', () => {
  fc.assert(fc.property(names(6), (n) => {
    const result = withFlagSet(hostileResult(n), n[4]);
    const report = renderMarkdown(result);
    // The overview table and the folded full table, each a benchmark column and the one column.
    assert.deepEqual(tablesOf(report), [[2, 2], [2, 2]]);
    assert.equal(marked.lexer(report).filter((t) => t.type === 'heading' && t.depth === 3).length, 2, 'Overview and the suite\'s full table');
    assert.equal(marked.lexer(report).filter((t) => t.type === 'heading' && t.depth === 4).length, 1, 'the suite\'s overview');
    const rows = diffResults(pairCells(result, result, { fileA: n[0], fileB: n[3] }), { driftCv: 0.01 });
    const diff = renderDiffMarkdown(rows, { fileA: n[0], fileB: n[3], resultA: result, resultB: result, failures: [], limit: 5 });
    // The compared rows (in one or two tables) and the environment table of A and B.
    const tables = tablesOf(diff);
    assert.equal(tables.length >= 2 && tables.length <= 3, true, diff);
    assert.ok(tables.every(([columns]) => columns === DIFF_HEADER.length || columns === 3));
    assert.equal(tables.filter(([columns]) => columns === DIFF_HEADER.length).reduce((sum, [, r]) => sum + r, 0), 2);
    assert.deepEqual(tables.at(-1), [3, 7]);
    // The folded sections still close: a "</details>" in a name is text.
    const lines = diff.split('\n');
    assert.equal(lines.filter((line) => line === '</details>').length, lines.filter((line) => line === '<details>').length);
    assert.doesNotMatch(renderDiff(rows), RAW_CONTROL);
  }), { numRuns: runs * 5 });
});

test('a suite with hostile names and a hostile error: no raw control character reaches the terminal from run, report or diff', { timeout: 180_000 }, async () => {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-hostile-')), 'r.json');
  const run = await nodebench(['run', 'test/fixtures/suites/hostile-names/index.js', '--quick', '--out', out], { env: { CI: '1' } });
  assert.equal(run.exitCode, 1, run.stderr);
  for (const text of [run.stdout, run.stderr]) assert.doesNotMatch(text, RAW_CONTROL);
  assert.match(run.stdout, /hostile\\x1b\]0;owned\\x07/);
  assert.match(run.stdout, /thrown \\x1b\[2J\\x1b\]0;title\\x07 with a newline\\nand more/);
  for (const args of [['report', out, '--warnings', '--distribution'], ['report', out, '--format', 'markdown'], ['diff', out, out], ['report', `${out}\u001b[2J`],
    // issue 32 F: CSV fields (names, flag sets, the v8 field) and diff's HTML page on stdout.
    ['report', out, '--format', 'csv'], ['diff', out, out, '--format', 'html'], ['report', out, '--format', 'html']]) {
    const shown = await nodebench(args);
    assert.ok([0, 2].includes(shown.exitCode), shown.stderr);
    for (const text of [shown.stdout, shown.stderr]) assert.doesNotMatch(text, RAW_CONTROL, args.join(' '));
  }
  const csv = await nodebench(['report', out, '--format', 'csv']);
  const benchmarks = parseCsv(csv.stdout, { columns: true }).map((row) => row.benchmark);
  assert.ok(benchmarks.includes('\'=cmd|\' /C calc\'!A0'), benchmarks.join(', '));
});
