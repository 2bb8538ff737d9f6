/* global window -- page.evaluate runs this callback in the browser */
// The picture of a report's overview that README shows: `nodebench report R.json --format html` as a
// user runs it, opened in Debian's Chromium (playwright-core) at 1600 px (the gc suite has fifteen columns), the #overview section
// captured as a PNG once its charts are drawn.
// Usage: node bench/overview-screenshot.js RESULT.json OUT.png
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { chromium } from 'playwright-core';
import { projectRoot } from '../cli/paths.js';
import { answerHelp, contextLine } from './lib/preamble.js';

answerHelp(import.meta.url);

const [resultFile, pngFile] = process.argv.slice(2);
if (!resultFile || !pngFile) throw new Error('usage: node bench/overview-screenshot.js RESULT.json OUT.png');
const browserPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((f) => fs.existsSync(f));
if (!browserPath) throw new Error('bench/overview-screenshot.js needs Chromium (apt-get install chromium)');

const html = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-overview-')), 'report.html');
await execa(process.execPath, [path.join(projectRoot, 'cli', 'nodebench.js'), 'report', resultFile, '--format', 'html', '--out', html]);
const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`file://${html}`, { waitUntil: 'load' });
  await page.evaluate(() => window.nodebenchDrawAll());
  if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
  await page.locator('#overview').screenshot({ path: pngFile });
} finally {
  await browser.close();
}
console.log(`${contextLine()}: ${path.relative(process.cwd(), pngFile)} from ${resultFile}`);
