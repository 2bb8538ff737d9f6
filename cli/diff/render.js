// What nodebench diff prints, shared by the terminal table, Markdown (for a pull request or
// $GITHUB_STEP_SUMMARY) and HTML: one row of cells per compared pair, and the summary under it.
// Verdicts are stats/decision.js's: faster, slower, same (within ±equivalence) or undecided, judged
// over all the rows at one false discovery rate (diffResults); a cell whose benchmark ran at the cost
// of an empty one carries FOLDED_MARK on its rate and on the change it takes part in.
import { geomeanRatio } from '../stats/compare.js';
import { formatRate, formatChange } from '../text/format.js';
import { describeDrift } from '../stats/drift-estimate.js';
import { metricRows, metricSummary, METRIC_HEADER } from './metrics.js';
import { terminalText, markdownCode, markdownText, markdownTable } from '../text/escape.js';
import { FOLDED_MARK, isOptimizedAway, foldedNote } from '../report/notes.js';

export const DIFF_HEADER = ['benchmark', 'column', 'A ops/s', 'B ops/s', 'change', '95% CI', 'p', 'q', 'verdict'];

const pValue = (p) => (!Number.isFinite(p) ? '' : p < 0.001 ? '<0.001' : p.toFixed(3));
const folded = (cell) => Boolean(cell) && isOptimizedAway(cell.warnings);
const mark = (text, on) => (on ? `${text}${FOLDED_MARK}` : text);

// "same" carries its band, so that it never reads as "no change" without one.
export function verdictText(c, equivalence) {
  const word = c.verdict === 'same' && Number.isFinite(equivalence) ? `same ±${+(equivalence * 100).toFixed(2)}%` : c.verdict;
  return word + (c.singleProcess ? ' (1 process)' : '');
}

export function diffRowCells(r, { equivalence } = {}) {
  const aFolded = r.before === 'ok' && folded(r.a);
  const bFolded = r.after === 'ok' && folded(r.b);
  if (!r.comparison) {
    return [r.label, r.column, r.before === 'ok' ? mark(formatRate(r.a.summary.opsPerSec), aFolded) : r.before, r.after === 'ok' ? mark(formatRate(r.b.summary.opsPerSec), bFolded) : r.after, '', '', '', '', r.note];
  }
  const c = r.comparison;
  return [r.label, r.column, mark(formatRate(r.a.summary.opsPerSec), aFolded), mark(formatRate(r.b.summary.opsPerSec), bFolded), mark(formatChange(c.ratio), aFolded || bFolded),
    `${formatChange(c.ci.low)} .. ${formatChange(c.ci.high)}`, pValue(c.p), pValue(c.q), verdictText(c, equivalence)];
}

export const isDecidedChange = (row) => Boolean(row.comparison) && (row.comparison.verdict === 'faster' || row.comparison.verdict === 'slower');

