// Pieces of the HTML pages (report, diff): the overview's heat map with its summary and changes,
// sortable tables, and names made safe. Everything a result file supplies goes through escapeHtml
// (control characters shown escaped, markup as text); a long name is cut with the whole of it on
// hover.
import { terminalText } from '../text/escape.js';
import { formatRatio, formatRate, formatPct, displayName } from '../text/format.js';
import { countsText, geomeanText, intervalText, spreadText, changeGroups } from './overview.js';
import { hasEstimate, NO_ESTIMATE, MARGIN_LIMIT } from './marks.js';

export const escapeHtml = (text) => terminalText(text, { keepNewlines: true }).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));

export const NAME_LIMIT = 80;

// A chart's axis label: a name from the file with control characters escaped, cut at 40 characters
// (a long one would take the whole canvas); the full name is in the caption and the tables.
const LABEL_LIMIT = 40;
export function chartLabel(text) {
  const safe = terminalText(text);
  return safe.length > LABEL_LIMIT ? `${safe.slice(0, LABEL_LIMIT - 1)}…` : safe;
}

// A name as text, cut at `limit` characters with the whole name in its title. `breakable`: a narrow
// column header may wrap after each "/" or "-" (runtime/flag-set names), never inside a word; in
// the visible text only (a <wbr> in the title attribute or in the closing tag would show as text).
export function nameHtml(text, limit = NAME_LIMIT, { breakable = false } = {}) {
  const safe = terminalText(text);
  const visible = (part) => (breakable ? escapeHtml(part).replace(/[/-]/g, '$&<wbr>') : escapeHtml(part));
  if (safe.length <= limit) return visible(safe);
  return `<span title="${escapeHtml(displayName(safe))}">${visible(safe.slice(0, limit - 1))}…</span>`;
}

// One diverging scale on the log ratio, colour-blind safe (ColorBrewer PuOr, 11 classes): purple
// faster, orange slower, near white no change. Square-root of |log ratio| up to 4x, so that the
// common 5-50% changes are told apart and a 19x one does not wash them out.
const PU_OR = ['#7f3b08', '#b35806', '#e08214', '#fdb863', '#fee0b6', '#f7f7f7', '#d8daeb', '#b2abd2', '#8073ac', '#542788', '#2d004b'];
const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

// Position on the scale, -1 (4x slower or more) .. 1 (4x faster or more).
export function scalePosition(ratio) {
  if (!(ratio > 0)) return 0;
  const size = Math.min(1, Math.abs(Math.log(ratio)) / Math.log(4));
  return Math.sign(Math.log(ratio)) * Math.sqrt(size);
}

export function scaleColour(position) {
  const at = (Math.max(-1, Math.min(1, position)) + 1) * 5;
  const i = Math.min(9, Math.floor(at));
  const [a, b] = [rgb(PU_OR[i]), rgb(PU_OR[i + 1])];
  const mix = a.map((v, k) => Math.round(v + (b[k] - v) * (at - i)));
  return { background: `rgb(${mix.join(',')})`, text: Math.abs(position) > 0.55 ? '#fff' : '#111' };
}

// A cell's colour: decided changes at full strength, undecided ones at half (their direction is
// not established), same and folded ones as the scale says (near white, and marked).
export function ratioColour(cell) {
  const position = scalePosition(cell.ratio) * (cell.verdict === 'undecided' ? 0.5 : 1);
  return scaleColour(position);
}

// A cell's value with its unit: ops/s, or instructions per operation (cli/measure.js valueText).
// Every time cell has a valueText too (its rate): `counted` is what says instructions.
const shownValue = (cell) => (cell.counted ? `${cell.valueText} instructions per operation` : `${formatRate(cell.opsPerSec)} ops/s`);

// What a heat-map cell says on hover and focus (and to a screen reader).
export function cellDescription(suite, row, column, cell) {
  const where = `${terminalText(displayName(row.benchmark))} on ${terminalText(displayName(column.key))}${cell.against ? ` against ${terminalText(displayName(cell.against))}` : ''}`;
  if (cell.status !== 'ok') return `${where}: ${terminalText(cell.status)}${cell.note ? ` (${terminalText(cell.note)})` : ''}`;
  if (column.isBaseline) return `${where}: the baseline, ${shownValue(cell)} ${hasEstimate(cell.rme) ? `±${formatPct(cell.rme)}` : `(${NO_ESTIMATE}: margin over ±${MARGIN_LIMIT}%)`}${cell.spread.length ? `; ${spreadText(cell.spread)}` : ''}`;
  if (!Number.isFinite(cell.ratio)) return `${where}: ${shownValue(cell)}, no ratio (the baseline did not run)`;
  return `${where}: ${formatRatio(cell.ratio)} ${cell.verdict}${cell.folded ? ', optimized away (!)' : ''}; 95% interval ${intervalText(cell)}${Number.isFinite(cell.q) ? `, q ${cell.q < 0.001 ? '<0.001' : cell.q.toFixed(3)}` : ''}${cell.spread.length ? `; ${spreadText(cell.spread)}` : ''}`;
}

