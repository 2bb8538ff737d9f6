/* global window, document, location, getComputedStyle -- page.evaluate and waitForFunction run these callbacks in the browser */
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
import { displayName } from '../cli/text/format.js';

const browserPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((f) => fs.existsSync(f));
const skip = !browserPath && !process.env.CI ? 'no chromium (apt-get install chromium)' : false;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-html-'));
const resultPath = path.join(tmp, 'r.json');

test.before(async () => {
  const run = await nodebench(['run', path.join(root, 'test', 'fixtures', 'suites', 'smoke', 'index.js'), '--node', 'system',
    '--flags', '--max-semi-space-size=16', '--benchmarks', 'sum-loop,promise-chain,throws', '--processes', '2', '--max-processes', '2', '--samples', '3', '--out', resultPath]);
  assert.equal(run.exitCode, 1, run.stderr); // "throws" fails, the others are kept
});

// A page opened as a user would: offline (any request that is not the file itself is refused and
// kept), console errors and page errors collected.
async function openPage(browser, file, { width = 1200 } = {}) {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  const outside = [];
  await page.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : (outside.push(route.request().url()), route.abort())));
  await page.goto(`file://${file}`);
  await page.waitForFunction(() => typeof window.nodebenchDrawAll === 'function');
  return { page, problems, outside };
}

const artifacts = path.join(root, 'test-artifacts');
const screenshot = async (page, name) => {
  fs.mkdirSync(artifacts, { recursive: true });
  // Charts are drawn as they scroll into view; a full-page picture wants them all.
  await page.evaluate(() => window.nodebenchDrawAll());
  await page.screenshot({ path: path.join(artifacts, name), fullPage: true });
};

// The marks each chart draws per dataset (points with finite coordinates).
const chartMarks = (page) => page.evaluate(() => window.nodebenchCharts.map((chart) => ({
  title: chart.canvas.previousElementSibling.textContent,
  marks: chart.data.datasets.map((_, i) => chart.getDatasetMeta(i).data.filter((el) => Number.isFinite(el.x) && Number.isFinite(el.y)).length)
})));

