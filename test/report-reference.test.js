// What a ratio is against (cli/results/grid.js referenceColumn): a flag set's column against the
// same runtime under the baseline's flag set, every other column against the baseline. Built from
// test/fixtures/planted-result.json (one runtime, two flag sets, a real run) plus a copy of its
// cells as a second runtime taking twice the time per operation: the second runtime's flag-set
// ratios must equal the first's (the flag does the same there), not be halved by the upgrade.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { root } from './helpers/cli.js';
import { grid } from '../cli/results/grid.js';
import { renderTerminal, renderChanges } from '../cli/report/table.js';
import { renderMarkdown } from '../cli/report/markdown.js';
import { reportOverview } from '../cli/render/overview.js';

const planted = JSON.parse(fs.readFileSync(path.join(root, 'test', 'fixtures', 'planted-result.json'), 'utf8'));
const FLAG = planted.flagSets[1].name;
const twiceAsSlow = (cell) => ({
  ...cell,
  id: cell.id + 1000,
  runtime: '22.0.0',
  runtimeLabel: 'other',
  summary: { ...cell.summary, opsPerSec: cell.summary.opsPerSec / 2 },
  processes: cell.processes.map((p) => ({ ...p, samplesNsPerOp: p.samplesNsPerOp.map((ns) => ns * 2) }))
});
const twoRuntimes = {
  ...planted,
  runtimes: [...planted.runtimes, { ...planted.runtimes[0], label: 'other', version: '22.0.0' }],
  cells: [...planted.cells, ...planted.cells.map(twiceAsSlow)]
};

test('a flag set\'s column is against its own runtime; a runtime\'s baseline column against the baseline', () => {
  const [table] = grid(twoRuntimes);
  const keys = table.columns.map((c) => c.key);
  assert.deepEqual(table.references.map((c) => c.key), ['24.21.0/baseline', '24.21.0/baseline', '24.21.0/baseline', 'other/baseline']);
  const at = (row, key) => row.values[keys.indexOf(key)];
  for (const row of table.rows) {
    assert.ok(Math.abs(at(row, 'other/baseline').ratio - 0.5) < 1e-9, `${row.benchmark}: the upgrade halves the rate`);
    assert.ok(Math.abs(at(row, `other/${FLAG}`).ratio / at(row, `24.21.0/${FLAG}`).ratio - 1) < 1e-9, `${row.benchmark}: the flag's effect, not the upgrade's`);
    assert.equal(at(row, `other/${FLAG}`).against, 'other/baseline');
  }
  // An explicit --baseline moves the flag sets' references with it.
  const [fromOther] = grid(twoRuntimes, { baseline: 'other/baseline' });
  assert.deepEqual(fromOther.references.map((c) => c.key), ['other/baseline', '24.21.0/baseline', 'other/baseline', 'other/baseline']);
});

test('every format says what the ratios are against', () => {
  const overview = reportOverview(twoRuntimes);
  const flagChange = overview.changes.find((c) => c.column === `other/${FLAG}`);
  assert.equal(flagChange.against, 'other/baseline');
  assert.ok(!overview.changes.some((c) => c.column === 'other/baseline' && c.against), 'against the baseline needs no mention');
  const note = "a flag set's column against the same runtime's baseline column";
  const changes = renderChanges(twoRuntimes);
  assert.ok(changes.startsWith(`What changed against 24.21.0/baseline; ${note}:`), changes);
  assert.match(changes, new RegExp(`planted/\\S+\\s+other/${FLAG} vs other/baseline\\n`));
  assert.ok(renderTerminal(twoRuntimes).includes(`ratio to 24.21.0/baseline [95% interval]; ${note})`));
  assert.ok(renderMarkdown(twoRuntimes).includes(`Ratios of ops/s to 24.21.0/baseline; ${note}.`));
  // One runtime: nothing to add.
  assert.ok(renderChanges(planted).startsWith('What changed against 24.21.0/baseline:'));
});

test('a ratio carries "!" when the cell it is against was optimised away, in every format', () => {
  // The second runtime's baseline cells folded: its flag set's ratios are against them, the first
  // runtime's flag set's ratios are not.
  const foldedOther = { ...twoRuntimes, cells: twoRuntimes.cells.map((c) => (c.runtimeLabel === 'other' && c.flagSet === 'baseline' ? { ...c, warnings: [...(c.warnings || []), 'optimized-away'] } : c)) };
  const [table] = grid(foldedOther);
  const keys = table.columns.map((c) => c.key);
  const line = (text, benchmark) => text.split('\n').find((l) => l.startsWith(`${benchmark} `) || l.startsWith(`| ${benchmark} `));
  for (const text of [renderTerminal(foldedOther, { width: 1000 }), renderMarkdown(foldedOther)]) {
    const row = line(text.slice(text.indexOf('other/baseline')), table.rows[0].benchmark);
    const cells = row.split(/\s{2,}|\s\|\s/).filter(Boolean);
    const ratioOf = (key) => cells[1 + keys.indexOf(key)];
    assert.match(ratioOf(`other/${FLAG}`), /x\*{0,2}!/, row);
    assert.doesNotMatch(ratioOf(`24.21.0/${FLAG}`), /x\*{0,2}!/, row);
  }
  const flagCell = reportOverview(foldedOther).suites[0].rows[0].cells[keys.indexOf(`other/${FLAG}`)];
  assert.equal(flagCell.folded, true);
});
