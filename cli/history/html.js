// `history show --format html`: the offline page every view has (render/html-page.js: Chart.js
// inlined, the same style) with trend charts. One chart per benchmark (and host, and suite parameters when the
// history has several), one line per flag set (per runtime line and flag set by date), every point
// with its 95% interval drawn as an error bar, every change point as a dashed line labelled with
// its shift. The tables and change points in words follow, then the runs.
import { htmlPage } from '../render/html-page.js';
import { escapeHtml } from '../render/html-parts.js';
import { formatChange, displayName } from '../text/format.js';
import { compareVersions, pointValue } from './series.js';
import { seriesTitle, allChanges, changeLine, changeText } from './table.js';
import { terminalText } from '../text/escape.js';

// Draws the intervals and change points over Chart.js's lines; counts what it drew per chart
// (test/history-html.test.js reads chart.nodebenchMarks).
const TREND_SCRIPT = `
const data = JSON.parse(document.getElementById('nodebench-data').textContent);
const COLORS = ['rgb(20,60,160)', 'rgb(230,120,20)', 'rgb(40,150,70)', 'rgb(190,40,60)', 'rgb(120,70,170)', 'rgb(90,90,90)'];
const rate = (v) => (v >= 1e6 ? (v / 1e6).toPrecision(3) + 'M' : v >= 1e3 ? (v / 1e3).toPrecision(3) + 'k' : v.toPrecision(3));
const charts = [];
for (const spec of data.charts) {
  const marks = { intervals: 0, changes: 0 };
  const overlay = {
    id: 'nodebenchTrend',
    afterDatasetsDraw(chart) {
      const { ctx, scales: { x, y } } = chart;
      marks.intervals = 0;
      marks.changes = 0;
      ctx.save();
      chart.data.datasets.forEach((ds, i) => {
        if (!chart.isDatasetVisible(i)) return;
        ctx.strokeStyle = ds.borderColor;
        ctx.lineWidth = 1.5;
        chart.getDatasetMeta(i).data.forEach((el, j) => {
          const p = ds.data[j];
          if (p.low === null || p.high === null) return;
          const top = y.getPixelForValue(p.high);
          const bottom = y.getPixelForValue(p.low);
          ctx.beginPath();
          ctx.moveTo(el.x, top); ctx.lineTo(el.x, bottom);
          ctx.moveTo(el.x - 4, top); ctx.lineTo(el.x + 4, top);
          ctx.moveTo(el.x - 4, bottom); ctx.lineTo(el.x + 4, bottom);
          ctx.stroke();
          marks.intervals++;
        });
      });
      // Each label in the first row where it overlaps no other, on a white ground.
      ctx.font = '12px system-ui, sans-serif';
      const rows = [];
      spec.changes.forEach((c) => {
        const at = (x.getPixelForValue(spec.labels.indexOf(c.from)) + x.getPixelForValue(spec.labels.indexOf(c.to))) / 2;
        ctx.strokeStyle = c.slower ? 'rgb(200,30,30)' : 'rgb(30,140,60)';
        ctx.setLineDash([5, 4]);
        ctx.beginPath(); ctx.moveTo(at, y.top); ctx.lineTo(at, y.bottom); ctx.stroke();
        ctx.setLineDash([]);
        const width = ctx.measureText(c.text).width + 4;
        const left = at + 2 + width > chart.chartArea.right ? Math.max(chart.chartArea.left, at - 2 - width) : at + 2;
        let row = rows.findIndex((spans) => spans.every(([a, b]) => left + width < a || left > b));
        if (row < 0) row = rows.push([]) - 1;
        rows[row].push([left, left + width]);
        const top = y.top + 2 + 15 * row;
        ctx.fillStyle = 'rgba(255,255,255,0.85)';
        ctx.fillRect(left, top, width, 14);
        ctx.fillStyle = ctx.strokeStyle;
        ctx.fillText(c.text, left + 2, top + 11);
        marks.changes++;
      });
      ctx.restore();
    }
  };
  const chart = new Chart(document.getElementById(spec.id), {
    type: 'line',
    data: {
      labels: spec.labels,
      datasets: spec.lines.map((line, i) => ({ label: line.label, data: line.points, borderColor: COLORS[i % COLORS.length], backgroundColor: COLORS[i % COLORS.length], pointRadius: 4, borderWidth: 2 }))
    },
    options: {
      animation: false,
      responsive: false,
      scales: { x: { type: 'category' }, y: { type: spec.logScale ? 'logarithmic' : 'linear', suggestedMin: spec.min, suggestedMax: spec.max, title: { display: true, text: spec.unit } } },
      plugins: { tooltip: { callbacks: { label: (item) => item.dataset.label + ': ' + rate(item.raw.y) + ' ' + spec.unit + ' (95% ' + (item.raw.low === null ? '?' : rate(item.raw.low)) + ' .. ' + (item.raw.high === null ? '?' : rate(item.raw.high)) + ')' } } }
    },
    plugins: [overlay]
  });
  chart.nodebenchMarks = marks;
  charts.push(chart);
}
window.nodebenchCharts = charts;
`;

