// What nodebench diff prints, shared by the terminal table, Markdown (for a pull request or
// $GITHUB_STEP_SUMMARY) and HTML: one row of cells per compared pair, and the geomean summary.
import { geomeanRatio, ALPHA } from '../stats/compare.js';
import { formatRate, formatChange } from '../report/format.js';
import { describeDrift } from '../stats/drift-estimate.js';
import { terminalText, markdownCode, markdownText, markdownTable } from '../report/escape.js';

export const DIFF_HEADER = ['benchmark', 'column', 'A ops/s', 'B ops/s', 'change', '95% CI', 'p', 'verdict'];

export function diffRowCells(r) {
  if (!r.comparison) {
    return [r.label, r.column, r.before === 'ok' ? formatRate(r.a.summary.opsPerSec) : r.before, r.after === 'ok' ? formatRate(r.b.summary.opsPerSec) : r.after, '', '', '', r.note];
  }
  const c = r.comparison;
  return [r.label, r.column, formatRate(r.a.summary.opsPerSec), formatRate(r.b.summary.opsPerSec), formatChange(c.ratio),
    `${formatChange(c.ci.low)} .. ${formatChange(c.ci.high)}`, c.p < 0.001 ? '<0.001' : c.p.toFixed(3), c.verdict + (c.singleProcess ? ' (1 process)' : '')];
}

export function diffSummaryLines(rows) {
  const compared = rows.filter((r) => r.comparison).map((r) => r.comparison);
  const lines = [];
  if (compared.length) {
    lines.push(`geomean of rate ratios: ${formatChange(geomeanRatio(compared))} over ${compared.length} benchmarks; ` +
      `${compared.filter((c) => c.verdict === 'faster').length} faster, ${compared.filter((c) => c.verdict === 'slower').length} slower, ${compared.filter((c) => c.verdict === '~').length} no significant change (~, p >= ${ALPHA})`);
  }
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

// Significant changes and benchmarks that stopped working first; the rest folded under <details>.
export function renderDiffMarkdown(rows, { fileA, fileB, resultA, resultB, failures = null, limit } = {}) {
  const notable = rows.filter((r) => (r.comparison ? r.comparison.significant : r.before !== r.after));
  const notableSet = new Set(notable);
  const rest = rows.filter((r) => !notableSet.has(r));
  const out = [`## nodebench diff: ${markdownCode(fileA)} → ${markdownCode(fileB)}`, ''];
  if (failures) {
    out.push(failures.length
      ? `**Gate failed**: ${failures.length} benchmark(s) significantly slower by more than ${limit}% or no longer ok:`
      : `**Gate passed**: no benchmark significantly slower by more than ${limit}%, none stopped working.`, '');
    for (const f of failures) out.push(`- ${markdownCode(f.label)}: ${markdownText(f.columns.map((c) => `${c.column} ${c.problem}`).join('; '))}`);
    if (failures.length) out.push('');
  }
  out.push(...diffSummaryLines(rows).map((line) => `${markdownText(line)}  `), '');
  if (notable.length) {
    out.push(`### Significant changes and status changes (${notable.length})`, '', ...markdownTable(DIFF_HEADER, notable.map(diffRowCells)), '');
  } else {
    out.push('No significant change.', '');
  }
  if (rest.length) {
    out.push('<details>', `<summary>${rest.length} without significant change</summary>`, '', ...markdownTable(DIFF_HEADER, rest.map(diffRowCells)), '', '</details>', '');
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
    pointsLabel: 'significant',
    intervals: compared.map((r, i) => ({ x: labels[i], y: [change(r.comparison.ci.low), change(r.comparison.ci.high)] })),
    values: compared.map((r, i) => ({ x: labels[i], y: change(r.comparison.ratio) })),
    points: compared.map((r, i) => ({ x: labels[i], y: change(r.comparison.ratio), significant: r.comparison.significant })).filter((p) => p.significant),
    note: rows.filter((r) => !r.comparison).map((r) => `${r.label} ${r.column}: ${r.note}.`).join(' ')
  };
  return { title: `nodebench diff: ${fileA} → ${fileB}`, charts: compared.length ? [chart] : [], tableText };
}
