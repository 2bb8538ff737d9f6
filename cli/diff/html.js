// diff's HTML format: one offline page (render/html-page.js) with the overview's heat maps, the
// chart of the changes and the rows as a sortable table (rows.js has the cells every format shares).
import { diffOverview, countsText } from '../render/overview.js';
import { htmlPage } from '../render/html-page.js';
import { escapeHtml, chartLabel, overviewHtml, sortableTable } from '../render/html-parts.js';
import { FOLDED_MARK, FOLDED_PHRASE } from '../render/marks.js';
import { rowKey } from '../cell-identity.js';
import { rateOf, measureOfCell } from '../measure.js';
import { displayName } from '../text/format.js';
import { metricRows, metricSummary, METRIC_HEADER } from './metrics.js';
import { diffHeader, diffRowCells, diffSummaryLines, diffWarningLines, environmentRows, isDecidedChange, changeSize, folded } from './rows.js';
import { gateHeadline, failureColumns } from './gate.js';

// The ratios with their intervals as one chart (B over A, 1 = no change), the table underneath.
// A chart of more comparisons than this is unreadable: it shows the decided ones, largest first.
export const CHART_COMPARISONS = 60;

const countedRows = (rows) => measureOfCell(rows.find((r) => r.a)?.a).id === 'instructions';

export function renderDiffHtml(rows, { fileA, fileB }) {
  const all = rows.filter((r) => r.comparison);
  const compared = all.length <= CHART_COMPARISONS ? all
    : all.filter(isDecidedChange).sort((x, y) => changeSize(y) - changeSize(x)).slice(0, CHART_COMPARISONS);
  // Long "runtime/flags -> runtime/flags" labels would squeeze the plot: name the column only when
  // the rows differ in it, and say the single column in the title otherwise.
  const columns = [...new Set(compared.map((r) => r.column))];
  const labels = compared.map((r) => chartLabel(columns.length > 1 ? `${r.label} ${r.column}` : r.label));
  const ratios = compared.flatMap((r) => [r.comparison.ci.low, r.comparison.ci.high]).filter((x) => x > 0);
  // Counted files compare instruction counts, which must never read as time.
  const counted = countedRows(rows);
  const what = counted ? 'ratio of instructions per operation' : 'ratio of ops/s';
  const chart = {
    id: 'chart-0',
    title: `${what}, B over A${columns.length === 1 ? `, ${displayName(columns[0])}` : ''}${compared.length < all.length ? `: the ${compared.length} largest decided changes of ${all.length} comparisons (every one is in the table)` : ''}`,
    labels,
    view: 'raw',
    views: {
      raw: {
        unit: [`${what}, B over A`, counted ? '(above 1 = fewer instructions)' : '(above 1 = faster)'],
        intervalLabel: '95% interval of the ratio',
        valueLabel: 'estimated ratio',
        pointsLabel: 'decided faster or slower',
        reference: 1,
        referenceLabel: 'no change',
        intervals: compared.map((r, i) => ({ x: labels[i], y: [r.comparison.ci.low, r.comparison.ci.high] })),
        values: compared.map((r, i) => ({ x: labels[i], y: r.comparison.ratio })),
        points: compared.map((r, i) => ({ x: labels[i], y: r.comparison.ratio, decided: isDecidedChange(r) })).filter((p) => p.decided),
        // A log axis where the intervals span more than 10x, so that one wide interval does not
        // flatten the others.
        log: ratios.length > 1 && Math.max(...ratios) / Math.min(...ratios) > 10
      }
    },
    note: [...rows.filter((r) => !r.comparison).map((r) => `${displayName(r.label)} ${displayName(r.column)}: ${r.note}.`),
      ...compared.filter((r) => folded(r.a) || folded(r.b)).map((r) => `${displayName(r.label)} ${displayName(r.column)}: optimized away (${FOLDED_MARK}), ${FOLDED_PHRASE}.`)].join(' ')
  };
  return { title: `nodebench diff: ${fileA} → ${fileB}`, charts: compared.length ? [chart] : [] };
}

