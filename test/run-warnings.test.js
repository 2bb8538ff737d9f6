// A run's warnings about its machine (the load average at its start and end, the CPU governor) are
// kept in its result file; every report and diff of that file says them again, since they qualify
// every figure in it and whoever reads the file later never saw the run's stderr. On
// test/fixtures/planted-result.json, a real run whose host was loaded at both ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, nodebench } from './helpers/cli.js';

const fixture = path.join(root, 'test', 'fixtures', 'planted-result.json');
const planted = JSON.parse(fs.readFileSync(fixture, 'utf8'));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-run-warnings-'));
const START = 'the load average at the start was 1.16 (1 min) on 2 cores';
const END = 'the load average at the end was 2.15 (1 min) on 2 cores';
const literal = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

// A copy whose governor warning carries escape codes, as a hostile /sys or a hand-edited file might.
const hostile = path.join(tmp, 'hostile.json');
fs.writeFileSync(hostile, JSON.stringify({ ...planted, warnings: [...planted.warnings, { code: 'governor', message: 'the CPU frequency governor is "\u001b]0;owned\u0007<b>x</b>", not "performance"' }] }));
const quiet = path.join(tmp, 'quiet.json');
fs.writeFileSync(quiet, JSON.stringify({ ...planted, warnings: [] }));

test('report says the run\'s warnings in every format but CSV, escaped for each', async () => {
  const table = await nodebench(['report', hostile, '--no-color']);
  assert.equal(table.exitCode, 0, table.stderr);
  assert.match(table.stdout, new RegExp(`\\nwarning: ${literal(START)}[^\\n]*\\nwarning: ${literal(END)}[^\\n]*\\nwarning: the CPU frequency governor is "\\\\x1b\\]0;owned\\\\x07<b>x</b>", not "performance"\\n$`));
  const markdown = await nodebench(['report', hostile, '--format', 'markdown']);
  assert.equal(markdown.exitCode, 0, markdown.stderr);
  assert.ok(markdown.stdout.includes(`\nwarning: ${START}`));
  // As every name in the Markdown report: backslashes doubled, "<" an entity
  // (GitHub shows \x1b and <b>, and so does a renderer that knows no backslash escape for "<").
  assert.ok(markdown.stdout.includes('warning: the CPU frequency governor is "\\\\x1b]0;owned\\\\x07&lt;b>x&lt;/b>", not "performance"  \n'));
  const html = await nodebench(['report', hostile, '--format', 'html']);
  assert.equal(html.exitCode, 0, html.stderr);
  const overview = html.stdout.slice(html.stdout.indexOf('<section id="overview">'));
  // After the cells' warnings counted (render/run-warnings.js reportWarningLines).
  assert.match(overview, new RegExp(`^<section id="overview">.*<div class="run-warning">(<p>warning: \\d+ cells? [^<]*</p>)+<p>warning: ${literal(START)}`, 's'));
  assert.match(overview, /governor is &quot;\\x1b\]0;owned\\x07&lt;b&gt;x&lt;\/b&gt;&quot;/);
  for (const out of [table.stdout, markdown.stdout, html.stdout]) assert.ok(!out.includes('\u001b]0;owned'), 'a raw escape sequence reached the output');
  const quietReport = await nodebench(['report', quiet, '--no-color']);
  assert.doesNotMatch(quietReport.stdout, /warning:/);
  // Its cells' warnings are still said; nothing of the machine's.
  assert.doesNotMatch((await nodebench(['report', quiet, '--format', 'html'])).stdout, /class="run-warning">(<p>warning: \d+ cells? [^<]*<\/p>)*<p>warning: the/);
});

test('diff says each side\'s warnings under its file, and one file\'s once', async () => {
  const two = await nodebench(['diff', quiet, fixture, '--no-color']);
  assert.equal(two.exitCode, 0, two.stderr);
  assert.ok(two.stdout.includes(`\nwarning (B, ${fixture}): ${START}`));
  assert.doesNotMatch(two.stdout, /warning \(A,/);
  const json = JSON.parse((await nodebench(['diff', fixture, quiet, '--format', 'json'])).stdout);
  assert.equal(json.runWarnings.length, 2);
  assert.match(json.runWarnings[0], /^warning \(A, .*planted-result\.json\): the load average at the start/);
  const one = await nodebench(['diff', fixture, '--from', '24.21.0/baseline', '--to', `24.21.0/${planted.flagSets[1].name}`, '--format', 'markdown']);
  assert.equal(one.exitCode, 0, one.stderr);
  assert.equal(one.stdout.split(`warning: ${START}`).length, 2, 'said once');
  const page = await nodebench(['diff', fixture, quiet, '--format', 'html']);
  assert.equal(page.stdout.split(`warning (A, ${fixture}): ${START}`).length, 2, 'said once, in the overview');
});
