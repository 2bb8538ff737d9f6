// The Markdown pieces every view shares: a table as a block, the overview (render/overview.js) as a
// table per suite, and a report within GitHub's comment limit (65,536 characters): its blocks in
// the order a reader wants them, each kept whole while it fits; the first that does not keeps its
// head, as many of its rows as fit and its tail (a table's header, a </details>), and every later
// block is left out; a closing line says what was cut and where the full report is.
import { markdownText, markdownTable, markdownMarkup, markdownBold } from '../text/escape.js';
import { formatRatio, displayName } from '../text/format.js';

export const GITHUB_COMMENT_LIMIT = 65_536;

// Per group of decided changes (slower, faster), the rows in view; the rest of a group is folded.
export const MARKDOWN_CHANGES_SHOWN = 15;

// Room kept for the closing line (it names the cut blocks, cut short itself when there are many).
const NOTE_ROOM = 1_200;

// blocks: [{ name, head: [lines], rows: [lines], tail: [lines] }]; whereFull: how to get the
// whole report (Markdown text). Returns the text, ending in a newline.
export function fitMarkdown(blocks, { limit = GITHUB_COMMENT_LIMIT, whereFull }) {
  const budget = limit - NOTE_ROOM;
  const out = [];
  let size = 0;
  const cut = [];
  const add = (lines) => {
    for (const line of lines) size += line.length + 1;
    out.push(...lines);
  };
  const sizeOf = (lines) => lines.reduce((n, line) => n + line.length + 1, 0);
  for (const block of blocks) {
    const rows = block.rows || [];
    const whole = sizeOf(block.head || []) + sizeOf(rows) + sizeOf(block.tail || []);
    if (cut.length) {
      cut.push(block.name);
      continue;
    }
    if (size + whole <= budget) {
      add([...(block.head || []), ...rows, ...(block.tail || [])]);
      continue;
    }
    const fixed = sizeOf(block.head || []) + sizeOf(block.tail || []);
    let kept = 0;
    let room = budget - size - fixed;
    while (kept < rows.length && room - (rows[kept].length + 1) >= 0) room -= rows[kept++].length + 1;
    if (kept > 0) {
      add([...(block.head || []), ...rows.slice(0, kept), ...(block.tail || [])]);
      cut.push(`${rows.length - kept} of the ${rows.length} rows of ${block.name}`);
    } else {
      cut.push(block.name);
    }
  }
  if (cut.length) {
    // A block cut after a <details> it opened still closes it.
    const open = out.filter((line) => line === '<details>').length - out.filter((line) => line === '</details>').length;
    for (let i = 0; i < open; i++) out.push('', '</details>');
    let list = cut.join('; ');
    if (list.length > NOTE_ROOM - 300) list = `${list.slice(0, NOTE_ROOM - 320)}…`;
    out.push('', `**Cut to fit GitHub's ${limit.toLocaleString('en-US')}-character comment limit**: ${list}. The full report: ${whereFull}.`, '');
  }
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

// A table as a fitMarkdown block: its header lines as head, one line per row.
export function tableBlock(name, header, rows, { align, before = [], after = [] } = {}) {
  const [head, rule, ...body] = markdownTable(header, rows, { align });
  return { name, head: [...before, head, rule], rows: body, tail: after };
}

// One cell of the compact overview: the ratio with its mark (bold when decided), "base", or the
// cell's status.
function overviewCell(cell) {
  if (cell.status === 'absent') return '';
  if (cell.status !== 'ok') return cell.status;
  if (cell.isBaseline) return `base${cell.folded ? '!' : ''}`;
  if (!Number.isFinite(cell.ratio)) return 'n/a';
  const ratio = `${formatRatio(cell.ratio)}${cell.mark}`;
  return cell.verdict === 'faster' || cell.verdict === 'slower' ? markdownMarkup(markdownBold(ratio)) : ratio;
}

// counted: a run counted in instructions, whose ratios are of counts, never of time.
export const overviewLegend = (counted = false) => `${counted ? 'Ratios of instructions per operation (above 1x fewer instructions)' : 'Ratios of ops/s (above 1x faster)'}; bold: decided faster or slower; = same within the band; ? undecided; ! optimized away (the value measures the loop, not the operation).`;

// Per suite: benchmarks x columns of ratio and mark (report and diff share it).
export function overviewBlocks(overview, { heading = '####' } = {}) {
  return overview.suites.map((suite) => tableBlock(`the overview of ${markdownText(displayName(suite.suite))}`,
    ['benchmark', ...suite.columns.map((c) => displayName(c.key))],
    suite.rows.map((row) => [displayName(row.benchmark), ...row.cells.map(overviewCell)]),
    { align: ['---', ...suite.columns.map(() => '---:')], before: [`${heading} ${markdownText(displayName(suite.suite))}`, ''], after: [''] }));
}
