// What nodebench diff prints, shared by the terminal table, Markdown (for a pull request or
// $GITHUB_STEP_SUMMARY) and HTML: one row of cells per compared pair, and the summary under it.
// Verdicts are stats/decision.js's: faster, slower, same (within ±equivalence) or undecided, judged
// over all the rows at one false discovery rate (diffResults); a cell whose benchmark ran at the cost
// of an empty one carries FOLDED_MARK on its rate and on the change it takes part in.
import { geomeanRatio } from '../stats/compare.js';
import { formatChange, formatBand } from '../text/format.js';
import { describeDrift } from '../stats/drift-estimate.js';
import { describeHosts } from '../stats/host-speed.js';
import { describeUndecided } from '../stats/detectable.js';
import { metricRows, metricSummary, METRIC_HEADER } from './metrics.js';
import { terminalText, markdownCode, markdownText, markdownTable } from '../text/escape.js';
import { FOLDED_MARK, isOptimizedAway, foldedNote } from '../render/marks.js';
import { diffOverview, countsText } from '../render/overview.js';
import { fitMarkdown, GITHUB_COMMENT_LIMIT, tableBlock, overviewBlocks, overviewLegend } from '../render/markdown-parts.js';
import { htmlPage } from '../render/html-page.js';
import { escapeHtml, chartLabel, overviewHtml, sortableTable } from '../render/html-parts.js';
import { rowKey } from '../cell-identity.js';
import { measureOfCell, rateOf } from '../measure.js';

// A side's value as its measure reads: ops/s, or instructions per operation (cli/measure.js).
const valueOf = (cell) => measureOfCell(cell).valueText(cell.summary);

export const DIFF_HEADER = ['benchmark', 'column', 'A ops/s', 'B ops/s', 'change', '95% CI', 'p', 'q', 'verdict'];

// The header for these rows: its value columns in their measure's unit (diff never mixes measures).
export function diffHeader(rows) {
  const measure = measureOfCell(rows.find((r) => r.a)?.a);
  return measure.id === 'time' ? DIFF_HEADER : DIFF_HEADER.map((h) => (h === 'A ops/s' ? `A ${measure.valueHeader}` : h === 'B ops/s' ? `B ${measure.valueHeader}` : h === 'change' ? 'change in rate' : h));
}

const pValue = (p) => (!Number.isFinite(p) ? '' : p < 0.001 ? '<0.001' : p.toFixed(3));
const folded = (cell) => Boolean(cell) && isOptimizedAway(cell.warnings);
const mark = (text, on) => (on ? `${text}${FOLDED_MARK}` : text);

// "same" carries its band, so that it never reads as "no change" without one.
export function verdictText(c, equivalence) {
  const word = c.verdict === 'same' && Number.isFinite(equivalence) ? `same ${formatBand(equivalence)}` : c.verdict;
  return word + (c.singleProcess ? ' (1 process)' : '');
}

export function diffRowCells(r, { equivalence } = {}) {
  const aFolded = r.before === 'ok' && folded(r.a);
  const bFolded = r.after === 'ok' && folded(r.b);
  if (!r.comparison) {
    return [r.label, r.column, r.before === 'ok' ? mark(valueOf(r.a), aFolded) : r.before, r.after === 'ok' ? mark(valueOf(r.b), bFolded) : r.after, '', '', '', '', r.note];
  }
  const c = r.comparison;
  return [r.label, r.column, mark(valueOf(r.a), aFolded), mark(valueOf(r.b), bFolded), mark(formatChange(c.ratio), aFolded || bFolded),
    `${formatChange(c.ci.low)} .. ${formatChange(c.ci.high)}`, pValue(c.p), pValue(c.q), verdictText(c, equivalence)];
}

export const isDecidedChange = (row) => Boolean(row.comparison) && (row.comparison.verdict === 'faster' || row.comparison.verdict === 'slower');

