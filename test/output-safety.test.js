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
import { nodebench, root } from './helpers/cli.js';
import { resultObject, okCell, runtimeRecord } from './helpers/result-file.js';
import { schemaErrors } from './helpers/schema.js';

// chalk decides its colour level when it is first imported: forced on before any module of
// nodebench loads it, so that the coloured tables are tested with real colour codes around the names.
process.env.FORCE_COLOR = '1';
const { renderTerminal } = await import('../cli/report/table.js');
const { renderCsv } = await import('../cli/report/csv.js');
const { renderMarkdown } = await import('../cli/report/markdown.js');
const { DIFF_HEADER } = await import('../cli/diff/rows.js');
const { renderDiffMarkdown } = await import('../cli/diff/markdown.js');
const { renderDiffPage } = await import('../cli/diff/html.js');
const { renderHtml } = await import('../cli/report/html.js');
const { pairCells, diffResults } = await import('../cli/diff/compare.js');
const { renderDiffTable: renderDiff } = await import('../cli/diff/table.js');
const { createProgress } = await import('../cli/progress.js');
const { terminalText } = await import('../cli/text/escape.js');
const { parseResult } = await import('../cli/results/read.js');
const { REPORT_FORMATS } = await import('../cli/report/formats.js');
const { DIFF_FORMATS } = await import('../cli/diff/formats.js');

