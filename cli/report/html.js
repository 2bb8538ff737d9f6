// A self-contained HTML report: one file that opens offline. Chart.js (its UMD build, read from
// node_modules at report time) is inlined with the data, so there is no CDN and no network.
// Per suite, each benchmark gets a chart across runtimes and flag sets: the estimate as a dot, its
// 95% interval as a bar, and every process's own value as small points (two clusters mean a
// bimodal benchmark); the text tables, metrics, service latencies and the environment follow.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { columnsOf, columnsWithCells, cellsBySuite, suiteIndex } from './columns.js';
import { renderTables } from './table.js';
import { renderMetricsTables } from './metrics-table.js';
import { renderServiceTables } from './service-table.js';
import { processRates } from './distribution.js';
import { isOptimizedAway, FOLDED_MARK } from './notes.js';

const require = createRequire(import.meta.url);
let chartSource;
// The package exports only its module entry points; the UMD build sits beside them in dist/.
const chartLibrary = () => (chartSource ??= fs.readFileSync(path.join(path.dirname(require.resolve('chart.js')), 'chart.umd.min.js'), 'utf8'));

export const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
// JSON inside <script>: "</script>" or "<!--" in a benchmark name must not end the element.
const scriptJson = (value) => JSON.stringify(value).replace(/</g, '\\u003c');

// Per benchmark: one point per column with the interval and the per-process rates (ops/s).
export function chartData(result) {
  const columns = columnsOf(result);
  return [...cellsBySuite(result.cells)].map(([suite, cells]) => {
    const suiteColumns = columnsWithCells(columns, cells);
    const { benchmarks, cellAt } = suiteIndex(cells);
    return {
      suite,
      benchmarks: benchmarks.map((benchmark) => ({
        benchmark,
        columns: suiteColumns.map((col) => {
          const cell = cellAt(benchmark, col);
          if (!cell || cell.status !== 'ok') return { key: col.key, status: cell ? cell.status : 'absent' };
          const s = cell.summary;
          return {
            key: col.key,
            status: 'ok',
            optimizedAway: isOptimizedAway(cell.warnings),
            opsPerSec: s.opsPerSec,
            low: s.ci && s.ci.high > 0 ? 1e9 / s.ci.high : null,
            high: s.ci && s.ci.low > 0 ? 1e9 / s.ci.low : null,
            perProcess: processRates(cell)
          };
        })
      }))
    };
  });
}

function environment(result) {
  const h = result.host;
  const rows = [['host', `${h.hostname}: ${h.cpuModel}, ${h.cores} cores, ${(h.memoryBytes / 2 ** 30).toFixed(1)} GiB, ${h.os} ${h.kernel}`],
    ['load average', `${(h.loadAverageStart || []).join(' ')} at start${h.loadAverageEnd ? `, ${h.loadAverageEnd.join(' ')} at end` : ''}`],
    ...result.runtimes.map((r) => [`runtime ${r.label}`, `Node ${r.version}, V8 ${r.v8}, ${r.arch}, from ${r.provider}`]),
    ...result.flagSets.map((f) => [`flag set ${f.name}`, f.flags.join(' ') || '(none)']),
    ['run', `${result.status}, created ${result.createdAt}, nodebench ${result.nodebench.version}`]];
  return `<table class="env">${rows.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</table>`;
}

const PAGE_SCRIPT = `
const data = JSON.parse(document.getElementById('nodebench-data').textContent);
const charts = [];
for (const spec of data.charts) {
  const canvas = document.getElementById(spec.id);
  charts.push(new Chart(canvas, {
    data: {
      labels: spec.labels,
      datasets: [
        { type: 'bar', label: spec.intervalLabel, data: spec.intervals, backgroundColor: 'rgba(54,162,235,0.35)', barPercentage: 0.35 },
        { type: 'scatter', label: spec.valueLabel, data: spec.values, backgroundColor: 'rgb(20,60,160)', pointRadius: 6 },
        { type: 'scatter', label: spec.pointsLabel, data: spec.points, backgroundColor: 'rgba(230,120,20,0.8)', pointRadius: 3 }
      ]
    },
    options: { animation: false, responsive: false, scales: { x: { type: 'category' }, y: { title: { display: true, text: spec.unit } } } }
  }));
}
window.nodebenchCharts = charts;
`;

