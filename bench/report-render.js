/* global window, document -- page.evaluate runs these callbacks in the browser */
// How long a large HTML report takes to open in Chromium (issue 28's target: a 10,000-cell result
// under 5 s). The result is a real one made larger: every cell of --from (default
// test/fixtures/planted-result.json, a real run) copied under new benchmark names, over ten suites,
// until there are --cells cells, keeping each copy's processes and summary as measured. Then, as a
// user would: `nodebench report --format html` and `nodebench diff big big --format html` (wall
// time), and Debian's Chromium (playwright-core) opening each page: time to the load event and to
// the first frame after it, with the charts in view drawn; and the pages' sizes.
// Usage: node bench/report-render.js [--cells 10000] [--from result.json] [--runs 3]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { chromium } from 'playwright-core';
import { projectRoot } from '../cli/paths.js';
import { formatBytes } from '../cli/text/format.js';
import { answerHelp, contextLine } from './lib/preamble.js';

answerHelp(import.meta.url);

const { values: args } = parseArgs({
  options: {
    cells: { type: 'string', default: '10000' },
    from: { type: 'string', default: path.join(projectRoot, 'test', 'fixtures', 'planted-result.json') },
    runs: { type: 'string', default: '3' }
  }
});
const wanted = Number(args.cells);
const runs = Number(args.runs);
const browserPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((f) => fs.existsSync(f));
if (!browserPath) throw new Error('bench/report-render.js needs Chromium (apt-get install chromium)');

const source = JSON.parse(fs.readFileSync(args.from, 'utf8'));
const copies = Math.ceil(wanted / source.cells.length);
const cells = [];
for (let copy = 0; copy < copies && cells.length < wanted; copy++) {
  for (const cell of source.cells) {
    if (cells.length >= wanted) break;
    cells.push({ ...cell, id: cells.length, suite: `suite-${copy % 10}`, benchmark: `${cell.benchmark}-${copy}` });
  }
}
const big = { ...source, cells, suites: Array.from({ length: Math.min(10, copies) }, (_, i) => ({ ...source.suites[0], name: `suite-${i}`, benchmarks: [] })) };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-render-'));
const resultFile = path.join(dir, 'big.json');
const htmlFile = path.join(dir, 'big.html');
fs.writeFileSync(resultFile, JSON.stringify(big));

const cli = path.join(projectRoot, 'cli', 'nodebench.js');
// The report page, and diff's page of the file against itself (every cell compared).
const pages = [
  { name: 'report', args: ['report', resultFile, '--format', 'html', '--out', htmlFile], file: htmlFile },
  { name: 'diff', args: ['diff', resultFile, resultFile, '--format', 'html'], file: path.join(dir, 'diff.html') }
];
for (const page of pages) {
  const started = process.hrtime.bigint();
  const run = await execa(process.execPath, [cli, ...page.args], { reject: false, maxBuffer: 2 ** 30 });
  page.seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (run.exitCode !== 0) throw new Error(`nodebench ${page.name} failed: ${run.stderr}`);
  if (page.name === 'diff') fs.writeFileSync(page.file, run.stdout);
}

const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
try {
  for (const spec of pages) {
    spec.timings = [];
    for (let run = 0; run < runs; run++) {
      const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const t0 = Date.now();
      await page.goto(`file://${spec.file}`, { waitUntil: 'load', timeout: 120_000 });
      // The first frame after load: the page is laid out and painted, the charts in view drawn.
      await page.evaluate(() => new Promise((resolve) => window.requestAnimationFrame(() => window.requestAnimationFrame(resolve))));
      const wall = (Date.now() - t0) / 1000;
      const nav = await page.evaluate(() => ({ load: window.performance.getEntriesByType('navigation')[0].loadEventEnd / 1000, heatCells: document.querySelectorAll('table.heat a.hm').length }));
      if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
      spec.timings.push({ wall, ...nav });
      await page.close();
    }
  }
} finally {
  await browser.close();
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`${contextLine()}: ${cells.length} cells from ${path.relative(projectRoot, args.from) || args.from}`);
for (const spec of pages) {
  const t = spec.timings;
  console.log(`${spec.name}: nodebench ${spec.name} --format html ${spec.seconds.toFixed(2)} s, page ${formatBytes(fs.statSync(spec.file).size)}, ${t[0].heatCells} heat-map cells; Chromium, ${runs} opens: load event ${t.map((x) => x.load.toFixed(2)).join(', ')} s, open to first painted frame ${t.map((x) => x.wall.toFixed(2)).join(', ')} s (median ${median(t.map((x) => x.wall)).toFixed(2)} s)`);
}
fs.rmSync(dir, { recursive: true, force: true });