function heatCell(suite, row, column, cell) {
  const tip = cellDescription(suite, row, column, cell);
  let text;
  let style = '';
  let cls = 'hm';
  if (cell.status !== 'ok') {
    // "unsupported" would set the width of a whole column; its reason is in the cell's description.
    text = cell.status === 'unsupported' ? 'n/s' : terminalText(cell.status);
    cls += ' none';
  } else if (column.isBaseline) {
    text = `base${cell.folded ? '!' : ''}`;
    cls += ' base';
  } else if (!Number.isFinite(cell.ratio)) {
    text = 'n/a';
    cls += ' none';
  } else {
    const colour = ratioColour(cell);
    text = `${formatRatio(cell.ratio)}${cell.mark}`;
    style = ` style="background:${colour.background};color:${colour.text}"`;
    cls += ` ${cell.verdict}`;
  }
  const ratio = Number.isFinite(cell.ratio) ? ` data-ratio="${cell.ratio}"` : '';
  return `<td><a class="${cls}" href="#${row.id}"${style}${ratio} data-verdict="${escapeHtml(cell.verdict || cell.status)}" aria-label="${escapeHtml(tip)}">${escapeHtml(text)}</a></td>`;
}

export function heatMapHtml(suite) {
  // A column name breaks after its "/" (runtime/flag set) or a "-" of a flag set, not inside a word,
  // so that the gc suite's fifteen columns fit a laptop's window.
  const head = `<thead><tr><th scope="col">benchmark</th>${suite.columns.map((c) => `<th scope="col">${nameHtml(c.key, 40, { breakable: true })}${c.isBaseline ? ' (baseline)' : ''}</th>`).join('')}</tr></thead>`;
  const body = suite.rows.map((row) => `<tr><th scope="row"><a href="#${row.id}">${nameHtml(row.benchmark, 60)}</a></th>${row.cells.map((cell, i) => heatCell(suite, row, suite.columns[i], cell)).join('')}</tr>`).join('');
  const foot = suite.geomeans?.some((g) => g !== null)
    ? `<tfoot><tr><th scope="row">geometric mean</th>${suite.geomeans.map((g) => `<td class="gm">${g === null ? '' : formatRatio(g)}</td>`).join('')}</tr></tfoot>`
    : '';
  return `<table class="heat" data-suite="${escapeHtml(terminalText(displayName(suite.suite)))}">${head}<tbody>${body}</tbody>${foot}</table>`;
}

const LEGEND_TICKS = [0.25, 0.5, 0.8, 1, 1.25, 2, 4];

export function legendHtml(against) {
  const stops = Array.from({ length: 21 }, (_, i) => scaleColour(i / 10 - 1).background);
  const ticks = LEGEND_TICKS.map((r) => `<span style="left:${((scalePosition(r) + 1) / 2) * 100}%">${formatRatio(r)}</span>`).join('');
  return `<div class="legend" aria-label="colour scale: orange slower, purple faster than ${escapeHtml(against)}"><div class="bar" style="background:linear-gradient(to right,${stops.join(',')})"></div><div class="ticks">${ticks}</div>` +
    `<p class="note">Colour: ratio to ${escapeHtml(against)} (orange slower, purple faster; undecided at half strength). Marks: none = decided faster or slower, = same within the band, ? undecided, ! optimized away; n/s = unsupported on that runtime. Hover or focus a cell for its interval and spread; select it for the detail.</p></div>`;
}

const GROUP_TITLES = { slower: 'Slower', faster: 'Faster' };