export function diffSummaryLines(rows) {
  const compared = rows.filter((r) => r.comparison).map((r) => r.comparison);
  const lines = [];
  if (compared.length) {
    const count = (verdict) => compared.filter((c) => c.verdict === verdict).length;
    const band = rows.verdicts ? ` within ±${+(rows.verdicts.equivalence * 100).toFixed(2)}%` : '';
    lines.push(`geomean of rate ratios: ${formatChange(geomeanRatio(compared))} over ${compared.length} benchmarks; ` +
      `${count('faster')} faster, ${count('slower')} slower, ${count('same')} same${band}, ${count('undecided')} undecided`);
    if (rows.verdicts) lines.push(`verdicts: ${rows.verdicts.text}`);
  }
  const foldedCells = new Set(rows.flatMap((r) => [r.before === 'ok' && folded(r.a) ? r.a : null, r.after === 'ok' && folded(r.b) ? r.b : null]).filter(Boolean));
  if (foldedCells.size) lines.push(foldedNote(foldedCells.size));
  const unfinished = rows.filter((r) => r.after === 'unfinished' || r.before === 'unfinished').length;
  if (unfinished) lines.push(`${unfinished} cell(s) unfinished: their run was interrupted or killed before measuring them, so they are not compared.`);
  if (rows.drift) lines.push(...describeDrift(rows.drift).map((line) => terminalText(line)));
  if (compared.some((c) => c.singleProcess)) {
    lines.push('note: cells measured in one process are compared sample by sample, which ignores between-process variation; measure with --processes 3 or more for verdicts you can trust.');
  }
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

// Changes decided faster or slower and benchmarks that stopped working first; the rest (same
// within the band, or undecided) folded under <details>.
export function renderDiffMarkdown(rows, { fileA, fileB, resultA, resultB, failures = null, limit, gate = null } = {}) {
  const notable = rows.filter((r) => (r.comparison ? isDecidedChange(r) : r.before !== r.after));
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
    if (gate?.confirm) out.push(...gate.confirm.lines.map((line) => `${line}  `), '');
  }
  out.push(...diffSummaryLines(rows).map((line) => `${markdownText(line)}  `), '');
  if (notable.length) {
    out.push(`### Faster, slower and status changes (${notable.length})`, '', ...markdownTable(DIFF_HEADER, notable.map(cells)), '');
  } else {
    out.push('No benchmark decided faster or slower, none changed status.', '');
  }
  if (rest.length) {
    const same = rest.filter((r) => r.comparison?.verdict === 'same').length;
    out.push('<details>', `<summary>${rest.length} not decided faster or slower: ${same} same within the band, ${rest.length - same} undecided</summary>`, '', ...markdownTable(DIFF_HEADER, rest.map(cells)), '', '</details>', '');
  }
  if (rows.metrics?.length) {
    const decided = metricRows(rows.metrics);
    out.push(`### Runtime metrics`, '', `${markdownText(metricSummary(rows.metrics))}  `, '', ...(decided.length ? [...markdownTable(METRIC_HEADER, decided), ''] : []));
  }
  out.push('<details>', '<summary>Environment of A and B</summary>', '',
    ...markdownTable(['', 'A', 'B'], environmentRows({ file: fileA, result: resultA }, { file: fileB, result: resultB })), '', '</details>', '');
  return `${out.join('\n')}`;
}

// The ratios with their intervals as one chart (change in %, 0 = no change), the table underneath.
export function renderDiffHtml(rows, { fileA, fileB, tableText }) {
  const compared = rows.filter((r) => r.comparison);
  // Long "runtime/flags -> runtime/flags" labels would squeeze the plot: name the column only when
  // the rows differ in it, and say the single column in the title otherwise.
  const columns = [...new Set(compared.map((r) => r.column))];
  const labels = compared.map((r) => (columns.length > 1 ? `${r.label} ${r.column}` : r.label));
  const change = (ratio) => (ratio - 1) * 100;
  const chart = {
    id: 'chart-0',
    title: `change in ops/s${columns.length === 1 ? `, ${columns[0]}` : ''}`,
    unit: '% change in ops/s (B vs A)',
    labels,
    intervalLabel: '95% interval of the change',
    valueLabel: 'estimated change',
    pointsLabel: 'decided faster or slower',
    intervals: compared.map((r, i) => ({ x: labels[i], y: [change(r.comparison.ci.low), change(r.comparison.ci.high)] })),
    values: compared.map((r, i) => ({ x: labels[i], y: change(r.comparison.ratio) })),
    points: compared.map((r, i) => ({ x: labels[i], y: change(r.comparison.ratio), decided: isDecidedChange(r) })).filter((p) => p.decided),
    note: [...rows.filter((r) => !r.comparison).map((r) => `${r.label} ${r.column}: ${r.note}.`),
      ...compared.filter((r) => folded(r.a) || folded(r.b)).map((r) => `${r.label} ${r.column}: optimized away (${FOLDED_MARK}), ran no slower than an empty benchmark.`)].join(' ')
  };
  return { title: `nodebench diff: ${fileA} → ${fileB}`, charts: compared.length ? [chart] : [], tableText };
}