// The gate, when diff gated, above everything: whether the job fails and on what, before the verdict
// counts (with --confirm those are the first comparison's, which the gate does not take as they are).
function gateHtml(failures, { limit, gate }) {
  if (!failures) return '';
  const headline = gateHeadline(failures, { limit, ...gate });
  const lines = failures.map((f) => `<p>${escapeHtml(displayName(f.label))}: ${escapeHtml(failureColumns(f))}</p>`);
  return `<div class="${headline.passed ? 'summary' : 'run-warning'}" id="gate"><p><strong>${headline.label}</strong>: ${escapeHtml(headline.text)}</p>${lines.join('')}</div>`;
}

// The whole diff page: the overview (verdict counts, decided changes slower then faster, each largest first, a heat map of
// B/A per suite), the chart of every change with its interval, the rows as a sortable table, the
// runtime metrics and the environments; the gate above them all when diff gated. context:
// commands/diff.js's (fileA, fileB, resultA, resultB, failures, limit, gate).
export function renderDiffPage(rows, context) {
  const { fileA, fileB, resultA, resultB, gate, failures, limit } = context;
  const page = renderDiffHtml(rows, context);
  const overview = diffOverview(rows);
  const equivalence = rows.verdicts?.equivalence;
  const byRow = new Map(overview.suites.flatMap((s) => s.rows.map((r) => [rowKey({ suite: s.suite, benchmark: r.benchmark }), r.id])));
  const anchored = new Set();
  const tableRows = rows.map((r) => {
    const cells = diffRowCells(r, { equivalence });
    const c = r.comparison;
    const shaped = [cells[0], cells[1], ...cells.slice(2, 4).map((text, i) => {
      const cell = i === 0 ? r.a : r.b;
      return (i === 0 ? r.before : r.after) === 'ok' ? { text, value: rateOf(cell.summary) } : text;
    }), c ? { text: cells[4], value: c.ratio } : cells[4], c ? { text: cells[5], value: c.ci.high / c.ci.low } : cells[5],
    c ? { text: cells[6], value: c.p } : cells[6], c ? { text: cells[7], value: c.q } : cells[7],
    { text: cells[8], className: c && isDecidedChange(r) ? c.verdict : '' }];
    const id = byRow.get(rowKey(r.a));
    if (id && !anchored.has(id)) {
      anchored.add(id);
      shaped.id = id;
    }
    return shaped;
  });
  const summary = [...diffSummaryLines(rows, { runWarnings: false }), ...(gate?.confirm?.lines || [])];
  const metrics = rows.metrics?.length ? [{ title: 'Runtime metrics', html: `<p>${escapeHtml(metricSummary(rows.metrics))}</p>${metricRows(rows.metrics).length ? sortableTable(METRIC_HEADER, metricRows(rows.metrics)) : ''}` }] : [];
  const environment = environmentRows({ file: fileA, result: resultA }, { file: fileB, result: resultB });
  const counted = countedRows(rows);
  return htmlPage({
    title: page.title,
    intro: counted
      ? `Ratios of instruction counts per operation (counted under valgrind; above 1x is fewer instructions), B over A: ${countsText(overview)}.`
      : `Ratios of operations per second, B over A: ${countsText(overview)}.`,
    introHtml: gateHtml(failures, { limit, gate }),
    charts: page.charts,
    sections: [
      { title: 'Overview', id: 'overview', html: overviewHtml(overview, { against: 'A', runWarnings: diffWarningLines(rows) }) },
      { title: 'Changes', lead: `<p class="note">Dot: estimated ratio of ${counted ? 'instructions per operation (above 1 fewer)' : 'operations per second'}, B over A; bar: its 95% interval; orange: changes decided faster or slower${rows.verdicts ? ` (${escapeHtml(rows.verdicts.text)})` : ''}.</p>`, chartIds: page.charts.map((c) => c.id) },
      { title: 'Table', height: 200 + tableRows.length * 22, html: `${summary.map((line) => `<p class="note">${escapeHtml(line)}</p>`).join('')}${sortableTable(diffHeader(rows), tableRows, { className: 'cells' })}` },
      ...metrics,
      { title: 'Environment of A and B', html: sortableTable(['', 'A', 'B'], environment) }
    ]
  });
}
