// A Markdown report within GitHub's comment limit (65,536 characters): its blocks in the order a
// reader wants them, each kept whole while it fits; the first that does not keeps its head, as many
// of its rows as fit and its tail (a table's header, a </details>), and every later block is left
// out; a closing line says what was cut and where the full report is.
export const GITHUB_COMMENT_LIMIT = 65_536;

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
