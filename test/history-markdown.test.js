// history show --format markdown (and the job summary of history check) with hostile names: every
// name goes through text/escape.js as in the other Markdown writers. A suite name cannot close the
// <details> it is the summary of, a backtick run cannot close the fence of the series tables, a
// bisect command cannot end its code span, a "|" or a newline cannot add a column or a row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { renderMarkdown } from '../cli/history/markdown.js';

const hostile = fc.constantFrom('</details>', '<b>', '<summary>', '```', '````', '`', '|', '\n', '\r\n', '\u001b[2J', '\\', '&lt;', '\u202e');
const name = fc.array(fc.oneof(fc.string({ maxLength: 4 }), hostile), { minLength: 1, maxLength: 4 }).map((parts) => `x${parts.join('')}`);

function analysisWith([suite, benchmark, flagSet, version, command, also]) {
  const point = (n, opsPerSec) => ({ x: n, name: `${version}${n}`, runtimes: [`${version}${n}`], status: 'ok', opsPerSec, low: opsPerSec * 0.9, high: opsPerSec * 1.1, runs: [{}] });
  const points = [point(1, 100), point(2, 50)];
  const change = { from: points[0], to: points[1], ratio: 0.5, low: 0.45, high: 0.55, p: 0.001, isNew: true, also: [also], bisect: { command, between: 3 } };
  return {
    by: 'version',
    entries: [{ createdAt: '2026-11-24T00:00:00Z' }],
    hosts: [],
    drift: { byHost: new Map() },
    search: { alpha: 0.05, tested: 1, selected: 1, level: 0.05 },
    series: [{ suite, benchmark, flagSet, line: null, params: '{}', host: 'h', points, changes: [change] }]
  };
}

// A GitHub table row read as GitHub reads it: cells split at every "|" not escaped as "\\|" (also
// inside a code span); outside code spans "\\" escapes the next punctuation; a code span opens
// with a run of backticks and closes at the next run of the same length, backslashes in it being
// literal. Returns the number of cells and the text outside code spans and escapes.
function readRow(line) {
  let cells = 0;
  let text = '';
  for (let at = 0; at < line.length;) {
    const c = line[at];
    if (c === '\\' && /[!-/:-@[-`{-~]/.test(line[at + 1] || '')) {
      at += 2;
    } else if (c === '|') {
      cells++;
      at++;
    } else if (c === '`') {
      const run = /^`+/.exec(line.slice(at))[0];
      const close = new RegExp(`(?<!\`)${run}(?!\`)`, 'g');
      close.lastIndex = at + run.length;
      const end = close.exec(line);
      if (!end) {
        // A run nothing closes is literal text.
        at += run.length;
        continue;
      }
      cells += (line.slice(at, end.index).match(/(?<!\\)\|/g) || []).length;
      at = end.index + run.length;
    } else {
      text += c;
      at++;
    }
  }
  return { cells: cells - 1, text };
}

const fenceOf = (line) => /^(`{3,})$/.exec(line)?.[1];

test('history Markdown: hostile names stay inside their cell, code span, fence and <summary>', () => {
  fc.assert(fc.property(fc.tuple(name, name, name, name, name, name), (names) => {
    const md = renderMarkdown(analysisWith(names), { store: 'store' });
    const lines = md.split('\n');
    // One <details> opened and closed by the writer, none by a name (inside the fence, text is text).
    const opens = lines.findIndex(fenceOf);
    const closes = lines.findLastIndex(fenceOf);
    // Table rows are checked below: there "<" is an entity (&lt;) or in a code span.
    const outside = [...lines.slice(0, opens), ...lines.slice(closes + 1)].filter((l) => !l.startsWith('|')).join('\n');
    assert.equal(lines.filter((l) => l.startsWith('<details>')).length, 1);
    assert.equal((outside.match(/<\/details>/g) || []).length, 1);
    assert.equal((outside.match(/<summary>/g) || []).length, 1);
    const summary = lines.find((l) => l.startsWith('<details><summary>'));
    assert.doesNotMatch(summary.slice('<details><summary>'.length, summary.lastIndexOf('</summary>')), /</);
    // The change table: a header, a rule and exactly one row of six cells.
    const table = lines.filter((l) => l.startsWith('|'));
    assert.equal(table.length, 3);
    const row = readRow(table[2]);
    assert.equal(row.cells, 6, table[2]);
    // Outside code spans, no "<" is left unescaped in a row.
    assert.doesNotMatch(row.text, /</, table[2]);
    // The fence around the series tables: opened and closed once with the same run, longer than any
    // backtick run inside.
    const fences = lines.map(fenceOf).filter(Boolean);
    assert.equal(fences.length, 2);
    assert.equal(fences[0], fences[1]);
    const inside = lines.slice(opens + 1, closes).join('\n');
    assert.ok(Math.max(0, ...(inside.match(/`+/g) || []).map((r) => r.length)) < fences[0].length);
    // The bisect command is one code span: its opening run is longer than any run inside it.
    const cell = table[2].split(' | ').at(-1);
    const open = /`+/.exec(cell.slice(cell.indexOf('`')))[0];
    assert.ok(cell.lastIndexOf(open) > cell.indexOf(open));
    // No control character reaches the document raw.
    // eslint-disable-next-line no-control-regex -- finding them is the point
    assert.doesNotMatch(md.replace(/\n/g, ''), /[\u0000-\u001f\u007f-\u009f\u202e]/);
  }), { numRuns: 200 });
});
