// The HTML report: one offline page (render/html-page.js, Chart.js inlined, no network).
// The overview comes first (render/overview.js, drawn by render/html-parts.js): the verdict
// counts, the decided changes (slower, then faster, each largest first), and per suite a heat map of the ratios to the
// baseline. Then the detail per suite: each benchmark's chart of its ratios with their intervals (raw ops/s on request), a
// table sortable by any column, the runtime metrics as small charts beside their table; the service
// and command tables and the environment follow. Charts are drawn when they scroll into view, so
// that a result of 10,000 cells opens in seconds (bench/report-render.js).
import { columnsWithCells, cellsBySuite, suiteIndex, processRates } from '../results/grid.js';
import { columnsOf, columnKey } from '../cell-identity.js';
import { renderServiceTables } from './service-table.js';
import { renderCommandTables } from './command-table.js';
import { isOptimizedAway, FOLDED_MARK, FOLDED_PHRASE, hasEstimate, NO_ESTIMATE, ratioInterval, excludesOne } from '../render/marks.js';
import { formatRate, formatPct, formatRatio, formatFraction, displayName } from '../text/format.js';
import { reportOverview, spreadText, countsText, againstText } from '../render/overview.js';
import { escapeHtml, nameHtml, chartLabel, overviewHtml, sortableTable } from '../render/html-parts.js';
import { htmlPage, chartFigure } from '../render/html-page.js';
import { terminalText } from '../text/escape.js';
import { measureOfResult, MEASURES } from '../measure.js';
import { summarizeMetricRuns, METRICS } from '../stats/metrics.js';
import { reportWarningLines } from '../render/run-warnings.js';