test('the HTML report opens offline in headless Chromium: ratio charts by default, raw rates on request, sortable tables', { skip, timeout: 120_000 }, async () => {
  assert.ok(browserPath, 'chromium must be installed in CI (.ci/run installs it)');
  const html = path.join(tmp, 'report.html');
  const report = await nodebench(['report', resultPath, '--format', 'html', '--out', html]);
  assert.equal(report.exitCode, 0, report.stderr);
  const text = fs.readFileSync(html, 'utf8');
  assert.doesNotMatch(text, /<script[^>]+src=|<link[^>]+href=/, 'nothing loaded from elsewhere');
  assert.doesNotMatch(text, /<pre>[^<]*ops\/s ±95% margin/, 'the tables are HTML tables, not text');

  const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
  try {
    const { page, problems, outside } = await openPage(browser, html);
    await page.evaluate(() => window.nodebenchDrawAll());
    const charts = await chartMarks(page);
    assert.deepEqual(outside, []);
    const benchmarkCharts = charts.filter((c) => c.title.startsWith('smoke / '));
    // "throws" failed in every column: its figure is its caption and why, no empty chart.
    assert.deepEqual(benchmarkCharts.map((c) => c.title), ['smoke / sum-loop', 'smoke / promise-chain']);
    assert.equal(await page.locator('figure.bench', { hasText: 'smoke / throws' }).locator('canvas').count(), 0);
    // Ratio view: the ratio's interval and estimate for the one non-baseline column, the 1x line
    // across both columns (two processes a cell: no per-block pairs, so no points).
    for (const chart of benchmarkCharts.slice(0, 2)) assert.deepEqual(chart.marks, [1, 1, 2], chart.title);
    // The toggle: raw ops/s, an interval and an estimate per column, one point per process that counts.
    await page.check('#raw-toggle');
    const raw = (await chartMarks(page)).filter((c) => c.title.startsWith('smoke / '));
    const result = JSON.parse(fs.readFileSync(resultPath, 'utf8'));
    const bounded = (benchmark) => result.cells.filter((c) => c.benchmark === benchmark && c.status === 'ok' && c.summary.ci.low > 0).length;
    for (const [i, benchmark] of ['sum-loop', 'promise-chain'].entries()) {
      const counted = result.cells.filter((c) => c.benchmark === benchmark && c.status === 'ok').reduce((n, c) => n + c.summary.processes, 0);
      assert.deepEqual(raw[i].marks, [bounded(benchmark), 2, counted], `${benchmark}: an interval and an estimate per column, one point per process`);
    }
    assert.match(await page.textContent('body'), /No value: \S+\/baseline failed/);
    // Metrics: small charts beside their table.
    assert.ok(charts.some((c) => /main-thread GC share/.test(c.title)), charts.map((c) => c.title).join(', '));
    assert.match(await page.textContent('body'), /GC, CPU, event-loop delay and memory/);

    // Sorting the cell table by ops/s, then the other way.
    const table = page.locator('table.cells').first();
    const rates = async () => (await table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.cells[2].dataset.v))).filter(Boolean).map(Number);
    await table.locator('thead th', { hasText: 'ops/s' }).locator('button').click();
    const ascending = await rates();
    assert.deepEqual(ascending, [...ascending].sort((a, b) => a - b));
    await table.locator('thead th', { hasText: 'ops/s' }).locator('button').click();
    assert.deepEqual(await rates(), [...ascending].reverse());
    assert.deepEqual(problems, []);
    await screenshot(page, 'report.png');

    // diff --format html: the two flag sets of the run compared, ratios with their intervals.
    const columns = [...new Set(result.cells.map((c) => `${c.runtimeLabel}/${c.flagSet}`))];
    const diff = await nodebench(['diff', resultPath, '--from', columns[0], '--to', columns[1], '--format', 'html']);
    assert.equal(diff.exitCode, 0, diff.stderr);
    const diffHtml = path.join(tmp, 'diff.html');
    fs.writeFileSync(diffHtml, diff.stdout);
    const opened = await openPage(browser, diffHtml);
    await opened.page.evaluate(() => window.nodebenchDrawAll());
    const diffMarks = await opened.page.evaluate(() => window.nodebenchCharts.map((chart) => chart.data.datasets.map((_, i) => chart.getDatasetMeta(i).data.filter((el) => Number.isFinite(el.y)).length)));
    assert.equal(diffMarks.length, 1);
    assert.deepEqual(diffMarks[0].slice(0, 2), [2, 2], 'an interval and an estimate for sum-loop and promise-chain');
    assert.match(await opened.page.textContent('body'), /failed -> failed/);
    assert.equal(await opened.page.locator('table.heat a.hm[data-ratio]').count(), 2, 'a heat-map cell per compared benchmark');
    // A column header longer than its cut: the cut name with the whole one in its title, no markup as text.
    const header = opened.page.locator('table.heat thead th span[title]').first();
    assert.equal(await header.getAttribute('title'), `${columns[0]} -> ${columns[1]}`);
    assert.doesNotMatch(await opened.page.locator('table.heat thead').textContent(), /span>|<wbr>/);
    assert.deepEqual(opened.problems, []);
    assert.deepEqual(opened.outside, []);
    await screenshot(opened.page, 'diff.png');
  } finally {
    await browser.close();
  }
});

// test/fixtures/planted-result.json: a real run of test/fixtures/suites/planted, whose second flag
// set makes `quicker` faster and `slower` slower (decided), `steady` unchanged.
const planted = path.join(root, 'test', 'fixtures', 'planted-result.json');

// The planted result with its names made hostile: markup, escape codes, a 10,000-character name.
function hostileCopy() {
  const result = JSON.parse(fs.readFileSync(planted, 'utf8'));
  const names = { quicker: '<img src=x onerror="window.owned=1">quicker', slower: `slower\u001b]0;owned\u0007${'x'.repeat(10_000)}`, steady: '</script><script>window.owned=2</script>' };
  for (const cell of result.cells) cell.benchmark = names[cell.benchmark];
  for (const b of result.suites.flatMap((s) => s.benchmarks || [])) b.name = names[b.name] ?? b.name;
  return { result, names };
}

