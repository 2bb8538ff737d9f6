// A compact picture of a cell's per-process rates in one line: a histogram drawn with block
// characters, so a bimodal benchmark (processes landing in two clusters, e.g. two JIT outcomes)
// shows as two humps where a mean ± margin would hide it.
import { formatRate, displayName } from '../text/format.js';
import { textTable } from '../text/text-table.js';
import { benchmarkName, columnKey, keptProcesses } from '../cell-identity.js';
import { processRates } from '../results/grid.js';
import { measureOfResult, formatCount } from '../measure.js';
import { processValue } from '../stats/summary.js';

const BLOCKS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

// values -> `width` bins between min and max; an empty bin is a space, so gaps stand out.
export function sparkline(values, width = 12) {
  const finite = values.filter(Number.isFinite);
  if (!finite.length) return '';
  const min = Math.min(...finite);
  const max = Math.max(...finite);
  if (max === min) return BLOCKS[BLOCKS.length - 1];
  const bins = new Array(width).fill(0);
  for (const v of finite) bins[Math.min(width - 1, Math.floor(((v - min) / (max - min)) * width))]++;
  const top = Math.max(...bins);
  return bins.map((n) => (n === 0 ? ' ' : BLOCKS[Math.max(0, Math.ceil((n / top) * BLOCKS.length) - 1)])).join('');
}

// One line per ok cell: the glyph of its process rates (instructions per operation in a counted
// run: never a rate that reads as time), their range and how many.
export function renderDistributions(result) {
  const counted = measureOfResult(result).id === 'instructions';
  const rows = result.cells.filter((c) => c.status === 'ok').map((c) => {
    const values = counted ? keptProcesses(c).map((p) => processValue(p)) : processRates(c);
    const range = counted
      ? `${formatCount(Math.min(...values))} .. ${formatCount(Math.max(...values))} instructions/op`
      : `${formatRate(Math.min(...values))} .. ${formatRate(Math.max(...values))} ops/s`;
    return [displayName(benchmarkName(c)), displayName(columnKey(c)), `[${sparkline(values).padEnd(12)}]`, range, `${values.length} process${values.length === 1 ? '' : 'es'}`];
  });
  if (!rows.length) return '';
  return `per-process ${counted ? 'counts' : 'rates'} (one block column = 1/12 of the cell's range; two humps = a bimodal benchmark)\n${textTable(rows, { rule: false }).join('\n')}\n`;
}