// Per benchmark: one point per column with the interval and the per-process values: rates (ops/s),
// or in a run counted in instructions, instructions per operation (a rate per 10^9 instructions
// drawn under "ops/s" was a number no one measures).
export function chartData(result) {
  const columns = columnsOf(result);
  const counted = measureOfResult(result).id === 'instructions';
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
          const shown = counted
            ? { value: s.estimate, low: s.ci?.low > 0 ? s.ci.low : null, high: s.ci?.high > 0 ? s.ci.high : null, perProcess: s.processMedians ?? [] }
            : { value: s.opsPerSec, low: s.ci && s.ci.high > 0 ? 1e9 / s.ci.high : null, high: s.ci && s.ci.low > 0 ? 1e9 / s.ci.low : null, perProcess: processRates(cell) };
          return { key: col.key, status: 'ok', optimizedAway: isOptimizedAway(cell.warnings), ...shown };
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
  return `<table class="env">${rows.map(([k, v]) => `<tr><th>${nameHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</table>`;
}

// Values spanning more than 10x are drawn on a log axis (a 19x ratio would flatten the others).
const wideSpan = (values) => {
  const positive = values.filter((v) => v > 0 && Number.isFinite(v));
  return positive.length > 1 && Math.max(...positive) / Math.min(...positive) > 10;
};

const okColumns = (b) => b.columns.filter((c) => c.status === 'ok');

// Four significant digits are more than a chart can show, and keep a large page small.
const round = (x) => (Number.isFinite(x) ? Number(x.toPrecision(4)) : x);

// An axis title is one line per entry, each short enough for a 300 px chart's side: written as one
// line it was cut ("(above 1 = fa…", "a flag set's column aga…", issue 39, item 3).
const ratioUnit = (overview, counted) => [`ratio to ${chartLabel(overview.baseline ?? 'the baseline')}`,
  ...(overview.referenceNote ? ['(a flag set: to its runtime\'s baseline)'] : []), counted ? '(above 1 = fewer instructions)' : '(above 1 = faster)'];

const sharedWords = (overview, counted) => ({
  raw: { unit: counted ? 'instructions per operation' : 'ops/s', intervalLabel: '95% interval', valueLabel: 'estimate', pointsLabel: 'each process' },
  ratio: { unit: ratioUnit(overview, counted), intervalLabel: '95% interval of the ratio', valueLabel: 'ratio', pointsLabel: 'per-block ratios', referenceLabel: 'no change' },
  metric: { intervalLabel: '95% interval over metrics processes', valueLabel: 'mean', pointsLabel: '' }
});

// Raw values of one benchmark (chartData's): estimate, interval and each process, per column.
function rawView(b) {
  const ok = okColumns(b);
  const labels = new Map(b.columns.map((c) => [c.key, chartLabel(c.key)]));
  return {
    kind: 'raw',
    intervals: ok.filter((c) => c.low !== null && c.high !== null).map((c) => ({ x: labels.get(c.key), y: [round(c.low), round(c.high)] })),
    values: ok.map((c) => ({ x: labels.get(c.key), y: round(c.value) })),
    points: ok.flatMap((c) => c.perProcess.map((y) => ({ x: labels.get(c.key), y: round(y) }))),
    log: wideSpan(ok.flatMap((c) => [c.low, c.high, c.value]))
  };
}

// Ratios of one benchmark to the baseline (the overview's row): the ratio, its interval, the
// per-block ratios of a paired comparison as points, 1x drawn as the reference.
function ratioView(row, columns) {
  const withRatio = row.cells.map((cell, i) => ({ cell, label: chartLabel(columns[i].key) })).filter(({ cell }) => Number.isFinite(cell.ratio));
  if (!withRatio.length) return null;
  return {
    kind: 'ratio',
    reference: 1,
    intervals: withRatio.map(({ cell, label }) => ({ x: label, y: [round(cell.low), round(cell.high)] })),
    values: withRatio.map(({ cell, label }) => ({ x: label, y: round(cell.ratio) })),
    points: withRatio.flatMap(({ cell, label }) => (cell.spread.find((x) => x.values)?.values || []).map((y) => ({ x: label, y: round(y) }))),
    log: wideSpan([1, ...withRatio.flatMap(({ cell }) => [cell.low, cell.high])])
  };
}

const number = (value, text) => ({ value, text });
const VERDICT_CLASS = new Set(['faster', 'slower']);

// One sortable table per suite: a row per cell, every figure the terminal table shows and more;
// the value's heading is its measure's (ops/s, or instr/op for a counted run).
function suiteTable(overviewSuite, valueHeader) {
  const header = ['benchmark', 'column', valueHeader, '± margin', 'ratio', '95% interval', 'q', 'verdict', 'spread'];
  const rows = overviewSuite.rows.flatMap((row) => row.cells.map((cell, i) => {
    const column = overviewSuite.columns[i];
    if (cell.status === 'absent') return null;
    const name = { text: row.benchmark, html: `<a href="#${row.id}">${nameHtml(row.benchmark)}</a>` };
    if (cell.status !== 'ok') return [name, column.key, { text: cell.status }, '', '', '', '', { text: terminalText(cell.note || cell.status) }, ''];
    const ratio = Number.isFinite(cell.ratio);
    return [name, column.key + (column.isBaseline ? ' (baseline)' : ''),
      number(cell.sortValue, `${cell.valueText ?? formatRate(cell.opsPerSec)}${cell.folded && !ratio ? FOLDED_MARK : ''}`),
      number(cell.rme, hasEstimate(cell.rme) ? formatPct(cell.rme) : NO_ESTIMATE),
      ratio ? number(cell.ratio, `${formatRatio(cell.ratio)}${cell.mark}`) : '',
      ratio ? number(cell.high / cell.low, ratioInterval(cell.low, cell.high, formatRatio)) : '',
      ratio && Number.isFinite(cell.q) ? number(cell.q, cell.q < 0.001 ? '<0.001' : cell.q.toFixed(3)) : '',
      ratio ? { text: excludesOne(cell.verdict, cell.low, cell.high) ? `${cell.verdict}: its interval alone leaves out 1x, not so at the false discovery rate over all ratios` : cell.verdict, className: VERDICT_CLASS.has(cell.verdict) ? cell.verdict : '' } : { text: column.isBaseline ? 'baseline' : '' },
      { text: spreadText(cell.spread) }];
  })).filter(Boolean);
  return sortableTable(header, rows, { className: 'cells' });
}

// Runtime metrics drawn: main-thread GC share, event-loop delay p99 and peak RSS with their
// intervals over metrics processes (stats/metrics.js); the table has every metric the terminal's.
const DRAWN_METRICS = ['gc-share', 'loop-delay-p99', 'peak-rss'];
// The terminal metrics table's columns (metrics-table.js), with its short headings.
const TABLE_METRICS = [['GC share', 'gc-share'], ['scavenge ms/s', 'scavenge-ms'], ['mark-compact ms/s', 'mark-compact-ms'], ['CPU/wall', 'cpu-wall'], ['loop delay p99 ms', 'loop-delay-p99'], ['peak RSS', 'peak-rss']];
const METRIC_FORMAT = {
  'gc-share': (x) => formatFraction(x),
  'cpu-wall': (x) => formatFraction(x),
  'peak-rss': (x) => `${(x / 1048576).toFixed(0)} MB`
};
const metricFormat = (id) => METRIC_FORMAT[id] ?? ((x) => (Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(1)));
const metricScale = (id) => (id === 'peak-rss' ? 1 / 1048576 : id === 'gc-share' ? 100 : 1);
const metricUnit = { 'gc-share': 'GC share of wall time, %', 'loop-delay-p99': 'event-loop delay p99, ms', 'peak-rss': 'peak RSS, MB' };

function metricsOf(cell) {
  const m = cell.metrics;
  if (cell.status !== 'ok' || !m || m.error) return null;
  return m.intervals || summarizeMetricRuns([m]).intervals;
}

function metricsSection(suite, cells, charts) {
  const measured = cells.map((cell) => ({ cell, intervals: metricsOf(cell) })).filter((x) => x.intervals);
  if (!measured.length) return '';
  const label = (cell) => chartLabel(`${cell.benchmark} ${columnKey(cell)}`);
  const figures = DRAWN_METRICS.map((id) => {
    const points = measured.filter((x) => x.intervals[id]);
    if (!points.length) return null;
    const scale = metricScale(id);
    const chart = {
      id: `chart-${charts.length}`,
      title: `${displayName(suite)}: ${METRICS.find((m) => m.id === id).label}`,
      width: Math.min(900, Math.max(320, 60 * points.length)),
      height: 260,
      labels: points.map((x) => label(x.cell)),
      view: 'raw',
      views: {
        raw: {
          kind: 'metric',
          unit: metricUnit[id],
          intervals: points.filter((x) => x.intervals[id].low !== null).map((x) => ({ x: label(x.cell), y: [round(x.intervals[id].low * scale), round(x.intervals[id].high * scale)] })),
          values: points.map((x) => ({ x: label(x.cell), y: round(x.intervals[id].estimate * scale) })),
          points: [],
          log: false
        }
      }
    };
    charts.push(chart);
    return chartFigure(chart);
  }).filter(Boolean);
  const header = ['benchmark', 'column', ...TABLE_METRICS.map(([heading]) => heading)];
  const rows = measured.map(({ cell, intervals }) => [displayName(cell.benchmark), displayName(columnKey(cell)), ...TABLE_METRICS.map(([, id]) => {
    const interval = intervals[id];
    if (!interval) return { text: 'n/a' };
    const format = metricFormat(id);
    return number(interval.estimate, interval.low === null ? format(interval.estimate) : `${format(interval.estimate)} [${format(interval.low)}–${format(interval.high)}]`);
  })]);
  // The charts sit beside their table.
  return `<h3>GC, CPU, event-loop delay and memory</h3><div class="metrics">${figures.join('')}${sortableTable(header, rows, { className: 'metrics-table' })}</div>`;
}

export function renderHtml(result, { baseline } = {}) {
  const overview = reportOverview(result, { baseline });
  const against = againstText(overview);
  const bySuite = new Map(overview.suites.map((s) => [s.suite, s]));
  const charts = [];
  const cellsOf = cellsBySuite(result.cells);
  const counted = measureOfResult(result).id === 'instructions';
  const detail = chartData(result).map((suite) => {
    const shaped = bySuite.get(suite.suite);
    const ids = suite.benchmarks.map((b, r) => {
      const ok = okColumns(b);
      const missing = b.columns.filter((c) => c.status !== 'ok');
      const ratio = ratioView(shaped.rows[r], shaped.columns);
      const raw = rawView(b);
      const id = `chart-${charts.length}`;
      charts.push({
        id,
        anchor: shaped.rows[r].id,
        empty: ok.length === 0,
        title: `${displayName(suite.suite)} / ${displayName(b.benchmark)}`,
        labels: b.columns.map((c) => chartLabel(c.key)),
        view: ratio ? 'ratio' : 'raw',
        views: ratio ? { ratio, raw } : { raw },
        note: [missing.length ? `No value: ${missing.map((c) => `${displayName(c.key)} ${c.status}`).join(', ')}.` : '',
          ...ok.filter((c) => c.high === null).map((c) => `${displayName(c.key)}: the interval has no upper bound (margin over 100%); measure with more processes.`),
          ...ok.filter((c) => c.optimizedAway).map((c) => `${displayName(c.key)} ${FOLDED_MARK} optimized away: ${FOLDED_PHRASE}, so its rate and ratios measure the loop, not the operation.`)].filter(Boolean).join(' ')
      });
      return id;
    });
    const metrics = metricsSection(suite.suite, cellsOf.get(suite.suite), charts);
    // Two charts a row on a common screen, a table row of ~22 px, the metrics charts and table.
    const height = 100 + Math.ceil(ids.length / 2) * 400 + shaped.rows.length * shaped.columns.length * 22 + (metrics ? 400 : 0);
    return { title: `${displayName(suite.suite)}: detail`, id: `detail-${shaped.id}`, height, chartIds: ids, html: `<h3>Table</h3>${suiteTable(shaped, counted ? MEASURES.instructions.valueHeader : 'ops/s')}${metrics}` };
  });
  const service = renderServiceTables(result);
  const commands = renderCommandTables(result);
  const sections = [
    { title: 'Overview', id: 'overview', html: overviewHtml(overview, { against, runWarnings: reportWarningLines(result) }) },
    ...detail,
    ...(service ? [{ title: 'Service latencies', html: `<pre>${escapeHtml(service)}</pre>` }] : []),
    ...(commands ? [{ title: 'Whole commands', html: `<pre>${escapeHtml(commands)}</pre>` }] : []),
    { title: 'Environment', html: environment(result) }
  ];
  return htmlPage({
    title: `nodebench report: ${result.runtimes.map((r) => r.label).join(', ')}`,
    // An instructions run's ratios are of counts (fewer instructions above 1x), never of time.
    intro: counted
      ? `Ratios of instruction counts per operation (counted under valgrind; above 1x is fewer instructions) to ${terminalText(against)}: ${countsText(overview)}. Each chart: the ratio per runtime/flag set with its 95% interval (log axis where the values span more than 10x). Instructions are not time: docs/instructions.md says what they leave out.`
      : `Ratios of operations per second to ${terminalText(against)}: ${countsText(overview)}. Each chart: the ratio per runtime/flag set with its 95% interval (log axis where the values span more than 10x); the checkbox below shows raw ops/s instead (dot = estimate, bar = 95% interval, small points = each fresh process).`,
    introHtml: counted ? '' : '<p class="toggle"><label><input type="checkbox" id="raw-toggle"> show raw ops/s in the charts instead of ratios</label></p>',
    charts,
    shared: sharedWords(overview, counted),
    sections
  });
}
