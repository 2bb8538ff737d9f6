/* global window -- page.evaluate and waitForFunction run these callbacks in the browser */
// The HTML report in a real headless browser (Debian's chromium, driven by playwright-core): it
// loads offline without console errors, every chart has drawn marks, and a screenshot is kept in
// test-artifacts/. The CSV of the same run parses with a CSV parser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { parse } from 'csv-parse/sync';
import { nodebench, root } from './helpers/cli.js';

const browserPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((f) => fs.existsSync(f));
const skip = !browserPath && !process.env.CI ? 'no chromium (apt-get install chromium)' : false;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-html-'));
const resultPath = path.join(tmp, 'r.json');

test.before(async () => {
  const run = await nodebench(['run', path.join(root, 'test', 'fixtures', 'suites', 'smoke', 'index.js'), '--node', 'system',
    '--flags', '--max-semi-space-size=16', '--benchmarks', 'sum-loop,promise-chain,throws', '--processes', '2', '--max-processes', '2', '--samples', '3', '--out', resultPath]);
  assert.equal(run.exitCode, 1, run.stderr); // "throws" fails, the others are kept
});

test('the HTML report opens offline in headless Chromium with every chart drawn', { skip, timeout: 120_000 }, async () => {
  assert.ok(browserPath, 'chromium must be installed in CI (.ci/run installs it)');
  const html = path.join(tmp, 'report.html');
  const report = await nodebench(['report', resultPath, '--format', 'html', '--out', html]);
  assert.equal(report.exitCode, 0, report.stderr);
  const text = fs.readFileSync(html, 'utf8');
  assert.doesNotMatch(text, /<script[^>]+src=|<link[^>]+href=/, 'nothing loaded from elsewhere');

  const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
    page.on('pageerror', (e) => problems.push(e.message));
    const outside = [];
    await page.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : (outside.push(route.request().url()), route.abort())));
    await page.goto(`file://${html}`);
    await page.waitForFunction(() => Array.isArray(window.nodebenchCharts));
    const charts = await page.evaluate(() => window.nodebenchCharts.map((chart) => ({
      title: chart.canvas.previousElementSibling.textContent,
      marks: chart.data.datasets.map((_, i) => chart.getDatasetMeta(i).data.filter((el) => Number.isFinite(el.x) && Number.isFinite(el.y)).length)
    })));
    assert.deepEqual(problems, []);
    assert.deepEqual(outside, []);
    assert.deepEqual(charts.map((c) => c.title), ['smoke / sum-loop', 'smoke / promise-chain', 'smoke / throws']);
    // An interval whose margin exceeds 100% has no upper bound in ops/s and is said in words instead.
    const result = JSON.parse(fs.readFileSync(resultPath, 'utf8'));
    const bounded = (benchmark) => result.cells.filter((c) => c.benchmark === benchmark && c.status === 'ok' && c.summary.ci.low > 0).length;
    for (const [i, benchmark] of ['sum-loop', 'promise-chain'].entries()) {
      // One point per process that counts (summary.processes: set-aside ones are left out).
      const counted = result.cells.filter((c) => c.benchmark === benchmark && c.status === 'ok').reduce((n, c) => n + c.summary.processes, 0);
      assert.deepEqual(charts[i].marks, [bounded(benchmark), 2, counted], `${benchmark}: an interval and an estimate per column, one point per process`);
    }
    assert.deepEqual(charts[2].marks, [0, 0, 0]);
    assert.match(await page.textContent('body'), /No value: \S+\/baseline failed/);
    assert.match(await page.textContent('body'), /GC, CPU, event-loop delay and memory/);
    fs.mkdirSync(path.join(root, 'test-artifacts'), { recursive: true });
    await page.screenshot({ path: path.join(root, 'test-artifacts', 'report.png'), fullPage: true });

    // diff --format html: the two flag sets of the run compared, ratios with their intervals.
    const columns = [...new Set(result.cells.map((c) => `${c.runtimeLabel}/${c.flagSet}`))];
    const diff = await nodebench(['diff', resultPath, '--from', columns[0], '--to', columns[1], '--format', 'html']);
    assert.equal(diff.exitCode, 0, diff.stderr);
    const diffHtml = path.join(tmp, 'diff.html');
    fs.writeFileSync(diffHtml, diff.stdout);
    await page.goto(`file://${diffHtml}`);
    await page.waitForFunction(() => Array.isArray(window.nodebenchCharts));
    const diffMarks = await page.evaluate(() => window.nodebenchCharts.map((chart) => chart.data.datasets.map((_, i) => chart.getDatasetMeta(i).data.filter((el) => Number.isFinite(el.y)).length)));
    assert.equal(diffMarks.length, 1);
    assert.deepEqual(diffMarks[0].slice(0, 2), [2, 2], 'an interval and an estimate for sum-loop and promise-chain');
    assert.match(await page.textContent('body'), /smoke\/throws .*failed -> failed/);
    assert.deepEqual(problems, []);
    await page.screenshot({ path: path.join(root, 'test-artifacts', 'diff.png'), fullPage: true });
  } finally {
    await browser.close();
  }
});

test('CSV has every summary, metric and service column and parses back', async () => {
  const run = await nodebench(['report', resultPath, '--format', 'csv']);
  assert.equal(run.exitCode, 0, run.stderr);
  const rows = parse(run.stdout, { columns: true });
  assert.equal(rows.length, 6);
  for (const column of ['opsPerSec', 'medianNs', 'rmePercent', 'gcShare', 'peakRssBytes', 'reqPerSec', 'latencyP99Ms']) assert.ok(column in rows[0], column);
  const ok = rows.filter((r) => r.status === 'ok');
  assert.equal(ok.length, 4);
  for (const row of ok) assert.ok(Number(row.opsPerSec) > 0);
  assert.match(rows.find((r) => r.status === 'failed').error, /deliberate failure/);
});

test('Markdown report carries the metrics grid; --distribution draws each cell\'s process rates', async () => {
  const markdown = await nodebench(['report', resultPath, '--format', 'markdown']);
  assert.match(markdown.stdout, /### GC, CPU, event-loop delay and memory\n\n```\nsmoke metrics/);
  const distribution = await nodebench(['report', resultPath, '--distribution']);
  assert.match(distribution.stdout, /^smoke\/sum-loop\s+\S+\/baseline\s+\[[▁-█ ]{12}\]\s+\S+ \.\. \S+ ops\/s\s+\d+ processes$/mu);
});