// Category labels must be unique: two runs in the same minute without a label get a suffix.
function labelsOf(points, by) {
  const xs = [...new Map(points.map((p) => [p.x, p])).values()];
  xs.sort(by === 'version' ? (a, b) => compareVersions(a.x, b.x) : (a, b) => (a.x < b.x ? -1 : a.x > b.x ? 1 : 0));
  const used = new Map();
  const labelOf = new Map();
  for (const p of xs) {
    const name = displayName(p.name);
    const n = (used.get(name) || 0) + 1;
    used.set(name, n);
    labelOf.set(p.x, n > 1 ? `${name} #${n}` : name);
  }
  return { labels: xs.map((p) => labelOf.get(p.x)), labelOf };
}

// One chart per benchmark (with its host, parameters, measure and a count's architecture); its series
// are the lines.
export function trendCharts(analysis) {
  const groups = new Map();
  for (const s of analysis.series) {
    // Time and counts never share a chart: their units differ; nor counts of two architectures,
    // two binaries (a chart's title names one).
    const key = JSON.stringify([s.suite, s.benchmark, s.params, s.host, s.measure, s.arch]);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(s);
  }
  return [...groups.values()].map((series, i) => {
    const { labels, labelOf } = labelsOf(series.flatMap((s) => s.points), analysis.by);
    const ok = series.flatMap((s) => s.points.filter((p) => p.status === 'ok'));
    const inUnit = (p) => pointValue(series[0], p);
    const values = ok.flatMap((p) => Object.values(inUnit(p))).filter((v) => v > 0);
    const [min, max] = [Math.min(...values), Math.max(...values)];
    // Room above the data for the change points' labels (a row each at most, four at most).
    const labelRows = Math.min(4, series.reduce((n, s) => n + s.changes.length, 0));
    const logScale = max / min > 3;
    const top = logScale ? max * (max / min) ** (0.09 * labelRows) : max + (max - min || max) * 0.09 * labelRows;
    const missing = series.flatMap((s) => s.points.filter((p) => p.status !== 'ok').map((p) => `${displayName(p.name)} ${displayName(s.flagSet)}: ${p.status}`));
    return {
      id: `trend-${i}`,
      suite: displayName(series[0].suite),
      title: seriesTitle(series[0], analysis, { withFlagSet: false, withLine: false }),
      unit: series[0].measure === 'time' ? 'ops/s' : series[0].unit,
      labels,
      width: Math.min(1400, Math.max(420, 60 * labels.length)),
      min,
      max: top,
      logScale,
      lines: series.map((s) => ({
        label: terminalText(s.line !== null ? `${displayName(s.line)} ${displayName(s.flagSet)}` : displayName(s.flagSet)),
        points: s.points.filter((p) => p.status === 'ok').map((p) => ({ x: labelOf.get(p.x), y: inUnit(p).value, low: inUnit(p).low, high: inUnit(p).high }))
      })),
      // On the chart the shift only; with its interval in the note under it.
      changes: series.flatMap((s) => s.changes.map((c) => ({ from: labelOf.get(c.from.x), to: labelOf.get(c.to.x), slower: c.ratio < 1, text: `${series.length > 1 ? `${terminalText(displayName(s.flagSet))} ` : ''}${formatChange(c.ratio)}${c.isNew ? ' new' : ''}` }))),
      note: [...series.flatMap((s) => s.changes.map((c) => `${series.length > 1 ? `${displayName(s.flagSet)} ` : ''}${displayName(c.from.name)} -> ${displayName(c.to.name)}: ${changeText(c)}${c.isNew ? ' (new)' : ''}.`)),
        missing.length ? `No value: ${missing.join(', ')}.` : ''].filter(Boolean).map(terminalText).join(' ')
    };
  });
}

function runsTable(analysis) {
  const rows = analysis.entries.map((e) => [e.createdAt, e.label || '', e.commit || '', e.nodebench, e.runtimes.map((r) => r.version).join(', '), e.source, e.id]);
  return `<table class="env"><tr>${['run', 'label', 'commit', 'nodebench', 'runtimes', 'added from', 'id'].map((h) => `<th>${h}</th>`).join('')}</tr>${rows.map((r) => `<tr>${r.map((v) => `<td>${escapeHtml(terminalText(v))}</td>`).join('')}</tr>`).join('')}</table>`;
}

export function renderHistoryHtml(analysis, { store, text }) {
  const charts = trendCharts(analysis);
  const suites = [...new Set(charts.map((c) => c.suite))];
  const changes = allChanges(analysis);
  return htmlPage({
    title: `nodebench history: ${analysis.entries.length} run(s), by ${analysis.by}`,
    intro: `Store ${terminalText(store)}. Each chart: operations per second of one benchmark (instructions per operation where it was counted in instructions), one line per flag set${analysis.by === 'date' ? ' and runtime' : ''}; bars: each point's 95% interval across runs; dashed lines: change points (red slower, green faster) with the shift and its 95% interval.`,
    charts,
    script: TREND_SCRIPT,
    sections: [
      { title: 'Change points', html: `<pre>${escapeHtml(changes.length ? changes.map(({ s, c }) => changeLine(s, c, analysis)).join('\n') : 'No change points.')}</pre>` },
      ...suites.map((suite) => ({ title: terminalText(suite), chartIds: charts.filter((c) => c.suite === suite).map((c) => c.id) })),
      { title: 'Series', html: `<pre>${escapeHtml(text)}</pre>` },
      { title: 'Runs', html: runsTable(analysis) }
    ]
  });
}
