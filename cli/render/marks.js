// The marks every format shows after a value and after a ratio (terminal and Markdown tables, the
// heat maps, diff): "!" a cell whose benchmark runs at the cost of an empty one (stats/folding.js,
// the warning code `optimized-away`): its value and every ratio it takes part in measure the loop,
// not the operation, and foldedNote says so under the table; after a ratio, its verdict's mark
// (stats/decision.js): "=" same within the band, "?" undecided, none for faster or slower (the ratio
// says which).
export const OPTIMIZED_AWAY = 'optimized-away';
export const FOLDED_MARK = '!';
export const isOptimizedAway = (warnings) => (warnings || []).some((w) => (typeof w === 'string' ? w : w.code) === OPTIMIZED_AWAY);
export const foldedNote = (count) => `${FOLDED_MARK} optimized away: ${count} cell${count === 1 ? '' : 's'} ran no slower than an empty benchmark in the same processes (the runtime folded or removed the work): the value and every ratio marked ${FOLDED_MARK} measure the loop, not the operation; see --warnings, and suites/README.md to keep the work alive.`;

export const VERDICT_MARKS = { same: '=', undecided: '?', faster: '', slower: '' };

// The mark after a ratio: "!" when either side ran no faster than an empty benchmark, then its
// verdict's mark.
export const ratioMark = (verdict, folded) => `${folded ? FOLDED_MARK : ''}${VERDICT_MARKS[verdict] ?? ''}`;
