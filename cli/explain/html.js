// explain's HTML format: one offline page (render/html-page.js) with the two profiles side by
// side, function by function, sorted by the change: each side's self time per operation as a bar
// on one scale, then the other tables. Every string goes through escapeHtml.
import { htmlPage } from '../render/html-page.js';
import { escapeHtml } from '../render/html-parts.js';
import { explainTables, sideLine, profileFiles, benchmarkOf } from './tables.js';
import { displayName } from '../text/format.js';

const STYLE = '<style>table.x{border-collapse:collapse;font-size:13px}table.x th,table.x td{padding:2px 8px;border-bottom:1px solid #eee;text-align:left;vertical-align:top}'
  + 'td.num{text-align:right;white-space:nowrap}.bar{height:10px;display:inline-block;vertical-align:middle}.a{background:#4a78c2}.b{background:#e07b39}'
  + 'tr.slower td.v,tr.more td.v{color:#b00;font-weight:600}tr.faster td.v,tr.fewer td.v{color:#070;font-weight:600}</style>';

function plainTable(table) {
  const head = `<tr>${table.header.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>`;
  const body = table.rows.map((row) => `<tr>${row.map((c, i) => `<td${i >= table.rightFrom ? ' class="num"' : ''}>${escapeHtml(c)}</td>`).join('')}</tr>`).join('');
  const notes = table.notes.map((n) => `<p class="note">${escapeHtml(n)}</p>`).join('');
  return `<table class="x">${head}${body}</table>${notes}`;
}

// The functions table with a bar per side, both on the scale of the largest self time shown.
function sideBySide(doc, table) {
  const rows = doc.functions.rows;
  const largest = Math.max(1e-9, ...rows.flatMap((r) => [r.a?.estimate ?? 0, r.b?.estimate ?? 0]));
  const bar = (side, id) => (side?.estimate > 0 ? `<span class="bar ${id}" style="width:${Math.max(1, Math.round((side.estimate / largest) * 160))}px"></span>` : '');
  const head = `<tr>${table.header.slice(0, 2).map((h) => `<th>${escapeHtml(h)}</th>`).join('')}<th>A and B</th>${table.header.slice(2).map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>`;
  const body = table.rows.map((cells, i) => {
    const r = rows[i];
    const verdict = r?.change?.verdict ?? '';
    const bars = r ? `${bar(r.a, 'a')}<br>${bar(r.b, 'b')}` : '';
    return `<tr class="${escapeHtml(verdict)}">${cells.slice(0, 2).map((c) => `<td>${escapeHtml(c)}</td>`).join('')}<td>${bars}</td>${cells.slice(2).map((c, j) => `<td class="${j === cells.length - 3 ? 'v' : 'num'}">${escapeHtml(c)}</td>`).join('')}</tr>`;
  }).join('');
  const notes = table.notes.map((n) => `<p class="note">${escapeHtml(n)}</p>`).join('');
  return `<p><span class="bar a" style="width:20px"></span> A ${escapeHtml(displayName(doc.sides.a.column))} &nbsp; <span class="bar b" style="width:20px"></span> B ${escapeHtml(displayName(doc.sides.b.column))}</p><table class="x">${head}${body}</table>${notes}`;
}

export function renderExplainHtml(doc) {
  const [functions, ...others] = explainTables(doc);
  const files = profileFiles(doc);
  const sections = [
    { title: 'Summary', html: `${STYLE}<p>${escapeHtml(sideLine(doc, 'a'))}<br>${escapeHtml(sideLine(doc, 'b'))}</p><p>${escapeHtml(doc.summary)}</p>` },
    { title: functions.title, html: sideBySide(doc, functions) },
    ...others.map((t) => ({ title: t.title, html: plainTable(t) })),
    ...(doc.measure === 'instructions' ? [] : [{ title: 'Profiles', html: `<p>Open in Chrome DevTools (Performance, load profile) or speedscope.app:</p><ul>${files.map((f) => `<li><code>${escapeHtml(f)}</code></li>`).join('')}</ul><p class="note">${escapeHtml(`${doc.createdAt}: nodebench ${doc.command.join(' ')}`)}</p>` }]),
    ...(doc.measure === 'instructions' ? [{ title: 'Command', html: `<p class="note">${escapeHtml(`${doc.createdAt}: nodebench ${doc.command.join(' ')}`)}</p>` }] : [])
  ];
  return htmlPage({ title: `nodebench explain: ${benchmarkOf(doc)}`, intro: `Where the ${doc.measure === 'instructions' ? 'instructions' : 'time'} went from ${displayName(doc.sides.a.column)} to ${displayName(doc.sides.b.column)}.`, charts: [], sections, script: '' });
}
