// `nodebench diff --format markdown`: for a pull request or a CI job summary. Significant changes
// first, everything else folded in <details>, then the environment of both files, so that a
// reviewer sees whether the two runs are comparable at all.
const pct = (ratio) => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)}%`;
const esc = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

function row(r) {
  if (!r.comparison) return `| ${esc(r.label)} | ${esc(r.column)} | | | ${esc(r.note)} |`;
  const c = r.comparison;
  return `| ${esc(r.label)} | ${esc(r.column)} | ${pct(c.ratio)} | ${pct(c.ci.low)} .. ${pct(c.ci.high)} | ${c.verdict}${c.p < 0.001 ? ' (p<0.001)' : ` (p=${c.p.toFixed(3)})`} |`;
}

const HEADER = ['| benchmark | column | change | 95% CI | verdict |', '|---|---|---:|---:|---|'];

function environment(label, result) {
  const h = result.host || {};
  const runtimes = (result.runtimes || []).map((r) => `${r.label} (V8 ${r.v8 ?? '?'})`).join(', ');
  return `| ${label} | ${esc(h.cpuModel ?? '?')}, ${h.cores ?? '?'} cores | ${esc(runtimes)} | ${result.createdAt ?? '?'} | ${result.nodebench?.version ?? '?'} |`;
}

export function renderDiffMarkdown(rows, { resultA, resultB, gate = [] } = {}) {
  const notable = rows.filter((r) => r.comparison?.significant || (!r.comparison && r.a.status === 'ok'));
  const rest = rows.filter((r) => !notable.includes(r));
  const faster = rows.filter((r) => r.comparison?.verdict === 'faster').length;
  const slower = rows.filter((r) => r.comparison?.verdict === 'slower').length;
  const out = ['## nodebench diff', '', `${slower} slower, ${faster} faster, ${rows.filter((r) => r.comparison?.verdict === '~').length} without significant change (~), ${rows.filter((r) => !r.comparison).length} not compared, of ${rows.length}.`, ''];
  if (gate.length) out.push('**Gate failed:**', '', ...gate.map((line) => `- ${esc(line)}`), '');
  if (notable.length) out.push('### Significant changes and cells no longer ok', '', ...HEADER, ...notable.map(row), '');
  if (rest.length) out.push('<details><summary>Everything else (' + rest.length + ')</summary>', '', ...HEADER, ...rest.map(row), '', '</details>', '');
  if (resultA) {
    out.push('<details><summary>Environment</summary>', '', '| file | host | runtimes | created | nodebench |', '|---|---|---|---|---|', environment('A', resultA));
    if (resultB && resultB !== resultA) out.push(environment('B', resultB));
    out.push('', '</details>', '');
  }
  return `${out.join('\n')}\n`;
}
