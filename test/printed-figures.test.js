// Figures that mean something as printed (issue 39, item 7): a margin beyond ±100% ("±181%", "±685%")
// is "no estimate" with its reason under the table; a ratio's interval is printed as an interval
// ([low, high], not symmetric, never "±"); an undecided ratio whose interval leaves out 1x says why
// it is undecided. On test/fixtures/planted-result.json, whose "steady" cells have margins of 180%.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readPlanted } from './helpers/planted.js';
import { renderTables, markNotes } from '../cli/report/suite-tables.js';
import { renderMarkdown } from '../cli/report/markdown.js';
import { renderHtml } from '../cli/report/html.js';
import { diffSummaryLines } from '../cli/diff/rows.js';

const planted = readPlanted();

test('a margin over ±100% is "no estimate" with its reason, a ratio\'s interval is [low, high] in the terminal, Markdown and HTML tables', () => {
  const terminal = renderTables(planted, { width: 200 });
  assert.match(terminal, /^steady +210k \(no estimate\) \(base\) +210k \(no estimate\) 1\.00x\? \[0\.\d+x, \d\.\d+x\]$/m);
  assert.match(terminal, /^ {2}no estimate: 2 cells had a 95% margin over ±100% \(their processes disagreed too much/m);
  assert.match(terminal, /^quicker +48\.7k ±0\.3% \(base\) +926k ±0\.4% 19\.00x \[18\.\d\dx, 19\.\d\dx\]$/m);
  assert.match(terminal, /ratio to 24\.21\.0\/baseline \[95% interval\]/);
  for (const [what, text] of [['terminal', terminal], ['Markdown', renderMarkdown(planted)]]) {
    assert.doesNotMatch(text.replace(/over ±100%/g, ''), /±(\d{4,}|[1-9]\d\d)(\.\d)?%/, `${what}: a margin over 100% printed as a figure`);
    assert.doesNotMatch(text, /\dx[!=?]*\**[!=?]* ±/, `${what}: a ratio with a symmetric ±`);
  }
  assert.match(renderMarkdown(planted), /\| steady \| 210k \(no estimate\) \(base\) \| 210k \(no estimate\) 1\.00x\? \[0\.\d+x, \d\.\d+x\] \|/);
  const html = renderHtml(planted);
  assert.match(html, /<td data-v="181\.\d+">no estimate<\/td>/);
  assert.match(html, /the baseline, 210k ops\/s \(no estimate: margin over ±100%\)/);
  assert.match(html, /<td data-v="[\d.]+">18\.\d\dx, 19\.\d\dx\]<\/td>|<td data-v="[\d.]+">\[18\.\d\dx, 19\.\d\dx\]<\/td>/);
});

test('an undecided ratio whose interval leaves out 1x says why it is undecided, under the table and in diff', () => {
  const value = (ratio, low, high, verdict) => ({ status: 'ok', opsPerSec: 1, rme: 5, ratio, ratioVerdict: verdict, ratioComparison: { ratio, low, high } });
  const verdicts = { alpha: 0.05, comparisons: 112, method: 'Benjamini-Hochberg', equivalence: 0.02 };
  const table = {
    columns: [{ key: 'a/baseline' }, { key: 'b/baseline' }], baseline: { key: 'a/baseline' }, verdicts,
    rows: [{ benchmark: 'x', values: [{ status: 'ok', opsPerSec: 1, rme: 1 }, value(1.19, 1.02, 1.39, 'undecided')] },
      { benchmark: 'y', values: [{ status: 'ok', opsPerSec: 1, rme: 1 }, value(1.0, 0.8, 1.2, 'undecided')] }]
  };
  const notes = markNotes(table);
  assert.ok(notes.some((line) => line === '  ? with an interval that leaves out 1x (1 here): that interval is of the one ratio alone; a verdict must hold at a 5% false discovery rate over all 112 ratios, which it does not reach: measure with more processes to decide.'), notes.join('\n'));
  table.rows.pop();
  table.rows[0].values[1] = value(1.19, 1.02, 1.39, 'faster');
  assert.ok(!markNotes(table).some((line) => line.includes('leaves out 1x')), 'a decided ratio needs no word');
  // diff says it under its rows, as a count.
  const compared = [{ verdict: 'undecided', ratio: 1.19, ci: { low: 1.02, high: 1.39 } }, { verdict: 'undecided', ratio: 1.0, ci: { low: 0.8, high: 1.2 } }];
  const rows = Object.assign(compared.map((comparison) => ({ before: 'ok', after: 'ok', comparison })), { verdicts });
  assert.ok(diffSummaryLines(rows).includes('undecided with an interval that leaves out 1x (1 here): that interval is of the one ratio alone; a verdict must hold at a 5% false discovery rate over all 112 ratios, which it does not reach: measure with more processes to decide.'), diffSummaryLines(rows).join('\n'));
});