// script: the page's own chart code (default: the report's interval charts; history/html.js
// draws trends); it reads the charts from #nodebench-data. A chart may set its own width.
export function htmlPage({ title, intro, charts, sections, script = PAGE_SCRIPT }) {
  const chartBlocks = new Map(charts.map((c) => [c.id, `<figure><figcaption>${escapeHtml(c.title)}</figcaption><canvas id="${c.id}" width="${c.width ?? Math.max(420, 120 * c.labels.length)}" height="300"></canvas>${c.note ? `<p class="note">${escapeHtml(c.note)}</p>` : ''}</figure>`]));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2em;color:#222}figure{display:inline-block;margin:0 1em 1em 0;vertical-align:top}figcaption{font-weight:600}
pre{background:#f6f6f6;padding:1em;overflow:auto;font-size:12px}table.env th{text-align:left;padding-right:1em}.note{font-size:12px;color:#666;max-width:40em}</style>
</head><body>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(intro)}</p>
${sections.map((s) => `<section><h2>${escapeHtml(s.title)}</h2>${(s.chartIds || []).map((id) => chartBlocks.get(id)).join('\n')}${s.html || ''}</section>`).join('\n')}
<script>${chartLibrary()}</script>
<script type="application/json" id="nodebench-data">${scriptJson({ charts })}</script>
<script>${script}</script>
</body></html>
`;
}

export function renderHtml(result, { baseline } = {}) {
  const charts = [];
  const sections = chartData(result).map((suite) => {
    const ids = suite.benchmarks.map((b) => {
      const ok = b.columns.filter((c) => c.status === 'ok');
      const missing = b.columns.filter((c) => c.status !== 'ok');
      const id = `chart-${charts.length}`;
      charts.push({
        id,
        title: `${suite.suite} / ${b.benchmark}`,
        unit: 'ops/s',
        labels: b.columns.map((c) => c.key),
        intervalLabel: '95% interval',
        valueLabel: 'estimate',
        pointsLabel: 'each process',
        intervals: ok.filter((c) => c.low !== null && c.high !== null).map((c) => ({ x: c.key, y: [c.low, c.high] })),
        values: ok.map((c) => ({ x: c.key, y: c.opsPerSec })),
        points: ok.flatMap((c) => c.perProcess.map((y) => ({ x: c.key, y }))),
        note: [missing.length ? `No value: ${missing.map((c) => `${c.key} ${c.status}`).join(', ')}.` : '',
          ...ok.filter((c) => c.high === null).map((c) => `${c.key}: the interval has no upper bound (margin over 100%); measure with more processes.`),
          ...ok.filter((c) => c.optimizedAway).map((c) => `${c.key} ${FOLDED_MARK} optimized away: ran no slower than an empty benchmark, so its rate and ratios measure the loop, not the operation.`)].filter(Boolean).join(' ')
      });
      return id;
    });
    return { title: suite.suite, chartIds: ids };
  });
  const tables = renderTables(result, { baseline }) + renderServiceTables(result);
  sections.push({ title: 'Tables', html: `<pre>${escapeHtml(tables)}</pre>` });
  sections.push({ title: 'GC, CPU, event-loop delay and memory', html: `<pre>${escapeHtml(renderMetricsTables(result))}</pre>` });
  sections.push({ title: 'Environment', html: environment(result) });
  return htmlPage({
    title: `nodebench report: ${result.runtimes.map((r) => r.label).join(', ')}`,
    intro: 'Each chart: operations per second per runtime/flag set; dark dot = estimate, bar = 95% interval, small points = each fresh process (two clusters mean the benchmark is bimodal).',
    charts,
    sections
  });
}
