// The marks every format shows after a value and after a ratio (terminal and Markdown tables, the
// heat maps, diff): "!" a cell whose benchmark runs at the cost of an empty one (stats/folding.js,
// the warning code `optimized-away`): its value and every ratio it takes part in measure the loop,
// not the operation, and foldedNote says so under the table; after a ratio, its verdict's mark
// (stats/decision.js): "=" same within the band, "?" undecided, none for faster or slower (the ratio
// says which).
import { FOLDED_RATIO } from '../stats/folding.js';

export const OPTIMIZED_AWAY = 'optimized-away';
// What every output says of such a cell: the line, not "no slower", since folded work may cost a store.
export const FOLDED_PHRASE = `ran within ${FOLDED_RATIO}x of an empty benchmark`;
export const FOLDED_MARK = '!';
export const isOptimizedAway = (warnings) => (warnings || []).some((w) => (typeof w === 'string' ? w : w.code) === OPTIMIZED_AWAY);
export const foldedNote = (count) => `${FOLDED_MARK} optimized away: ${count} cell${count === 1 ? '' : 's'} ${FOLDED_PHRASE} in the same processes (the runtime folded or removed the work): the value and every ratio marked ${FOLDED_MARK} measure the loop, not the operation; nodebench report FILE --warnings says which, and suites/README.md how to keep the work alive.`;

export const VERDICT_MARKS = { same: '=', undecided: '?', faster: '', slower: '' };

// The mark after a ratio: "!" when either side ran no faster than an empty benchmark, then its
// verdict's mark.
export const ratioMark = (verdict, folded) => `${folded ? FOLDED_MARK : ''}${VERDICT_MARKS[verdict] ?? ''}`;

// A margin beyond ±100% is no estimate: the interval would reach below zero, and a figure like
// "±685%" reads as a measurement when it says the processes disagreed too much to have one (issue
// 39, item 7). Shown as NO_ESTIMATE, with marginNote under the table; the ratios keep their
// intervals, which stay above zero.
export const MARGIN_LIMIT = 100;
export const NO_ESTIMATE = 'no estimate';
export const hasEstimate = (rme) => Number.isFinite(rme) && rme <= MARGIN_LIMIT;
export const marginNote = (count) => `${NO_ESTIMATE}: ${count} cell${count === 1 ? '' : 's'} had a 95% margin over ±${MARGIN_LIMIT}% (their processes disagreed too much for a value to mean anything: measure with more processes or on a quieter machine); their ratios' intervals still say what can be said.`;

// A ratio's 95% interval as an interval: it is not symmetric around the ratio (0.5x and 2x are one
// step apart), so never "±"; an interval without an upper bound shows "∞".
export const ratioInterval = (low, high, format) => `[${format(low)}, ${Number.isFinite(high) ? format(high) : '∞'}]`;

// An undecided ratio whose 95% interval leaves out 1x ("1.19x? [1.02x, 1.39x]") reads as a decided
// change: the interval is of that comparison alone, the verdict holds at one false discovery rate
// over all of them. `verdicts`: stats/decision.js judgeAll's summary ({ alpha, comparisons }).
export const excludesOne = (verdict, low, high) => verdict === 'undecided' && (low > 1 || high < 1);
export const excludesOneNote = (count, verdicts) => `${VERDICT_MARKS.undecided} with an interval that leaves out 1x (${count} here): that interval is of the one ratio alone; a verdict must hold at a ${verdicts.alpha * 100}% false discovery rate over all ${verdicts.comparisons} ratios, which ${count === 1 ? 'it does' : 'they do'} not reach: measure with more processes to decide.`;
