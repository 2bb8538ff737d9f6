// `history show --format csv`: one row per point of every series, for spreadsheets.
import { csvField as quote } from '../render/csv-field.js';
import { terminalText } from '../text/escape.js';
import { canonicalJson } from './entry.js';
import { pointValue } from './series.js';

const CSV_COLUMNS = ['suite', 'benchmark', 'params', 'flagSet', 'flags', 'line', 'host', 'x', 'name', 'runtimes', 'status', 'opsPerSec', 'low', 'high', 'runs', 'changeRatio', 'changeLow', 'changeHigh', 'changeNew', 'unit', 'perOp', 'perOpLow', 'perOpHigh', 'arch'];

// One row per point; the change columns are filled on the first point after a change point. Text
// fields go through terminalText() too: a spreadsheet or a terminal has no use for control codes.
export function renderCsv(analysis) {
  const rows = analysis.series.flatMap((s) => {
    const changeAt = new Map(s.changes.map((c) => [c.to, c]));
    return s.points.map((p) => {
      const c = changeAt.get(p);
      return [s.suite, s.benchmark, s.params === canonicalJson({}) ? '' : s.params, s.flagSet, s.flags.join(' '), s.line, s.host, p.x, p.name, p.runtimes.join(' '), p.status,
        p.opsPerSec, p.low, p.high, p.runs.length, c?.ratio, c?.low, c?.high, c ? c.isNew : undefined,
        // Last, so that a sheet reading the columns above by position still works; a count's rate
        // in opsPerSec is per 10^9 instructions, its count per operation in perOp, its build's
        // architecture in arch (empty for time).
        s.unit, pointValue(s, p)?.value, pointValue(s, p)?.low, pointValue(s, p)?.high, s.arch];
    });
  });
  return `${[CSV_COLUMNS, ...rows].map((r) => r.map((v) => quote(typeof v === 'string' ? terminalText(v) : v)).join(',')).join('\n')}\n`;
}