// runWarnings: false leaves out what the runs warned about their machines (a page shows them first).
export function diffSummaryLines(rows, { runWarnings = true } = {}) {
  const compared = rows.filter((r) => r.comparison).map((r) => r.comparison);
  const lines = [];
  if (compared.length) {
    const count = (verdict) => compared.filter((c) => c.verdict === verdict).length;
    const band = rows.verdicts ? ` within ${formatBand(rows.verdicts.equivalence)}` : '';
    lines.push(`geomean of rate ratios: ${formatChange(geomeanRatio(compared))} over ${compared.length} benchmarks; ` +
      `${count('faster')} faster, ${count('slower')} slower, ${count('same')} same${band}, ${count('undecided')} undecided`);
    if (rows.verdicts) lines.push(`verdicts: ${rows.verdicts.text}`);
    const undecided = describeUndecided(rows.detectable, count('undecided'));
    if (undecided) lines.push(undecided);
  }
  const foldedCells = new Set(rows.flatMap((r) => [r.before === 'ok' && folded(r.a) ? r.a : null, r.after === 'ok' && folded(r.b) ? r.b : null]).filter(Boolean));
  if (foldedCells.size) lines.push(foldedNote(foldedCells.size));
  const unfinished = rows.filter((r) => r.after === 'unfinished' || r.before === 'unfinished').length;
  if (unfinished) lines.push(`${unfinished} cell(s) unfinished: their run was interrupted or killed before measuring them, so they are not compared.`);
  if (rows.drift) lines.push(...describeDrift(rows.drift).map((line) => terminalText(line)));
  const widened = compared.filter((c) => c.hostShift).length;
  if (rows.host || widened) lines.push(...describeHosts(rows.host || {}, widened));
  if (compared.some((c) => c.singleProcess)) {
    lines.push('note: a cell measured in one process decides nothing (the samples of one process say nothing of the next, which can run 2x apart on a shared host): its ratio is shown without an interval; measure with --processes 3 or more for verdicts.');
  }
  if (runWarnings) lines.push(...(rows.runWarnings || []).map((line) => terminalText(line)));
  return lines;
}


function environmentRows(resultA, resultB) {
  const describe = (r) => ({
    file: r.file,
    host: `${r.result.host.hostname} (${r.result.host.cpuModel}, ${r.result.host.cores} cores, ${r.result.host.os} ${r.result.host.kernel})`,
    runtimes: r.result.runtimes.map((x) => `${x.label} (V8 ${x.v8})`).join(', '),
    'flag sets': r.result.flagSets.map((f) => `${f.name}${f.flags.length ? ` ${f.flags.join(' ')}` : ''}`).join(', '),
    nodebench: r.result.nodebench.version,
    created: r.result.createdAt,
    status: r.result.status
  });
  const a = describe(resultA);
  const b = describe(resultB);
  return Object.keys(a).map((k) => [k, a[k], b[k]]);
}

// Benchmarks that stopped working (or started) first, then the changes decided faster or slower,
// largest first; the rest (same within the band, or undecided) folded under <details>; with more
// than one compared column, the compact overview per suite (render/markdown-parts.js); within GitHub's
// comment limit (render/markdown-parts.js).
const changeSize = (r) => (r.comparison ? Math.abs(Math.log(r.comparison.ratio)) : Infinity);

export function renderDiffMarkdown(rows, { fileA, fileB, resultA, resultB, failures = null, limit, gate = null, commentLimit = GITHUB_COMMENT_LIMIT } = {}) {
  const notable = rows.filter((r) => (r.comparison ? isDecidedChange(r) : r.before !== r.after)).sort((x, y) => changeSize(y) - changeSize(x));
  const notableSet = new Set(notable);
  const rest = rows.filter((r) => !notableSet.has(r));
  const equivalence = rows.verdicts?.equivalence;
  const cells = (r) => diffRowCells(r, { equivalence });
  const out = [`## nodebench diff: ${markdownCode(fileA)} → ${markdownCode(fileB)}`, ''];
  if (failures) {
    const confirmed = gate?.confirm ? ' (confirmed by re-measuring)' : '';
    out.push(failures.length
      ? `**Gate failed**: ${failures.length} benchmark(s) slower by more than ${limit}%${confirmed} or no longer ok:`
      : `**Gate passed**: no benchmark decided slower by more than ${limit}%${confirmed}, none stopped working.`, '');
    for (const f of failures) out.push(`- ${markdownCode(f.label)}: ${markdownText(f.columns.map((c) => `${c.column} ${c.problem}`).join('; '))}`);
    if (failures.length) out.push('');
    if (gate?.confirm) out.push(...gate.confirm.lines.map((line) => `${markdownText(line)}  `), '');
  }
  out.push(...diffSummaryLines(rows).map((line) => `${markdownText(line)}  `), '');
  const table = (name, list, before, after) => tableBlock(name, diffHeader(rows), list.map(cells), { before, after });
  const blocks = [{ name: 'the gate and the summary', head: out }];
  blocks.push(notable.length
    ? table('the faster, slower and status changes', notable, [`### Faster, slower and status changes (${notable.length}, largest first)`, ''], [''])
    : { name: 'the changes', head: ['No benchmark decided faster or slower, none changed status.', ''] });
  if (rest.length) {
    const same = rest.filter((r) => r.comparison?.verdict === 'same').length;
    blocks.push(table('the comparisons not decided faster or slower', rest, ['<details>', `<summary>${rest.length} not decided faster or slower: ${same} same within the band, ${rest.length - same} undecided</summary>`, ''], ['', '</details>', '']));
  }
  const overview = diffOverview(rows);
  if (overview.suites.some((suite) => suite.columns.length > 1)) {
    blocks.push({ name: 'the overview', head: ['### Overview', '', markdownText(overviewLegend), ''] }, ...overviewBlocks(overview));
  }
  if (rows.metrics?.length) {
    const decided = metricRows(rows.metrics);
    blocks.push({ name: 'the runtime metrics', head: ['### Runtime metrics', '', `${markdownText(metricSummary(rows.metrics))}  `, '', ...(decided.length ? [...markdownTable(METRIC_HEADER, decided), ''] : [])] });
  }
  blocks.push({ name: 'the environments of A and B', head: ['<details>', '<summary>Environment of A and B</summary>', '',
    ...markdownTable(['', 'A', 'B'], environmentRows({ file: fileA, result: resultA }, { file: fileB, result: resultB })), '', '</details>', ''] });
  return fitMarkdown(blocks, { limit: commentLimit, whereFull: markdownCode(`nodebench diff ${fileA} ${fileB} --format html`) });
}

