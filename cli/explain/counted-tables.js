// The explanation in instructions (counted-document.js) as titled tables of plain strings, which
// terminal.js, markdown.js and html.js show as they show time's (each escapes every cell).
import { displayName, formatFraction } from '../text/format.js';
import { formatInstructions as count, formatSignedInstructions as signedCount, formatRelative as relative, shareText } from './counted-document.js';

// C++ names run to hundreds of characters; a table row keeps their start and end.
const NAME_CHARS = 70;
const spread = (s) => (s && s.n > 1 ? `±${count(s.spread / 2)}` : '');
// Where a JavaScript function ran, its tiers by share of its instructions on each side.
function tiersText(row) {
  const of = (side) => {
    const entries = Object.entries(side?.tiers || {}).filter(([, n]) => n > 0);
    const total = entries.reduce((sum, [, n]) => sum + n, 0);
    return entries.length > 1 ? entries.sort((x, y) => y[1] - x[1]).map(([t, n]) => `${t} ${formatFraction(n / total, 0)}`).join(' ') : entries.map(([t]) => t).join('');
  };
  const [a, b] = [of(row.a), of(row.b)];
  return a === b ? a : `${a || '-'} / ${b || '-'}`;
}

function verdictText(row) {
  if (row.only) return `only ${row.only.toUpperCase()}${row.change && row.change.verdict !== 'same' ? `, ${row.change.verdict}` : ''}`;
  if (!row.change) return '';
  return row.change.verdict === 'same' ? 'within floor' : row.change.verdict;
}

function functionsTable(doc) {
  const f = doc.functions;
  const n = (id) => doc.sides[id].counting.processes.filter((p) => !p.error).length;
  const rows = f.rows.map((r) => [displayName(r.name, { max: NAME_CHARS }), displayName(r.location, { max: NAME_CHARS }), tiersText(r), count(r.a?.estimate), spread(r.a), shareText(r.a), count(r.b?.estimate), spread(r.b), shareText(r.b), r.change ? signedCount(r.change.estimate) : '', relative(r.change), r.change ? count(r.change.floor) : '', verdictText(r)]);
  const [sa, sb] = [f.sides.a, f.sides.b];
  if (sa && sb) {
    rows.push([`(${sa.other.functions > sb.other.functions ? sa.other.functions : sb.other.functions} other functions)`, '', '', count(sa.other.estimate), '', '', count(sb.other.estimate), '', '', signedCount(sb.other.estimate - sa.other.estimate), '', '', '']);
    rows.push(['(batch marks, subtracted)', 'nodebench', '', count(sa.marks.estimate), '', '', count(sb.marks.estimate), '', '', signedCount(sb.marks.estimate - sa.marks.estimate), '', '', '']);
    rows.push(['(whole operation: the cell\'s instructions/op)', '', '', count(sa.total.estimate), spread(sa.total), '100%', count(sb.total.estimate), spread(sb.total), '100%', signedCount(f.change.estimate), relative(f.change), count(f.change.floor), f.change.verdict === 'same' ? 'within floor' : f.change.verdict]);
  }
  const failed = ['a', 'b'].flatMap((id) => doc.sides[id].counting.processes.filter((p) => p.error).map((p) => `${id.toUpperCase()}: ${p.error} (left out).`));
  const skipped = ['a', 'b'].filter((id) => doc.sides[id].counting.skipped).map((id) => `${id.toUpperCase()} (${displayName(doc.sides[id].column)}) not counted: ${doc.sides[id].counting.skipped}.`);
  const residual = sa && sb ? [`The functions' sum with the marks subtracted equals the cell's instructions/op to ${Math.max(sa.residual, sb.residual).toPrecision(2)} instructions/op (the largest residual over the processes: floating point).`] : [];
  return {
    id: 'functions',
    title: `Instructions per operation, by function (self: callees not included; ${n('a')} counted process(es) of A, ${n('b')} of B; ${f.count} functions)`,
    header: ['function', 'where', 'tier', 'A /op', 'A ±', 'A share', 'B /op', 'B ±', 'B share', 'B - A', 'B - A %', 'floor', 'verdict'],
    rightFrom: 3,
    rows,
    notes: [
      ...skipped, ...failed, ...residual,
      `Sorted by the size of the difference; the ${f.rows.length} rows are the largest differences and the largest shares. ±: half the spread (max - min) of a side's processes. A difference is called more or fewer only beyond its floor: the two sides' spreads, at least 0.05% of the larger side.`,
      ...doc.notes
    ]
  };
}

function processesTable(doc) {
  const rows = ['a', 'b'].flatMap((id) => doc.sides[id].counting.processes.map((p, i) => (p.error
    ? [`${id.toUpperCase()} ${displayName(doc.sides[id].column)} #${i + 1}`, p.error, '', '', '', '']
    : [`${id.toUpperCase()} ${displayName(doc.sides[id].column)} #${i + 1}`, count(p.instructionsPerOp), `${p.sampleBatches} x ${count(p.operations / p.sampleBatches)}`, count(p.markerInstructions), p.perfMapEntries === null ? 'none' : String(p.perfMapEntries), count(p.unnamedJitPerOp)])));
  return {
    id: 'processes',
    title: 'Counted processes (each under valgrind\'s callgrind, as a cell\'s)',
    header: ['process', 'instructions/op', 'batches x operations', 'marks per batch', 'perf map entries', 'unnamed JIT /op'],
    rightFrom: 1,
    rows,
    notes: []
  };
}

export function countedTables(doc) {
  return [functionsTable(doc), processesTable(doc)];
}
