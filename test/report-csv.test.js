// report --format csv carries what the tables judge (issue 39, item 8: it had every figure of a cell
// but no ratio, interval or verdict): per cell the column its ratio is against, the ratio with its
// 95% interval, its q-value and verdict, as results/grid.js computes them for every view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { readPlanted } from './helpers/planted.js';
import { renderCsv } from '../cli/report/csv.js';
import { reportOverview } from '../cli/render/overview.js';

test('CSV has the ratio, its interval, q and verdict of every cell the tables judge, and none for the baseline', () => {
  const planted = readPlanted();
  const rows = parse(renderCsv(planted), { columns: true });
  const overview = reportOverview(planted);
  const suite = overview.suites[0];
  for (const row of rows) {
    const r = suite.rows.find((x) => x.benchmark === row.benchmark);
    const cell = r.cells[suite.columns.findIndex((c) => c.key === `${row.runtime}/${row.flagSet}`)];
    if (cell.isBaseline) {
      assert.deepEqual([row.ratioAgainst, row.ratio, row.ratioLow, row.ratioHigh, row.ratioQ, row.verdict], ['', '', '', '', '', '']);
      continue;
    }
    assert.equal(row.ratioAgainst, '24.21.0/baseline');
    assert.equal(Number(row.ratio), cell.ratio);
    assert.equal(Number(row.ratioLow), cell.low);
    assert.equal(Number(row.ratioHigh), cell.high);
    assert.equal(Number(row.ratioQ), cell.q);
    assert.equal(row.verdict, cell.verdict);
  }
  assert.deepEqual(rows.filter((r) => r.verdict).map((r) => `${r.benchmark} ${r.verdict}`).sort(), ['quicker faster', 'slower slower', 'steady undecided']);
  // The flags as they are, without a spreadsheet's apostrophe (render/csv-field.js).
  assert.deepEqual([...new Set(rows.map((r) => r.flags))].sort(), ['', '--title=nodebench-planted']);
});
