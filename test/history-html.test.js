/* global window -- page.evaluate and waitForFunction run these callbacks in the browser */
// The history's trend page in a real headless browser (Debian's chromium through playwright-core),
// as test/report-html.test.js checks the report: it opens offline without console errors, every
// chart has one line per flag set, every point is drawn with its interval, every change point
// with its marker; a screenshot is kept in test-artifacts/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { root } from './helpers/cli.js';
import { historyDir, trendRun, history } from './helpers/history.js';

const browserPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((f) => fs.existsSync(f));
const skip = !browserPath && !process.env.CI ? 'no chromium (apt-get install chromium)' : false;
const dir = historyDir('history-html', { flagSets: { 'semi-space-16': ['--max-semi-space-size=16'] } });
const store = path.join(dir, 'store');

test.before(async () => {
  const runs = [];
  for (const [name, slow] of [['r1', false], ['r2', false], ['r3', false], ['r4', true], ['r5', true]]) runs.push(await trendRun(dir, name, { slow }));
  const added = await history(['add', ...runs, '--store', store]);
  assert.equal(added.exitCode, 0, added.stderr);
  const versions = await trendRun(dir, 'versions', { runtimes: '16.13.2,16.14.0,16.20.2,17.2.0', slowFrom: '16.20.2' });
  assert.equal((await history(['add', versions, '--store', store])).exitCode, 0);
});

async function openPage(page, file) {
  const problems = [];
  const outside = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : (outside.push(route.request().url()), route.abort())));
  await page.goto(`file://${file}`);
  await page.waitForFunction(() => Array.isArray(window.nodebenchCharts));
  const charts = await page.evaluate(() => window.nodebenchCharts.map((chart) => ({
    title: chart.canvas.previousElementSibling.textContent,
    lines: chart.data.datasets.map((d) => d.label),
    drawn: chart.data.datasets.map((_, i) => chart.getDatasetMeta(i).data.filter((el) => Number.isFinite(el.x) && Number.isFinite(el.y)).length),
    points: chart.data.datasets.reduce((n, d) => n + d.data.length, 0),
    marks: chart.nodebenchMarks
  })));
  return { charts, problems, outside };
}

test('the trend page opens offline in headless Chromium: a line per flag set, every interval and change point drawn', { skip, timeout: 180_000 }, async () => {
  assert.ok(browserPath, 'chromium must be installed in CI (.ci/run installs it)');
  const byDate = path.join(dir, 'by-date.html');
  const byVersion = path.join(dir, 'by-version.html');
  for (const [file, by] of [[byDate, 'date'], [byVersion, 'version']]) {
    const run = await history(['show', '--store', store, '--by', by, '--format', 'html', '--out', file]);
    assert.equal(run.exitCode, 0, run.stderr);
    assert.doesNotMatch(fs.readFileSync(file, 'utf8'), /<script[^>]+src=|<link[^>]+href=/, 'nothing loaded from elsewhere');
  }
  const expected = async (by) => JSON.parse((await history(['show', '--store', store, '--by', by, '--format', 'json'])).stdout);
  const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const version = await openPage(page, byVersion);
    assert.deepEqual(version.problems, []);
    assert.deepEqual(version.outside, []);
    const data = await expected('version');
    assert.deepEqual(version.charts.map((c) => c.title), ['trend/steady', 'trend/sum']);
    for (const [i, chart] of version.charts.entries()) {
      const series = data.series.filter((s) => s.benchmark === ['steady', 'sum'][i]);
      assert.deepEqual(chart.lines, ['baseline', 'semi-space-16'], 'one line per flag set');
      const okPoints = series.reduce((n, s) => n + s.points.filter((p) => p.status === 'ok').length, 0);
      assert.equal(chart.points, okPoints);
      assert.equal(chart.drawn.reduce((a, b) => a + b, 0), okPoints, 'every point drawn');
      assert.equal(chart.marks.intervals, okPoints, 'every point with its interval');
      assert.equal(chart.marks.changes, series.reduce((n, s) => n + s.changes.length, 0), 'every change point marked');
    }
    assert.ok(version.charts[1].marks.changes >= 2, 'sum slows from 16.20.2 on under both flag sets');
    assert.match(await page.textContent('body'), /trend\/sum \[baseline\]: 16\.14\.0 -> 16\.20\.2 -\d/);
    fs.mkdirSync(path.join(root, 'test-artifacts'), { recursive: true });
    await page.screenshot({ path: path.join(root, 'test-artifacts', 'history-by-version.png'), fullPage: true });

    const page2 = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const date = await openPage(page2, byDate);
    assert.deepEqual(date.problems, []);
    const dateData = await expected('date');
    // By date: one line per runtime line and flag set ("system" for the five runs, then one per release).
    const sum = date.charts.find((c) => c.title === 'trend/sum');
    assert.ok(sum.lines.includes('system baseline') && sum.lines.includes('system semi-space-16'), sum.lines.join(', '));
    const sumSeries = dateData.series.filter((s) => s.benchmark === 'sum');
    assert.equal(sum.marks.intervals, sumSeries.reduce((n, s) => n + s.points.filter((p) => p.status === 'ok').length, 0));
    assert.ok(sum.marks.changes >= 2, 'the slowdown of runs 4 and 5 under both flag sets');
    await page2.screenshot({ path: path.join(root, 'test-artifacts', 'history-by-date.png'), fullPage: true });
  } finally {
    await browser.close();
  }
});
