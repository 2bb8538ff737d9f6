// The CI gate of nodebench diff: which benchmarks are decided slower than the threshold (the verdict
// of stats/decision.js over all the comparisons, so noise across many cells does not fail a job), or
// stopped working (ok in A, then failed, timed out, unsupported, unfinished or gone in B). A
// benchmark that no longer runs must never pass as "no regression".
// With --confirm (diff/confirm.js), a comparison fails only when its re-measurement decides it
// slower by more than the threshold over its whole 95% interval: `confirmed` maps such rows to
// their confirmation.
import { formatChange, displayName } from '../text/format.js';
import { terminalText } from '../text/escape.js';

// Statuses in B that mean "not measured" rather than "broken": --allow-missing waives them.
const MISSING = new Set(['missing', 'unfinished', 'skipped']);
const WORDS = { missing: 'missing from B', unfinished: 'unfinished in B', timeout: 'timed out', failed: 'failed', unsupported: 'unsupported', skipped: 'skipped in B' };

// "Slower by more than limit%": a ratio of rates below 1 - limit/100, written once so that a change of
// exactly the threshold is judged alike everywhere (suspicious below too).
const belowLine = (ratio, limit) => ratio < 1 - limit / 100;
export const beyond = (c, limit) => c.verdict === 'slower' && belowLine(c.ratio, limit);
// A re-measured comparison fails only when its whole 95% interval lies beyond the threshold. The
// sides ran interleaved, yet a burst of other work can still fall on one side's processes more than
// the other's: in an A/A pair on this 2-core VM (2026-11-28 23:20 UTC, as a test run started beside
// it) promises/fanout-bluebird re-measured 7.0% slower (95% CI -10.9% .. -3.0%, q = 0.003) with 30
// processes a side. Planted 20% slowdowns re-measured with intervals ending 12-20% slower: caught.
export const confirmedBeyond = (c, limit) => c.verdict === 'slower' && belowLine(c.ci.high, limit);
const qText = (q) => (q < 0.001 ? 'q < 0.001' : `q = ${q.toFixed(3)}`);
export const slowerText = (c, what = '95% CI') => `${formatChange(c.ratio)} slower (${what} ${formatChange(c.ci.low)} .. ${formatChange(c.ci.high)}, ${qText(c.q)})`;

function problem(row, limit, allowMissing, confirmed) {
  if (row.comparison) {
    if (confirmed) {
      const again = confirmed.get(row);
      if (!again || !(again.notRemeasured ? beyond(again, limit) : confirmedBeyond(again, limit))) return null;
      return again.notRemeasured ? `${slowerText(again)} (${again.notRemeasured})` : `${slowerText(again, 're-measured, 95% CI')}; first ${formatChange(row.comparison.ratio)}`;
    }
    return beyond(row.comparison, limit) ? slowerText(row.comparison) : null;
  }
  if (row.before !== 'ok' || row.after === 'ok') return null;
  if (allowMissing && MISSING.has(row.after)) return null;
  return WORDS[row.after] || row.after;
}

// Returns [{ label, columns: [{ column, problem }] }]: one entry per failing benchmark. confirmed:
// null (no confirmation: the first comparison decides), or a Map row -> the re-measured comparison
// (rows missing from it were not suspicious, or were not confirmed).
export function gateFailures(rows, { limit = 0, allowMissing = false, confirmed = null } = {}) {
  const byBenchmark = new Map();
  for (const row of rows) {
    const text = problem(row, limit, allowMissing, confirmed);
    if (!text) continue;
    if (!byBenchmark.has(row.label)) byBenchmark.set(row.label, { label: row.label, columns: [] });
    byBenchmark.get(row.label).columns.push({ column: row.column, problem: text });
  }
  return [...byBenchmark.values()];
}

// The comparisons --confirm re-measures: every one the first measurement cannot clear, i.e. not
// decided faster or same and with a 95% interval that reaches past -limit%, whatever its estimate
// and q-value. Between two separate runs a benchmark's estimate moves by several percent (5% for
// promises/chain-native on Node 24 here): a screen that asked for an estimate below 1, or for a
// decided slowdown, let a real 5% slowdown through one time in four.
export function suspicious(rows, { limit = 0 } = {}) {
  return rows.filter((row) => {
    const c = row.comparison;
    return c && c.verdict !== 'same' && c.verdict !== 'faster' && belowLine(c.ci.low, limit);
  });
}

// A failing benchmark's columns and what each failed on, as every format lists them.
export const failureColumns = (f) => f.columns.map((c) => `${displayName(c.column)} ${c.problem}`).join('; ');

// One list of failing benchmarks: a benchmark failing on time and on a gated metric (diff/metrics.js
// metricGateFailures) is one benchmark with its columns' problems together.
export function mergeFailures(...lists) {
  const byBenchmark = new Map();
  for (const f of lists.flat()) {
    if (!byBenchmark.has(f.label)) byBenchmark.set(f.label, { label: f.label, columns: [] });
    byBenchmark.get(f.label).columns.push(...f.columns);
  }
  return [...byBenchmark.values()];
}

// What fails the gate, as every format words it. "Over the whole 95% interval" only where a
// comparison was re-measured: files of counts, a confirmation with nothing to re-measure, or one
// whose candidates the time bound left out are judged by the first comparison.
// Files of counts say so: a CI log must not read a count's change as time.
function criteria({ limit, confirm = null, metrics = [], measure = 'time' }) {
  const remeasured = Boolean(confirm && !confirm.counted && confirm.candidates?.some((c) => c.file));
  const counted = measure === 'instructions' ? ' in instructions counted per operation' : '';
  return {
    slower: `slower by more than ${limit}%${counted}${remeasured ? ' (where re-measured, over the whole 95% interval)' : ''}`,
    metrics: metrics.length ? `${metrics.join(', ')} higher by more than ${limit}%` : null
  };
}

// The gate's outcome as a page heads it (Markdown and HTML): a label and one sentence. The options
// are diff's gate context and its limit: confirm (--confirm's confirmation, or null), metrics (the
// --metric names gated), measure (the files').
export function gateHeadline(failures, gate) {
  const c = criteria(gate);
  return failures.length
    ? { passed: false, label: 'Gate failed', text: `${failures.length} benchmark(s) ${c.slower}${c.metrics ? `, ${c.metrics},` : ''} or no longer ok:` }
    : { passed: true, label: 'Gate passed', text: `no benchmark decided ${c.slower}${c.metrics ? `, no ${c.metrics.replace(' higher', ' decided higher')}` : ''}, none stopped working.` };
}

// The gate's lines on stderr. Names come from suite files: each is escaped on its own, a newline in
// one included, so that a name cannot print a line of its own.
export function gateMessage(failures, gate) {
  const c = criteria(gate);
  const lines = [`${failures.length} benchmark(s) fail the gate (${c.slower}${c.metrics ? `, ${c.metrics}` : ''}, or no longer ok; --allow-missing waives missing and unfinished ones):`];
  for (const f of failures) lines.push(`  ${terminalText(displayName(f.label))}: ${terminalText(failureColumns(f))}`);
  return lines.join('\n');
}
