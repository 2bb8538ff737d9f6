// When each process runs (runner/launcher.js decides how). A round runs one process of every cell, in
// blocks: all cells of one benchmark (its row: every runtime x flag set) back to back, in a shuffled
// order, the blocks themselves shuffled per round by a seeded PRNG (recorded in the result file).
// A slow period of the machine, which lasts seconds to tens of seconds, then lands on every column
// of a row at once, and the row's ratios, computed from pairs of one block (stats/compare.js
// pairedRatio), cancel it; drift over the whole run still spreads over all rows, as Node core's
// compare.js does by alternating binaries.
import { prng, shuffle } from '../stats/random.js';
import { rowKey } from '../cell-identity.js';

export const ORDER = 'blocks: each round runs one process of every cell, a benchmark\'s cells (all runtimes x flag sets) back to back in shuffled order, blocks shuffled per round; a process set aside as disturbed is replaced once the round after it has run (at most as many replacements per cell as processes); then cells above targetRme get more rounds (with their row\'s baseline cell, to keep pairs), up to maxProcesses (up to cheapFactor times that for a cell whose processes cost less than the run\'s median), the most narrowing per second first; then one metrics process per ok cell (shuffled, seed + 1)';

// cells: the cells to run this round; returns [{ cellId, round }] in launch order.
export function scheduleRound(cells, round, seed) {
  const random = prng(seed + round * 7919);
  const rows = new Map();
  for (const cell of cells) {
    if (!rows.has(rowKey(cell))) rows.set(rowKey(cell), []);
    rows.get(rowKey(cell)).push(cell.id);
  }
  return shuffle([...rows.values()], random).flatMap((ids) => shuffle(ids, random).map((cellId) => ({ cellId, round })));
}
