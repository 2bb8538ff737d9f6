// The CI gate of nodebench diff: which benchmarks got significantly slower than the threshold, or
// stopped working (ok in A, then failed, timed out, unsupported, unfinished or gone in B). A
// benchmark that no longer runs must never pass as "no regression".
import { formatChange } from '../report/format.js';

// Statuses in B that mean "not measured" rather than "broken": --allow-missing waives them.
const MISSING = new Set(['missing', 'unfinished', 'skipped']);
const WORDS = { missing: 'missing from B', unfinished: 'unfinished in B', timeout: 'timed out', failed: 'failed', unsupported: 'unsupported', skipped: 'skipped in B' };

function problem(row, limit, allowMissing) {
  if (row.comparison) {
    const c = row.comparison;
    return c.verdict === 'slower' && (1 - c.ratio) * 100 > limit ? `${formatChange(c.ratio)} slower (95% CI ${formatChange(c.ci.low)} .. ${formatChange(c.ci.high)})` : null;
  }
  if (row.before !== 'ok' || row.after === 'ok') return null;
  if (allowMissing && MISSING.has(row.after)) return null;
  return WORDS[row.after] || row.after;
}

// Returns [{ label, columns: [{ column, problem }] }]: one entry per failing benchmark.
export function gateFailures(rows, { limit = 0, allowMissing = false } = {}) {
  const byBenchmark = new Map();
  for (const row of rows) {
    const text = problem(row, limit, allowMissing);
    if (!text) continue;
    if (!byBenchmark.has(row.label)) byBenchmark.set(row.label, { label: row.label, columns: [] });
    byBenchmark.get(row.label).columns.push({ column: row.column, problem: text });
  }
  return [...byBenchmark.values()];
}

export function gateMessage(failures, { limit }) {
  const lines = [`${failures.length} benchmark(s) fail the gate (significantly slower by more than ${limit}%, or no longer ok; --allow-missing waives missing and unfinished ones):`];
  for (const f of failures) lines.push(`  ${f.label}: ${f.columns.map((c) => `${c.column} ${c.problem}`).join('; ')}`);
  return lines.join('\n');
}

export function parseThreshold(value) {
  if (value === undefined) return undefined;
  const limit = value === true ? 0 : Number(value);
  return Number.isFinite(limit) && limit >= 0 && String(value).trim() !== '' ? limit : null;
}