test('the overview: one heat-map cell per ratio, purple faster and orange slower, every cell reached by keyboard; hostile names stay text', { skip, timeout: 120_000 }, async () => {
  const html = path.join(tmp, 'planted.html');
  assert.equal((await nodebench(['report', planted, '--format', 'html', '--out', html])).exitCode, 0);
  const result = JSON.parse(fs.readFileSync(planted, 'utf8'));
  const base = result.cells.filter((c) => c.flagSet === 'baseline').length;
  const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
  try {
    const { page, problems, outside } = await openPage(browser, html);
    const cells = page.locator('table.heat a.hm');
    assert.equal(await cells.count(), result.cells.length, 'a cell per benchmark and column');
    assert.equal(await page.locator('table.heat a.hm[data-ratio]').count(), result.cells.length - base, 'a ratio per non-baseline cell');
    const colour = async (verdict) => page.locator(`table.heat a.hm[data-verdict="${verdict}"]`).evaluateAll((as) => as.map((a) => getComputedStyle(a).backgroundColor.match(/\d+/g).map(Number)));
    const [faster] = await colour('faster');
    const [slower] = await colour('slower');
    assert.ok(faster && slower, 'the planted run has a decided faster and a decided slower cell');
    assert.ok(faster[2] > faster[0] && faster[2] > faster[1], `faster is purple (blue above red and green): ${faster}`);
    assert.ok(slower[0] > slower[1] && slower[1] > slower[2], `slower is orange (red above green above blue): ${slower}`);
    // The three largest decided changes are listed above the heat maps, within the first screen.
    const firstChange = await page.locator('table.changes tr').first().boundingBox();
    assert.ok(firstChange.y < 900, `the changes start at ${firstChange.y}px`);
    // Tab from the top of the page reaches every cell of the heat map, and the focused cell says
    // its interval.
    const total = await cells.count();
    const reached = new Set();
    for (let i = 0; i < 200 && reached.size < total; i++) {
      await page.keyboard.press('Tab');
      const at = await page.evaluate(() => {
        const a = document.activeElement;
        if (!a.matches('table.heat a.hm')) return null;
        return { index: [...document.querySelectorAll('table.heat a.hm')].indexOf(a), tip: getComputedStyle(a, '::after').content, label: a.getAttribute('aria-label') };
      });
      if (!at) continue;
      reached.add(at.index);
      assert.equal(at.tip, JSON.stringify(at.label), 'the focused cell shows its description');
      if (await cells.nth(at.index).getAttribute('data-ratio')) assert.match(at.label, /95% interval \[/);
    }
    assert.equal(reached.size, total);
    await page.locator('table.heat a.hm[data-verdict="faster"]').focus();
    await screenshot(page, 'overview-planted.png');
    // A cell leads to its benchmark's chart: Enter on the focused cell scrolls the chart into view.
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => location.hash === '#b0-0');
    const target = await page.evaluate(() => {
      const box = document.getElementById('b0-0').getBoundingClientRect();
      return { top: box.top, caption: document.querySelector('#b0-0 figcaption').textContent, inView: box.top >= 0 && box.top < window.innerHeight };
    });
    assert.equal(target.caption, 'planted / quicker');
    assert.ok(target.inView, `the chart is in view (top at ${target.top}px)`);
    assert.deepEqual(problems, []);
    assert.deepEqual(outside, []);

    // Hostile names: nothing runs, nothing escapes as a control character, a long name is cut
    // with the whole of it on hover.
    const { result: hostile, names } = hostileCopy();
    const hostileJson = path.join(tmp, 'hostile.json');
    fs.writeFileSync(hostileJson, JSON.stringify(hostile));
    const hostileHtml = path.join(tmp, 'hostile.html');
    assert.equal((await nodebench(['report', hostileJson, '--format', 'html', '--out', hostileHtml])).exitCode, 0);
    // eslint-disable-next-line no-control-regex -- a raw ESC or BEL is what must not be there
    assert.doesNotMatch(fs.readFileSync(hostileHtml, 'utf8'), /[\u001b\u0007]/);
    const opened = await openPage(browser, hostileHtml);
    await opened.page.evaluate(() => window.nodebenchDrawAll());
    assert.equal(await opened.page.evaluate(() => window.owned), undefined);
    assert.equal(await opened.page.locator('table.heat a.hm').count(), result.cells.length);
    assert.equal(await opened.page.locator('img').count(), 0);
    const rowNames = await opened.page.locator('table.heat tbody th').allTextContents();
    assert.ok(rowNames.some((n) => n.startsWith('<img src=x')), rowNames.join(' | '));
    const long = opened.page.locator('table.heat tbody th span[title]').first();
    assert.ok((await long.textContent()).length <= 60);
    // The title shows the name cut as every view does (text/format.js displayName), not 2,000 characters.
    assert.equal(await long.getAttribute('title'), displayName(names.slower.replace('\u001b', '\\x1b').replace('\u0007', '\\x07')));
    const width = await opened.page.evaluate(() => document.querySelector('table.heat').getBoundingClientRect().width);
    assert.ok(width < 1200, `the heat map fits the window (${width}px)`);
    assert.deepEqual(opened.problems, []);
    await screenshot(opened.page, 'overview-hostile.png');
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

// Issue 39, item 3: at 1280 px the gc heat map of a default matrix (fifteen columns) was 1345 px in a
// box of 1216 that did not scroll, so its last column could not be seen; a full-page capture showed
// blank heat maps and charts (laid out and drawn only near the viewport); the charts' y-axis titles
// were cut ("(above 1 = fa…"). The planted run spread over eight runtime labels: sixteen columns.
function wideCopy() {
  const result = JSON.parse(fs.readFileSync(planted, 'utf8'));
  const labels = Array.from({ length: 8 }, (_, k) => (k === 0 ? result.runtimes[0].label : `${result.runtimes[0].label}-copy-${k}`));
  const cells = labels.flatMap((label) => result.cells.map((c) => ({ ...c, runtimeLabel: label })));
  return { ...result, runtimes: labels.map((label) => ({ ...result.runtimes[0], label })), cells: cells.map((c, id) => ({ ...c, id })) };
}

test('the report at 1280 px: nothing but a wide heat map is wider than the window, and it scrolls to its last column; a full-page capture has every heat map and chart drawn; axis titles whole', { skip, timeout: 120_000 }, async () => {
  const json = path.join(tmp, 'wide.json');
  fs.writeFileSync(json, JSON.stringify(wideCopy()));
  const html = path.join(tmp, 'wide.html');
  const report = await nodebench(['report', json, '--format', 'html', '--out', html]);
  assert.equal(report.exitCode, 0, report.stderr);
  const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
  try {
    const { page, problems } = await openPage(browser, html, { width: 1280 });
    // Nothing widens the page.
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 1280);
    // The heat map is wider than its box, which scrolls; scrolled to its end, the last column is in the box.
    const seen = await page.evaluate(() => {
      const table = document.querySelector('table.heat');
      const box = table.parentElement;
      const wider = table.getBoundingClientRect().width > box.clientWidth;
      box.scrollLeft = box.scrollWidth;
      const last = [...table.querySelectorAll('thead th')].at(-1).getBoundingClientRect();
      const name = table.querySelector('tbody th').getBoundingClientRect();
      return { wider, scrolls: getComputedStyle(box).overflowX, lastRight: last.right, boxRight: box.getBoundingClientRect().right, nameLeft: name.left, boxLeft: box.getBoundingClientRect().left, columns: table.querySelectorAll('thead th').length };
    });
    assert.equal(seen.columns, 17);
    assert.ok(seen.wider, 'sixteen columns are wider than 1280 px (else this checks nothing)');
    assert.equal(seen.scrolls, 'auto');
    assert.ok(seen.lastRight <= seen.boxRight + 1, `the last column ends at ${seen.lastRight}px, the box at ${seen.boxRight}px`);
    assert.ok(Math.abs(seen.nameLeft - seen.boxLeft) < 2, 'the benchmark names stay at the left while it scrolls');
    // Without scrolling or nodebenchDrawAll: every chart drawn, no section or heat map left unlaid.
    const drawn = await page.evaluate(() => ({ charts: window.nodebenchCharts.length, canvases: document.querySelectorAll('canvas').length, skipped: [...document.querySelectorAll('.deferred')].filter((el) => getComputedStyle(el).contentVisibility === 'auto').length }));
    assert.equal(drawn.charts, drawn.canvases);
    assert.equal(drawn.skipped, 0);
    // Every line of every y-axis title fits the chart's height.
    const titles = await page.evaluate(() => window.nodebenchCharts.map((chart) => {
      const title = chart.options.scales.y.title;
      chart.ctx.font = window.Chart.helpers.toFont(title.font).string;
      return { height: chart.height, widths: [].concat(title.text).map((line) => chart.ctx.measureText(line).width), text: [].concat(title.text).join(' / ') };
    }));
    assert.ok(titles.filter((t) => t.text.startsWith('ratio to ')).length >= 3, titles.map((t) => t.text).join(' | '));
    for (const t of titles) for (const w of t.widths) assert.ok(w < t.height - 20, `"${t.text}": ${Math.round(w)}px on a chart ${t.height}px high`);
    assert.deepEqual(problems, []);
    fs.mkdirSync(artifacts, { recursive: true });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(artifacts, 'report-1280-full.png'), fullPage: true });
  } finally {
    await browser.close();
  }
});