// The summary line and the decided changes: slower, then faster, each largest first; past `limit`
// a group's rest is one click away (a <details> under its table).
export function summaryHtml(overview, { limit = 10 } = {}) {
  const { summary, verdicts } = overview;
  const lines = [`<p class="summary"><strong>${escapeHtml(countsText(overview))}</strong>${verdicts ? ` <span class="note">(${escapeHtml(verdicts.text)})</span>` : ''}</p>`];
  if (summary.columns.length) lines.push(`<p class="summary">Geometric mean of the ratios per column: ${escapeHtml(geomeanText(summary))}${summary.foldedRatios ? ` <span class="note">(${summary.foldedRatios} optimized-away ratio(s) left out)</span>` : ''}</p>`);
  const row = (c) => {
    const colour = ratioColour(c);
    return `<tr><td><span class="chip" style="background:${colour.background};color:${colour.text}">${escapeHtml(formatRatio(c.ratio) + c.mark)}</span></td><td>${c.verdict}</td><td><a href="#${c.rowId}">${nameHtml(`${c.suite} / ${c.benchmark}`)}</a></td><td>${nameHtml(c.column, 40)}</td><td class="note">95% interval ${escapeHtml(intervalText(c))}</td></tr>`;
  };
  const groups = changeGroups(overview);
  if (groups.length) {
    lines.push(`<h3>What changed (${overview.changes.length} decided)</h3>`);
    for (const g of groups) {
      const rest = g.changes.slice(limit);
      lines.push(`<h4 class="changes ${g.verdict}">${GROUP_TITLES[g.verdict]} (${g.changes.length}, largest first)</h4><table class="changes"><tbody>${g.changes.slice(0, limit).map(row).join('')}</tbody></table>` +
        (rest.length ? `<details class="changes"><summary>${rest.length} more ${g.verdict}</summary><table class="changes"><tbody>${rest.map(row).join('')}</tbody></table></details>` : ''));
    }
  } else {
    lines.push('<p>No ratio decided faster or slower.</p>');
  }
  return lines.join('\n');
}

// The runs' warnings about their machines (run-warnings.js): after the changes, before the heat
// maps, as the terminal says them after what changed.
const runWarningsHtml = (lines) => (lines.length ? `<div class="run-warning">${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}</div>` : '');

// The overview: summary, changes, the runs' warnings, legend, a heat map per suite.
export function overviewHtml(overview, { against, runWarnings = [] }) {
  return [summaryHtml(overview), runWarningsHtml(runWarnings), legendHtml(against),
    ...overview.suites.map((s) => `<h3 id="${s.id}">${nameHtml(s.suite)}</h3><div class="deferred heat-scroll" style="contain-intrinsic-block-size:auto ${s.rows.length * 30 + 40}px">${heatMapHtml(s)}</div>`)].join('\n');
}

// A table sortable by any column (the page's script): cells are strings or { text, value, html }
// where value (a number) is what the column sorts by and html replaces the escaped text; a row (an
// array) may carry an `id`, the anchor a heat-map cell links to.
export function sortableTable(header, rows, { className = '' } = {}) {
  const cell = (c) => {
    if (c === null || c === undefined) return '<td></td>';
    if (typeof c !== 'object') return `<td>${nameHtml(String(c))}</td>`;
    const value = Number.isFinite(c.value) ? ` data-v="${c.value}"` : '';
    return `<td${value}${c.className ? ` class="${c.className}"` : ''}>${c.html ?? nameHtml(c.text ?? '')}</td>`;
  };
  const head = header.map((h) => `<th scope="col"><button type="button">${escapeHtml(h)}</button></th>`).join('');
  return `<table class="sortable ${className}"><thead><tr>${head}</tr></thead><tbody>${rows.map((r) => `<tr${r.id ? ` id="${r.id}"` : ''}>${r.map(cell).join('')}</tr>`).join('')}</tbody></table>`;
}

// Sorting by any column: numbers (data-v) before text, a second click reverses.
// A heat map wider than its page (fifteen columns at 1280 px: the last ones could not be seen) scrolls
// sideways, its benchmark names held at the left; below it room for the tips of its last row, which
// a scrolling box would cut. Only such a one: a box that scrolls cuts every tip at its edge.
export const HEAT_SCRIPT = `
function markWide() {
  for (const box of document.querySelectorAll('.heat-scroll')) {
    const table = box.querySelector('table');
    if (table) box.classList.toggle('wide', table.getBoundingClientRect().width > box.getBoundingClientRect().width + 1);
  }
}
markWide();
window.addEventListener('resize', markWide);
`;

export const SORT_SCRIPT = `
for (const table of document.querySelectorAll('table.sortable')) {
  const heads = [...table.tHead.rows[0].cells];
  heads.forEach((th, col) => th.querySelector('button').addEventListener('click', () => {
    const dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
    for (const h of heads) h.removeAttribute('aria-sort');
    th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
    const key = (tr) => { const td = tr.cells[col]; return td && td.dataset.v !== undefined ? Number(td.dataset.v) : (td ? td.textContent : ''); };
    const rows = [...table.tBodies[0].rows].map((tr) => [key(tr), tr]);
    rows.sort(([x], [y]) => {
      if (typeof x === 'number' && typeof y === 'number') return (x - y) * dir;
      if (typeof x === 'number') return -1;
      if (typeof y === 'number') return 1;
      return x.localeCompare(y) * dir;
    });
    table.tBodies[0].append(...rows.map(([, tr]) => tr));
  }));
}
`;

