// The page every HTML view is (report, diff, history, explain): one self-contained file that opens
// offline. Chart.js (its UMD build, read from node_modules when the page is written) is inlined with
// the page's data, so there is no CDN and no network; the style and the sorting of tables are
// html-parts.js's. A view gives its title, intro, sections and charts, and the script that draws
// them (the default draws charts of ratios and raw rates, as the report and diff pages have them).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { escapeHtml, nameHtml, SORT_SCRIPT, HEAT_SCRIPT, PAGE_STYLE } from './html-parts.js';
import { displayName } from '../text/format.js';

const require = createRequire(import.meta.url);
let chartSource;
// The package exports only its module entry points; the UMD build sits beside them in dist/.
const chartLibrary = () => (chartSource ??= fs.readFileSync(path.join(path.dirname(require.resolve('chart.js')), 'chart.umd.min.js'), 'utf8'));

// JSON inside <script>: "</script>" or "<!--" in a benchmark name must not end the element; the
// control and bidirectional characters JSON.stringify leaves raw are written as \u escapes too, so
// that the page holds none (output-safety.test.js).
const scriptJson = (value) => JSON.stringify(value).replace(/[<\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

// The charts of the report and diff pages: a chart spec has `views` (ratio and raw, or one), each
// with intervals, values, points, the axis unit and whether it is logarithmic; `view` is the one drawn first. The
// words many views share (unit, legend labels) are said once, in data.shared[view.kind].
// On a page small enough to draw whole (not body.lazy, see htmlPage) every chart is drawn at load, so
// that a full-page capture or a print shows them all; on a large one a chart is made when its canvas
// nears the viewport, and window.nodebenchDrawAll() (or printing) draws the rest.
const CHART_SCRIPT = `
const data = JSON.parse(document.getElementById('nodebench-data').textContent);
const specs = new Map(data.charts.map((spec) => [spec.id, spec]));
const drawn = new Map();
const charts = [];
let wanted = 'ratio';
function config(spec) {
  const view = spec.views[wanted] || spec.views[spec.view];
  const v = Object.assign({}, data.shared[view.kind], view);
  const datasets = [
    { type: 'bar', label: v.intervalLabel, data: v.intervals, backgroundColor: 'rgba(84,39,136,0.28)', borderColor: 'rgba(84,39,136,0.9)', borderWidth: 1, barPercentage: 0.35 },
    { type: 'scatter', label: v.valueLabel, data: v.values, backgroundColor: 'rgb(45,0,75)', pointRadius: 6 },
    { type: 'scatter', label: v.pointsLabel, data: v.points, backgroundColor: 'rgba(224,130,20,0.85)', pointRadius: 3 }
  ];
  if (!v.points.length) datasets.pop();
  if (v.reference !== undefined) datasets.push({ type: 'line', label: v.referenceLabel, data: spec.labels.map((x) => ({ x, y: v.reference })), borderColor: '#777', borderDash: [4, 4], borderWidth: 1, pointRadius: 0 });
  return { data: { labels: spec.labels, datasets }, options: { animation: false, responsive: false, plugins: { legend: { labels: { boxWidth: 14 } } }, scales: { x: { type: 'category' }, y: { type: v.log ? 'logarithmic' : 'linear', beginAtZero: v.reference === undefined, title: { display: true, text: v.unit } } } } };
}
function draw(canvas) {
  if (!canvas || drawn.has(canvas.id)) return;
  const chart = new Chart(canvas, config(specs.get(canvas.id)));
  drawn.set(canvas.id, chart);
  charts.push(chart);
}
const seen = new IntersectionObserver((entries) => {
  for (const entry of entries) if (entry.isIntersecting) { seen.unobserve(entry.target); draw(entry.target); }
}, { rootMargin: '600px 0px' });
window.nodebenchCharts = charts;
window.nodebenchDrawAll = () => { for (const spec of data.charts) draw(document.getElementById(spec.id)); return charts.length; };
if (document.body.classList.contains('lazy')) {
  for (const spec of data.charts) if (!spec.empty) seen.observe(document.getElementById(spec.id));
  window.addEventListener('beforeprint', window.nodebenchDrawAll);
} else window.nodebenchDrawAll();
const toggle = document.getElementById('raw-toggle');
if (toggle) toggle.addEventListener('change', () => {
  wanted = toggle.checked ? 'raw' : 'ratio';
  charts.forEach((chart, i) => {
    const canvas = chart.canvas;
    chart.destroy();
    charts[i] = new Chart(canvas, config(specs.get(canvas.id)));
    drawn.set(canvas.id, charts[i]);
  });
});
`;

// script: the page's own chart code (default: CHART_SCRIPT, the report's and diff's charts; history/html.js draws trends);
// it reads the charts from #nodebench-data. A chart may set its own width and height, and an anchor
// (the id of its figure). A section has a title, optionally an id, `lead` (HTML before its charts)
// and `html` (after them), and `height`, its estimated height in pixels: such a section is laid out
// only when it nears the viewport (CSS content-visibility), which is what lets a page of 10,000
// cells open in seconds. introHtml: markup the caller built (escaped already) after the intro.
// A chart with nothing to draw (`empty`: no column of the benchmark ran) is its caption and note.
// A chart of many columns is at most CHART_WIDTH wide (a 1280 px window's page, whose fifteen-column
// charts were 1800 px and widened the page); a narrower window scrolls the figure, not the page.
export const CHART_WIDTH = 1100;
export const chartFigure = (c) => `<figure${c.anchor ? ` id="${c.anchor}" class="bench"` : ''}><figcaption>${nameHtml(c.title, 120)}</figcaption>${c.empty ? '' : `<canvas id="${c.id}" width="${c.width ?? Math.min(CHART_WIDTH, Math.max(420, 120 * c.labels.length))}" height="${c.height ?? 300}"></canvas>`}${c.note ? `<p class="note">${escapeHtml(c.note)}</p>` : ''}</figure>`;

// A page is drawn whole unless it is large: content-visibility and charts drawn on scroll are what
// let 10,000 cells open in seconds (docs/architecture.md), and what left a full-page capture of a
// default matrix's report with blank heat maps and charts (issue 39, item 3). Past either bound the
// page's body is "lazy" and defers them.
export const EAGER_CHARTS = 200;
export const EAGER_CHARACTERS = 3_000_000;

export function htmlPage({ title, intro, introHtml = '', charts, shared = {}, sections, script = CHART_SCRIPT }) {
  const chartBlocks = new Map(charts.map((c) => [c.id, chartFigure(c)]));
  const body = sections.map((s) => `<section${s.id ? ` id="${s.id}"` : ''}${s.height ? ` class="deferred" style="contain-intrinsic-block-size:auto ${Math.round(s.height)}px"` : ''}><h2>${nameHtml(s.title, 200)}</h2>${s.lead || ''}${(s.chartIds || []).map((id) => chartBlocks.get(id)).join('\n')}${s.html || ''}</section>`).join('\n');
  const lazy = charts.length > EAGER_CHARTS || body.length > EAGER_CHARACTERS;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(displayName(title))}</title>
<style>${PAGE_STYLE}</style>
</head><body${lazy ? ' class="lazy"' : ''}>
<h1>${nameHtml(title, 200)}</h1>
<p>${escapeHtml(intro)}</p>
${introHtml}
${body}
<script>${chartLibrary()}</script>
<script type="application/json" id="nodebench-data">${scriptJson({ charts, shared })}</script>
<script>${script}</script>
<script>${SORT_SCRIPT}${HEAT_SCRIPT}</script>
</body></html>
`;
}
