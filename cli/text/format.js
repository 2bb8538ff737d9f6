// Number formatting shared by every view: rates, durations, ratios, changes, percentages, sizes.
export function formatRate(opsPerSec) {
  if (!Number.isFinite(opsPerSec)) return 'n/a';
  const units = [[1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
  for (const [size, suffix] of units) {
    if (opsPerSec >= size) return `${(opsPerSec / size).toPrecision(3)}${suffix}`;
  }
  return opsPerSec >= 100 ? opsPerSec.toFixed(0) : opsPerSec.toPrecision(3);
}

export function formatDuration(ns) {
  if (!Number.isFinite(ns)) return 'n/a';
  // Compare after rounding to 3 digits, so 999.7 ns reads "1.00 µs", not "1.00e+3 ns".
  const rounded = Number(ns.toPrecision(3));
  if (rounded >= 1e9) return `${(ns / 1e9).toPrecision(3)} s`;
  if (rounded >= 1e6) return `${(ns / 1e6).toPrecision(3)} ms`;
  if (rounded >= 1e3) return `${(ns / 1e3).toPrecision(3)} µs`;
  return `${ns.toPrecision(3)} ns`;
}

// A ratio as a signed change: 1.052 -> "+5.2%", 0.9 -> "-10.0%".
export function formatChange(ratio) {
  return `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)}%`;
}

export function formatRatio(ratio) {
  return Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : '';
}

export function formatSeconds(seconds) {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

// A fraction as a percentage: 0.123 -> "12.3%" (a share of time, of a core; digits after the point).
export function formatFraction(fraction, digits = 1) {
  return Number.isFinite(fraction) ? `${(fraction * 100).toFixed(digits)}%` : 'n/a';
}

// An equivalence band: 0.02 -> "±2%" (at most two decimals, none when they are zeros).
export const formatBand = (fraction) => `±${+(fraction * 100).toFixed(2)}%`;

// A margin in percent: one decimal below 10%, none above (the digits would be noise).
export function formatPct(pct) {
  if (!Number.isFinite(pct)) return 'n/a';
  return `${pct < 10 ? pct.toFixed(1) : pct.toFixed(0)}%`;
}

// A size in bytes with a binary unit: 512 B, 63.5 KiB, 2.0 GiB.
export function formatBytes(bytes) {
  if (!Number.isFinite(bytes)) return 'n/a';
  const units = [[2 ** 30, 'GiB'], [2 ** 20, 'MiB'], [2 ** 10, 'KiB']];
  for (const [size, unit] of units) {
    if (bytes >= size) return `${(bytes / size).toFixed(1)} ${unit}`;
  }
  return `${bytes} B`;
}

// How many characters of a name (a benchmark, suite, runtime label, flag set, function) a view
// shows. A result file may carry a name of any length: shown whole in every place it appears, one
// of 50 MB made a 262 MB terminal report and a 367 MB HTML page. Files, JSON and CSV keep it whole.
export const DISPLAY_NAME_CHARS = 120;

// `name` as a view shows it: whole when short, else its start and its end around an ellipsis (names
// that differ only at their end, parse-1k and parse-10k, stay apart), never cutting a surrogate pair.
// `max`: for text that holds names but is read whole when it can be (a command to copy); an option,
// so that names.map(displayName) does not take each index for it.
export function displayName(name, { max = DISPLAY_NAME_CHARS } = {}) {
  const text = String(name);
  if (text.length <= max) return text;
  const splitsPair = (i) => /[\ud800-\udbff]/.test(text[i - 1] ?? '');
  let head = Math.ceil((max * 2) / 3);
  if (splitsPair(head)) head--;
  let tail = text.length - (max - head - 1);
  if (splitsPair(tail)) tail++;
  return `${text.slice(0, head)}…${text.slice(tail)}`;
}