export const PAGE_STYLE = `body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:110em}figure{display:inline-block;margin:0 1em 1em 0;vertical-align:top;max-width:100%;overflow-x:auto}section{max-width:100%;overflow-x:auto}figcaption{font-weight:600;max-width:40em;overflow-wrap:anywhere}
pre{background:#f6f6f6;padding:1em;overflow:auto;font-size:12px}table.env th{text-align:left;padding-right:1em}.note{font-size:12px;color:#555;max-width:60em}.run-warning{background:#fff8db;border-left:4px solid #c9a100;padding:0 .8em;margin:.8em 0;max-width:70em;font-size:14px}.run-warning p{margin:.3em 0}
h1,h2,h3{overflow-wrap:anywhere}
table.heat{border-collapse:separate;border-spacing:2px;margin-bottom:1.5em;font-size:13px}table.heat th{text-align:left;font-weight:500;padding-right:.8em;max-width:30em;overflow-wrap:anywhere}table.heat thead th{overflow-wrap:normal;max-width:12em}table.heat td.gm{text-align:right;padding:.35em .6em;font-variant-numeric:tabular-nums;border-top:1px solid #999}table.heat thead th{font-weight:600;vertical-align:bottom}
table.heat td{padding:0;position:relative}a.hm{display:block;min-width:4.6em;padding:.35em .45em;text-align:right;text-decoration:none;font-variant-numeric:tabular-nums;border-radius:3px;color:#111;white-space:nowrap}
a.hm.undecided{outline:1px dashed #888;outline-offset:-3px}a.hm.base{background:#fff;border:1px solid #ccc;color:#555}a.hm.none{background:#eee;color:#777}
a.hm:focus,a.hm:hover{outline:3px solid #111;outline-offset:1px}
a.hm:hover::after,a.hm:focus::after{content:attr(aria-label);position:absolute;z-index:5;right:0;top:100%;background:#222;color:#fff;padding:.5em .7em;width:26em;text-align:left;white-space:normal;font-size:12px;font-weight:400;border-radius:4px;overflow-wrap:anywhere}
.summary{font-size:15px}table.changes{border-collapse:collapse;font-size:14px}table.changes td{padding:.15em .6em .15em 0}h4.changes{margin:.8em 0 .3em}details.changes summary{cursor:pointer;font-size:13px;color:#555;margin:.3em 0}.chip{display:inline-block;min-width:4.5em;text-align:right;padding:.1em .4em;border-radius:3px;font-variant-numeric:tabular-nums}
.legend{margin:1em 0;padding:0 1.4em;max-width:36em}.legend .bar{height:12px;border-radius:2px}.legend .ticks{position:relative;height:1.4em;font-size:11px}.legend .ticks span{position:absolute;transform:translateX(-50%)}
table.sortable{border-collapse:collapse;font-size:12px;margin:.5em 0 1.5em;font-variant-numeric:tabular-nums}table.sortable td,table.sortable th{border-bottom:1px solid #ddd;padding:.2em .6em;text-align:left;max-width:30em;overflow-wrap:anywhere}
table.sortable td[data-v]{text-align:right;white-space:nowrap}table.sortable th{white-space:nowrap;vertical-align:bottom}table.cells td:last-child{min-width:16em}table.sortable td:first-child{min-width:8em}table.metrics-table td:nth-child(n+3){text-align:right}table.sortable th button{font:inherit;font-weight:600;background:none;border:0;cursor:pointer;padding:0}table.sortable th[aria-sort=ascending] button::after{content:" ▲"}table.sortable th[aria-sort=descending] button::after{content:" ▼"}
.lazy .deferred{content-visibility:auto}@media print{.lazy .deferred{content-visibility:visible}}.lazy .heat-scroll,.heat-scroll.wide{overflow-x:auto;max-width:100%}.heat-scroll.wide{padding-bottom:7em}table.heat tr>:first-child{position:sticky;left:0;background:#fff;z-index:1}
td.faster{color:#542788;font-weight:600}td.slower{color:#b35806;font-weight:600}.toggle{margin:1em 0}.bench{scroll-margin-top:1em}.metrics{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}`;