const runs = Number(process.env.FUZZ_RUNS || 40);
// Anything a terminal would act on: C0 but newline, DEL, C1, line separators, bidi controls.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex -- nodebench's own colour codes
const SGR = /\u001b\[[0-9;]*m/g;

// Names: arbitrary code points, weighted towards the ones that do harm.
const hostile = fc.constantFrom('\u001b]0;owned\u0007', '\u001b[2J', '\u009b31m', '\u202e', '|', '\n', '\r\n', '\\', '`', '```', '<details>', '</details>', '=1+1', '-2', '+x', '@SUM(A1)', '\t', '"', ',',
  // Markup a Markdown or HTML reader would act on (issue 40: a run warning reached Markdown as a tag).
  '<img src=x onerror=alert(1)>', '<script>alert(1)</script>', '</summary>', '<sub>', '<!--', '<http://e.example/x>', '[x](javascript:alert(1))', '![p](http://e.example/p.png)', '&lt;b&gt;', '\\<b>',
  // Emphasis: a name such as __proto__ shows as it is, neither bold nor struck through.
  '**', '__proto__', '*', '_', '~~');
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

// Command-line flags and nothing else: no function call, no DDE pipe (render/csv-field.js writes them
// without the apostrophe, issue 39 item 8).
const flagsOnly = (text) => /^--?[A-Za-z_][\w.-]*(?:=[\w.,:/+-]*)?(?: --?[A-Za-z_][\w.-]*(?:=[\w.,:/+-]*)?)*$/.test(text);

test('CSV: flags are written as they are, a flag-looking formula is not', () => {
  const result = resultObject([{ ...okCell('a'), flags: ['--max-semi-space-size=64', '--no-opt'] }, { ...okCell('b'), flags: ['--x=cmd|\' /C calc\'!A0'] }, { ...okCell('c'), flags: ['--x=HYPERLINK("http://e.example")'] }]);
  const rows = parseCsv(renderCsv(result), { columns: true });
  assert.deepEqual(rows.map((r) => r.flags), ['--max-semi-space-size=64 --no-opt', '\'--x=cmd|\' /C calc\'!A0', '\'--x=HYPERLINK("http://e.example")']);
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
      return /^[=+\-@\t\r]/.test(text) && !flagsOnly(text) ? `'${text}` : text;
    };
    assert.equal(field(ok, 'suite'), neutral(n[0]));
    assert.equal(field(ok, 'v8'), neutral(`${n[3]}\u001b[2J`));
    assert.equal(field(ok, 'flags'), neutral(`${n[4]} --x=\u009b31m`));
    assert.equal(field(ok, 'benchmark'), neutral(n[1]));
    assert.equal(field(failed, 'benchmark'), neutral(n[2]));
    assert.equal(field(ok, 'flagSet'), neutral(n[4]));
    assert.equal(field(failed, 'error'), neutral(n[5]));
    for (const row of rows) for (const value of row) assert.ok(!/^[=+\-@\t\r]/.test(value) || /^-?\d/.test(value) || (flagsOnly(value) && !/[(|!"']/.test(value)), `${JSON.stringify(value)} reads as a formula`);
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

// A real result (test/fixtures/planted-result.json) with what a crafted file adds: a failed cell, a
// timed-out one with its hang and a process that held its output, and run warnings. Every string of
// it is a place a downloaded file can put text.
function craftedBase() {
  const base = JSON.parse(fs.readFileSync(path.join(root, 'test', 'fixtures', 'planted-result.json'), 'utf8'));
  const template = base.cells[0];
  const extra = (benchmark, status, more) => ({ ...template, id: base.cells.length, benchmark, status, processes: [], summary: undefined, metrics: undefined, warnings: [{ code: 'note', message: `${benchmark} warned` }], ...more });
  base.suites[0].benchmarks.push({ name: 'broken', description: 'fails' }, { name: 'hung', description: 'hangs' });
  base.cells.push(extra('broken', 'failed', { error: 'threw during setup: boom' }));
  base.cells.push(extra('hung', 'timeout', { error: 'did not finish within 5 s', hangs: [{ round: 1, error: 'hung in round 1' }], holders: [{ pid: 4242, name: 'daemon' }] }));
  base.warnings.push({ code: 'load', message: '<img src=x onerror=alert(1)> load' });
  base.host.cpuGovernor = 'powersave';
  return JSON.parse(JSON.stringify(base));
}

const classOf = (where) => where.replace(/\.\d+(?=\.|$)/g, '[]');
function stringLeaves(node, where = '', out = []) {
  if (typeof node === 'string') out.push(where);
  else if (Array.isArray(node)) node.forEach((x, i) => stringLeaves(x, `${where}.${i}`, out));
  else if (node && typeof node === 'object') for (const key of Object.keys(node)) stringLeaves(node[key], `${where}.${key}`, out);
  return out;
}
function updateAt(object, where, change) {
  const keys = where.slice(1).split('.');
  const parent = keys.slice(0, -1).reduce((o, key) => o[key], object);
  parent[keys.at(-1)] = change(parent[keys.at(-1)]);
}

// Every kind of string field the schema lets a file fill with anything (enums, dates, hashes and
// version patterns excepted), found by trying: a field added to the schema later is covered too.
const crafted = craftedBase();
assert.deepEqual(schemaErrors(crafted), []);
const freeFields = [...new Set(stringLeaves(crafted).map(classOf))].filter((field) => {
  const copy = structuredClone(crafted);
  for (const where of stringLeaves(copy).filter((w) => classOf(w) === field)) updateAt(copy, where, (v) => `${v}<b>|`);
  return schemaErrors(copy).length === 0;
});

// The crafted result with each distinct string of a free field followed by hostile text: one value
// gets one text wherever it is, so that a cell still names its runtime, flag set and suite.
function hostileCopy(suffixes) {
  const copy = structuredClone(crafted);
  const given = new Map();
  for (const where of stringLeaves(copy).filter((w) => freeFields.includes(classOf(w)))) {
    updateAt(copy, where, (value) => {
      if (!given.has(value)) given.set(value, `${value}${suffixes[given.size % suffixes.length]}#${given.size}`);
      return given.get(value);
    });
  }
  return parseResult(JSON.stringify(copy), 'crafted.json');
}

// Markdown a reader's renderer could turn into markup: a "<" that opens a tag, a comment, a
// declaration or an autolink anywhere but nodebench's own tags. A backslash before it is not
// enough: only CommonMark renderers take "\\<" as a literal "<".
const OWN_MARKDOWN_TAGS = /<\/?(?:details|summary|sub)>/g;
const MARKUP_OPENER = /<[A-Za-z/!?]/;
// What marked (GitHub-flavoured) makes of nodebench's Markdown; anything else came from a string.
const MARKDOWN_HTML_TAGS = new Set(['h2', 'h3', 'h4', 'p', 'br', 'strong', 'em', 'del', 'code', 'pre', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'details', 'summary', 'sub', 'ul', 'ol', 'li', 'hr', 'blockquote', 'a']);
// Entities decoded until none is left (marked escapes an autolink's text and its href differently).
function decoded(text) {
  const once = text.replace(/&(lt|gt|quot|amp|#39);/g, (_, name) => ({ lt: '<', gt: '>', quot: '"', amp: '&', '#39': "'" })[name]);
  return once === text ? text : decoded(once);
}
function percentDecoded(text) {
  try {
    return decodeURI(text);
  } catch {
    return text;
  }
}
function assertInertMarkdown(markdown, what) {
  assert.doesNotMatch(markdown, RAW_CONTROL, what);
  // Code spans and fenced blocks show their text as it is in every renderer.
  let outside = markdown;
  marked.walkTokens(marked.lexer(markdown), (token) => {
    if (token.type === 'codespan' || token.type === 'code') outside = outside.replace(token.raw, '');
  });
  outside = outside.replace(OWN_MARKDOWN_TAGS, '');
  assert.doesNotMatch(outside, MARKUP_OPENER, `${what}: ${outside.match(new RegExp(`.{0,40}${MARKUP_OPENER.source}.{0,40}`))?.[0]}`);
  const html = marked.parse(markdown);
  for (const [tag, name, attributes] of html.matchAll(/<([a-zA-Z][\w-]*)([^>]*)>/g)) {
    assert.ok(MARKDOWN_HTML_TAGS.has(name.toLowerCase()), `${what}: ${tag}`);
    // An autolink shows where it goes; a link or an image with text of its own is a string's markup.
    const href = /^ href="([^"]*)"$/.exec(attributes);
    assert.ok(attributes === '' || /^ align="(?:left|right|center)"$/.test(attributes) || (name === 'a' && href), `${what}: ${tag}`);
    if (href) assert.match(href[1], /^(?:https?:|mailto:)/, `${what}: ${tag}`);
  }
  // A GitHub-flavoured autolink (text that is a URL) shows its host; a link whose text is not its
  // own URL came from a string's [text](url).
  // marked percent-encodes an href's characters and not its text's: a name cut for display
  // (text/format.js displayName) puts "…" inside a URL it held, e.exa…le in the text, e.exa%E2%80%A6le
  // in the href, the same host.
  const host = (url) => /^(?:https?:\/\/|mailto:)?([^/?#\\%]*)/.exec(percentDecoded(decoded(url)))[1];
  for (const [, href, text] of html.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)) assert.equal(host(href), host(text), `${what}: a link whose text hides where it goes`);
}

// Tags by name in an HTML page, but those a name's length decides (a long name is cut into a
// <span> with its whole text as the title, and gets <wbr> break points): a string of the file adds
// none, and no tag outside the scripts has an event handler or a javascript: URL.
const tagCounts = (page) => {
  const counts = {};
  const markup = page.replace(/(<script[^>]*>)[\s\S]*?(<\/script>)/g, '$1$2');
  for (const [tag, name, attributes] of markup.matchAll(/<([a-zA-Z][\w-]*)([^>]*)>/g)) {
    for (const [, attribute, value = ''] of attributes.matchAll(/([^\s=]+)(?:="([^"]*)")?/g)) {
      assert.doesNotMatch(attribute, /^on/i, tag);
      assert.doesNotMatch(value, /^\s*javascript:/i, tag);
    }
    if (name !== 'span' && name !== 'wbr') counts[name.toLowerCase()] = (counts[name.toLowerCase()] || 0) + 1;
  }
  return counts;
};

// Every format a result file reaches, for report and for diff (of the file against itself, with a
// gate that failed and a confirmation, whose lines carry names too).
function renderAll(result) {
  const out = {};
  // json is the result document itself, its strings as the file has them (as diff's json, below).
  for (const [format, render] of Object.entries(REPORT_FORMATS)) {
    if (format !== 'json') out[`report ${format}`] = render(result, { verbose: true, distribution: true, metrics: true, file: 'crafted.json' });
  }
  out['report summary'] = REPORT_FORMATS.table(result, { summary: true });
  out['report table colour'] = REPORT_FORMATS.table(result, { verbose: true, metrics: true, color: true });
  const rows = diffResults(pairCells(result, result, { fileA: 'a.json', fileB: 'b.json' }), { driftCv: 0.01 });
  const labelled = rows.filter((r) => r.comparison);
  const context = {
    fileA: 'a.json', fileB: 'b.json', resultA: result, resultB: result, limit: 5,
    failures: labelled.slice(0, 1).map((r) => ({ label: r.label, columns: [{ column: r.column, problem: 'slower by 9%' }] })),
    gate: { confirm: { lines: labelled.slice(0, 2).map((r) => `  ${r.label} ${r.column}: first 0.9x, confirmed slower`) } }
  };
  for (const [format, render] of Object.entries(DIFF_FORMATS)) {
    if (format !== 'json') out[`diff ${format}`] = render({ rows, context }, {});
  }
  out['diff table colour'] = DIFF_FORMATS.table({ rows, context }, { color: true });
  return out;
}

// nodebench's own bold (a decided ratio, a headline) and nothing a name adds.
const emphasis = (markdown) => ['strong', 'em', 'del'].map((tag) => (marked.parse(markdown).match(new RegExp(`<${tag}>`, 'g')) || []).length).join(' ');
const markdownTables = (markdown) => marked.lexer(markdown).filter((t) => t.type === 'table').map((t) => `${t.header.length}x${t.rows.length}`);
const plainOutputs = renderAll(parseResult(JSON.stringify(crafted), 'crafted.json'));

test('every string a result file carries (names, warnings, errors, runtime labels, flags, host fields) is inert in every format of report and diff', () => {
  assert.ok(freeFields.length > 40, `only ${freeFields.length} free string fields found`);
  for (const field of ['.warnings[].message', '.cells[].error', '.cells[].benchmark', '.runtimes[].label', '.cells[].flags[]', '.flagSets[].name', '.host.hostname', '.host.cpuModel', '.cells[].hangs[].error', '.cells[].holders[].name', '.cells[].warnings[].message']) {
    assert.ok(freeFields.includes(field), `${field} is not among the fields filled`);
  }
  fc.assert(fc.property(fc.array(name, { minLength: 1, maxLength: 8 }), (suffixes) => {
    const outputs = renderAll(hostileCopy(suffixes));
    for (const [what, text] of Object.entries(outputs)) {
      if (/table|summary/.test(what)) {
        // A terminal: no control character but a newline, and with colour only nodebench's own.
        const plain = text.replace(SGR, '');
        assert.doesNotMatch(plain, RAW_CONTROL, `${what}: ${plain.match(new RegExp(`.{0,40}${RAW_CONTROL.source}.{0,40}`))?.[0]}`);
        assert.ok(!plain.includes('\u001b'), what);
      } else if (/markdown/.test(what)) {
        assertInertMarkdown(text, what);
        assert.deepEqual(markdownTables(text), markdownTables(plainOutputs[what]), `${what}: a string changed a table`);
        assert.deepEqual(emphasis(text), emphasis(plainOutputs[what]), `${what}: a string added emphasis`);
        const lines = text.split('\n');
        assert.equal(lines.filter((l) => l === '</details>').length, lines.filter((l) => l === '<details>').length, what);
      } else if (/html/.test(what)) {
        assert.doesNotMatch(text, RAW_CONTROL, what);
        assert.deepEqual(tagCounts(text), tagCounts(plainOutputs[what]), `${what}: a string added markup`);
      } else {
        assert.doesNotMatch(text.replace(/\n/g, ''), RAW_CONTROL, what);
      }
    }
  }), { numRuns: runs });
});

test('report, diff and the job summary of a downloaded result whose run warning is a tag show it as text', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-warning-tag-'));
  const file = path.join(dir, 'r.json');
  const result = structuredClone(crafted);
  result.warnings = [{ code: 'load', message: '<img src=x onerror=alert(1)> load' }];
  fs.writeFileSync(file, JSON.stringify(result));
  const summary = path.join(dir, 'summary.md');
  for (const args of [['report', file, '--format', 'markdown'], ['diff', file, file, '--format', 'markdown']]) {
    const run = await nodebench(args, { env: { GITHUB_STEP_SUMMARY: summary } });
    assert.equal(run.exitCode, 0, run.stderr);
    assert.match(run.stdout, /warning.*&lt;img src=x onerror=alert\(1\)> load/);
    assertInertMarkdown(run.stdout, args.join(' '));
  }
  if (fs.existsSync(summary)) assertInertMarkdown(fs.readFileSync(summary, 'utf8'), 'the job summary');
  const page = await nodebench(['report', file, '--format', 'html']);
  assert.match(page.stdout, /warning: &lt;img src=x onerror=alert\(1\)&gt; load/);
});