test('a run counted in instructions is drawn and tabled in instructions per operation in every format, never as a rate under "ops/s" or a count under a time column', async () => {
  const { chartData, renderHtml } = await import('../cli/report/html.js');
  const counted = JSON.parse(fs.readFileSync(path.join(root, 'test', 'fixtures', 'history', 'counted-16.json'), 'utf8'));
  const [suite] = chartData(counted);
  const columns = suite.benchmarks.map((b) => b.columns[0]);
  assert.deepEqual(columns.map((c) => c.value), counted.cells.map((c) => c.summary.estimate));
  for (const [i, c] of columns.entries()) {
    const { summary } = counted.cells[i];
    assert.deepEqual([c.low, c.high, c.perProcess], [summary.ci.low, summary.ci.high, summary.processMedians]);
  }
  const html = renderHtml(counted);
  assert.match(html, /<th[^>]*>(?:<button[^>]*>)?instr\/op/);
  assert.match(html, /"unit":"instructions per operation"/);
  assert.doesNotMatch(html, /ops\/s/);
  const file = path.join(root, 'test', 'fixtures', 'history', 'counted-16.json');
  const markdown = await nodebench(['report', file, '--format', 'markdown']);
  assert.match(markdown.stdout, /Ratios of instructions per operation to 16\.20\.2\/baseline/);
  assert.doesNotMatch(markdown.stdout, /ops\/s/);
  const distribution = await nodebench(['report', file, '--distribution', '--no-color']);
  assert.match(distribution.stdout, /826 \.\. 826 instructions\/op {2}2 processes/);
  assert.doesNotMatch(distribution.stdout, /ops\/s/);
  const [row] = parse((await nodebench(['report', file, '--format', 'csv'])).stdout, { columns: true });
  assert.equal(row.measure, 'instructions');
  assert.equal(Number(row.instructionsPerOp), counted.cells[0].summary.estimate);
  assert.deepEqual([row.nsPerOp, row.opsPerSec, row.ciLowNs, row.medianNs], ['', '', '', '']);
  const diffHtml = await nodebench(['diff', file, file, '--format', 'html']);
  assert.match(diffHtml.stdout, /ratio of instructions per operation, B over A/);
  assert.doesNotMatch(diffHtml.stdout, /ops\/s|operations per second/);
});