// The ratios with their intervals as one chart (B over A, 1 = no change), the table underneath.
// A chart of more comparisons than this is unreadable: it shows the decided ones, largest first.
export const CHART_COMPARISONS = 60;

export function renderDiffHtml(rows, { fileA, fileB }) {
  const all = rows.filter((r) => r.comparison);
  const compared = all.length <= CHART_COMPARISONS ? all
    : all.filter(isDecidedChange).sort((x, y) => changeSize(y) - changeSize(x)).slice(0, CHART_COMPARISONS);
  // Long "runtime/flags -> runtime/flags" labels would squeeze the plot: name the column only when
  // the rows differ in it, and say the single column in the title otherwise.
  const columns = [...new Set(compared.map((r) => r.column))];
  const labels = compared.map((r) => chartLabel(columns.length > 1 ? `${r.label} ${r.column}` : r.label));
  const ratios = compared.flatMap((r) => [r.comparison.ci.low, r.comparison.ci.high]).filter((x) => x > 0);
  const chart = {
    id: 'chart-0',
    title: `ratio of ops/s, B over A${columns.length === 1 ? `, ${columns[0]}` : ''}${compared.length < all.length ? `: the ${compared.length} largest decided changes of ${all.length} comparisons (every one is in the table)` : ''}`,
    labels,
    view: 'raw',
    views: {
      raw: {
        unit: 'ratio of ops/s, B over A (above 1 = faster)',
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
    note: [...rows.filter((r) => !r.comparison).map((r) => `${r.label} ${r.column}: ${r.note}.`),
      ...compared.filter((r) => folded(r.a) || folded(r.b)).map((r) => `${r.label} ${r.column}: optimized away (${FOLDED_MARK}), ran no slower than an empty benchmark.`)].join(' ')
  };
  return { title: `nodebench diff: ${fileA} → ${fileB}`, charts: compared.length ? [chart] : [] };
}

// The whole diff page: the overview (verdict counts, decided changes largest first, a heat map of
// B/A per suite), the chart of every change with its interval, the rows as a sortable table, the
// runtime metrics and the environments. context: diff/compare.js's (fileA, fileB, resultA,
// resultB, gate).
export function renderDiffPage(rows, context) {
  const { fileA, fileB, resultA, resultB, gate } = context;
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
  return htmlPage({
    title: page.title,
    intro: `Ratios of operations per second, B over A: ${countsText(overview)}.`,
    charts: page.charts,
    sections: [
      { title: 'Overview', id: 'overview', html: overviewHtml(overview, { against: 'A', runWarnings: rows.runWarnings || [] }) },
      { title: 'Changes', lead: `<p class="note">Dot: estimated ratio of operations per second, B over A; bar: its 95% interval; orange: changes decided faster or slower${rows.verdicts ? ` (${escapeHtml(rows.verdicts.text)})` : ''}.</p>`, chartIds: page.charts.map((c) => c.id) },
      { title: 'Table', height: 200 + tableRows.length * 22, html: `${summary.map((line) => `<p class="note">${escapeHtml(line)}</p>`).join('')}${sortableTable(diffHeader(rows), tableRows, { className: 'cells' })}` },
      ...metrics,
      { title: 'Environment of A and B', html: sortableTable(['', 'A', 'B'], environment) }
    ]
  });
}
