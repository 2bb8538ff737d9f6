// The lines under a table: why cells did not run, grouped so that one cause is said once (a
// runtime that rejects a flag makes its whole column unsupported: one line, not one per benchmark),
// and warnings counted by code rather than listed cell by cell.
// Cell warnings are { code, message } (results/cell.js, stats/summary.js); files of schema version 1
// kept plain strings, which count under their own text.
import { terminalText } from '../text/escape.js';
import { asWarning, cellWarningCounts } from '../render/run-warnings.js';
import { displayName } from '../text/format.js';


// "unsupported on Node 4.9.1 (...)" already says its status; "threw: boom" does not. An unfinished
// cell's reason comes from the grid (results/grid.js unfinishedReason), which knows how its run resumes.
function describe(v) {
  if (!v.error) return v.status;
  return String(v.error).startsWith(v.status) ? v.error : `${v.status}: ${v.error}`;
}

export function reasonNotes(table) {
  const notes = [];
  table.columns.forEach((col, i) => {
    const values = table.rows.map((r) => r.values[i]).filter((v) => v.status !== 'absent');
    const reasons = new Set(values.map((v) => (v.status === 'ok' ? null : describe(v))));
    if (values.length > 1 && reasons.size === 1 && !reasons.has(null)) {
      notes.push(`  ${displayName(col.key)}: every benchmark: ${[...reasons][0]}`);
      col.explained = true;
    }
  });
  const seen = new Map();
  for (const row of table.rows) {
    row.values.forEach((value, i) => {
      const col = table.columns[i];
      if (value.status === 'ok' || value.status === 'absent' || col.explained) return;
      // The same reason for one benchmark on every flag set of a runtime is one line.
      const key = `${row.benchmark}\u0000${col.runtimeLabel}\u0000${value.error}`;
      if (seen.has(key)) {
        seen.get(key).flagSets.push(col.flagSet);
        return;
      }
      const note = { benchmark: row.benchmark, runtime: col.runtimeLabel, flagSets: [col.flagSet], text: describe(value) };
      seen.set(key, note);
      notes.push(note);
    });
  }
  const flagSetCount = new Set(table.columns.map((c) => c.flagSet)).size;
  return notes.map((n) => terminalText(typeof n === 'string' ? n
    : `  ${displayName(n.benchmark)} on ${displayName(n.runtime)}${n.flagSets.length === flagSetCount && flagSetCount > 1 ? '' : `/${n.flagSets.map(displayName).join(',')}`}: ${n.text}`));
}

export function warningSummary(table, { verbose = false } = {}) {
  if (verbose) {
    return table.rows.flatMap((row) => row.values.flatMap((value, i) => (value.warnings || [])
      .map((warning) => terminalText(`  warning: ${displayName(row.benchmark)} on ${displayName(table.columns[i].key)}: ${asWarning(warning).message}`))));
  }
  // Counted as every other format counts them over the whole result (render/run-warnings.js).
  const counts = cellWarningCounts(table.rows.flatMap((row) => row.values));
  if (!counts.length) return [];
  const parts = counts.map(([label, n]) => `${n} cell${n === 1 ? '' : 's'} ${label}`);
  return [terminalText(`  warnings: ${parts.join('; ')}. Details: nodebench report <file> --warnings`)];
}

const FORM_NAMES = { esm: 'ES module', typescript: 'TypeScript', 'typescript-commonjs': 'TypeScript' };

// How a suite's file was written, when it is not nodebench's own CommonJS format: "(a tinybench
// file, ES module)", "(TypeScript)"; '' otherwise (and for result files older than the field).
export function suiteFormLabel(result, suiteName) {
  const suite = (result.suites || []).find((s) => s.name === suiteName);
  if (!suite) return '';
  const parts = [];
  if (suite.format && suite.format !== 'nodebench') parts.push(`a ${suite.format} file`);
  if (FORM_NAMES[suite.moduleKind]) parts.push(FORM_NAMES[suite.moduleKind]);
  return parts.length ? `(${parts.join(', ')})` : '';
}

const TIMING_WORDS = { managed: 'timed by their own loop on nodebench\'s clock', 'per-call': 'timed call by call, the clock\'s cost subtracted' };

// How a library file's benchmarks were timed where it is not nodebench's batches, and which ran a
// collection before each sample (mitata's gc('inner')): a line under the suite's table, or none.
export function timingNotes(result, suiteName) {
  const benchmarks = (result.suites || []).find((s) => s.name === suiteName)?.benchmarks || [];
  const lines = [];
  for (const [timing, words] of Object.entries(TIMING_WORDS)) {
    const names = benchmarks.filter((b) => b.timing === timing).map((b) => b.name);
    if (names.length) lines.push(`  ${words}: ${names.join(', ')}`);
  }
  const collected = benchmarks.filter((b) => b.gcBeforeSample).map((b) => b.name);
  if (collected.length) lines.push(`  a garbage collection before each sample, outside the timing (gc('inner')): ${collected.join(', ')}`);
  return lines.map((line) => terminalText(line));
}
