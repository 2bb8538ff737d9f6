// From the store's entries to series: per host, suite (with its parameters), benchmark and flag
// set, the estimates in order
//   --by version: one point per runtime version, the runs that measured it pooled;
//   --by date:    one point per run, one line per runtime as the matrix names it (its label, else
//                 its spec: "lts" stays one line while it moves from 22.x to 24.x).
// Series never mix hosts or suite parameters (the store refuses to hold both unless told to), nor
// measures: a benchmark counted in instructions (cli/measure.js) has series of its own beside its
// time series, in its own unit, never pooled with them, and those span hosts (no host moves a count).
//
// Every point carries the variance the change-point search weighs it by: its own interval's, plus
// the drift between runs. Within a run, a cell's interval is about its processes; two runs of the
// same cell differ by more, and by how much is estimated from the store's runs per suite, as diff
// estimates it between two files (drift.js; 1% when the store cannot tell). A cell whose processes
// ran in the host's slow mode has its interval widened to hold its estimate both as measured and
// with the host's slowdown taken out, as diff widens a ratio (stats/host-speed.js). Pooling runs of
// one version is a random-effects mean: the spread between the runs beyond their own intervals is
// estimated (DerSimonian-Laird), never below that drift. A count does not drift between runs: its
// series take the count's own repeatability (cli/measure.js) as that floor instead, so that two
// runs a few parts per million apart are never a change, and a 1% change in a count is.
import semver from 'semver';
import { INVOCATION_DRIFT } from '../stats/drift.js';
import { widenForHost } from '../stats/host-speed.js';
import { changePoints, Z95 } from './changepoints.js';
import { storeDrift } from './drift.js';
import { canonicalJson } from './entry.js';
import { benchmarkName } from '../cell-identity.js';
import { MEASURES, measureNamed } from '../measure.js';

export const ORDERS = ['version', 'date'];

// runs: [{ y, se }] of one point. Returns { y, v, spread }.
export function poolRuns(runs, drift = INVOCATION_DRIFT) {
  if (runs.length === 1) return { y: runs[0].y, v: runs[0].se ** 2 + drift ** 2, spread: drift };
  const w = runs.map((r) => 1 / r.se ** 2);
  const sw = w.reduce((a, b) => a + b, 0);
  const mean = runs.reduce((a, r, i) => a + w[i] * r.y, 0) / sw;
  const q = runs.reduce((a, r, i) => a + w[i] * (r.y - mean) ** 2, 0);
  const between = (q - (runs.length - 1)) / (sw - w.reduce((a, b) => a + b * b, 0) / sw);
  const spread = Math.sqrt(Math.max(drift ** 2, between));
  const ws = runs.map((r) => 1 / (r.se ** 2 + spread ** 2));
  const sws = ws.reduce((a, b) => a + b, 0);
  return { y: runs.reduce((a, r, i) => a + ws[i] * r.y, 0) / sws, v: 1 / sws, spread };
}

// How a run is named on a chart or in a sentence: its date and time, and its label or commit if it
// has one (else the time to the second, so that runs of one minute differ).
export function runName(entry) {
  const tag = entry.label || (entry.commit ? String(entry.commit).slice(0, 10) : null);
  const when = entry.createdAt.replace('T', ' ');
  return tag ? `${when.slice(0, 16)} ${tag}` : when.slice(0, 19);
}

// The runtime "line" of a cell for --by date: the label the matrix gave it, else its spec.
function lineOf(entry, cell) {
  const runtime = entry.runtimes.find((r) => r.label === cell.runtimeLabel);
  if (!runtime) return cell.runtimeLabel;
  return runtime.label !== runtime.version ? runtime.label : runtime.spec;
}

const matches = (list, ...names) => !list || names.some((n) => list.includes(n));

// filters: { suites, benchmarks, flagSets } (arrays or undefined); a benchmark matches by its name
// or suite/name.
export function selectCells(entries, { suites, benchmarks, flagSets } = {}) {
  const out = [];
  for (const entry of entries) {
    const suiteOf = new Map(entry.suites.map((s) => [s.name, s]));
    const flagsOf = new Map(entry.flagSets.map((f) => [f.name, f.flags]));
    for (const cell of entry.cells) {
      if (!matches(suites, cell.suite) || !matches(benchmarks, cell.benchmark, benchmarkName(cell)) || !matches(flagSets, cell.flagSet)) continue;
      const suite = suiteOf.get(cell.suite);
      out.push({ entry, cell, params: canonicalJson(suite?.params ?? {}), suiteFile: suite?.file ?? null, flags: flagsOf.get(cell.flagSet) || [] });
    }
  }
  return out;
}

export function compareVersions(a, b) {
  return semver.valid(a) && semver.valid(b) ? semver.compare(a, b) : byText(a, b);
}

// A run's cell as a point sees it: its log rate and standard error, the interval widened for the
// host's speed when its processes ran slower than their runtime's fast mode, or for the machine's
// disturbance when all of them ran disturbed (entry.js), whichever may have slowed it more.
function runEstimate(cell) {
  const y = Math.log(cell.opsPerSec);
  const slowdown = Math.max(cell.hostSlowdown || 0, cell.disturbance || 0);
  const widened = slowdown > 0 && cell.low > 0 && cell.high > 0
    ? widenForHost({ low: cell.low / cell.opsPerSec, high: cell.high / cell.opsPerSec, df: Infinity, level: 0.95 }, Math.log(slowdown))
    : null;
  if (!widened) return { y, se: cell.logSe };
  return { y: y + Math.log(widened.low * widened.high) / 2, se: widened.se, hostSlowdown: slowdown };
}

// group: the { entry, cell } of one point. A point keeps them as its runs. drift: the drift per
// side between runs of this series (drift.js).
function makePoint(group, by, drift) {
  const first = group[0];
  const runtimes = [];
  const ok = [];
  for (const run of group) {
    if (!runtimes.includes(run.cell.runtime)) runtimes.push(run.cell.runtime);
    if (run.cell.status === 'ok' && run.cell.logSe > 0) ok.push(run.cell);
  }
  const point = {
    x: by === 'version' ? first.cell.runtime : first.entry.createdAt,
    name: by === 'version' ? first.cell.runtime : runName(first.entry),
    runtimes,
    runs: group.map(({ entry, cell }) => ({ entry, cell })),
    status: 'ok'
  };
  if (!ok.length) {
    const last = group.at(-1).cell;
    // Measured, but with a margin over 100%: an interval without bounds weighs nothing.
    point.status = last.status === 'ok' ? 'unbounded' : last.status;
    point.reason = last.status === 'ok' ? 'its interval has no upper bound (margin over 100%); measure with more processes' : last.reason;
    return point;
  }
  const estimates = ok.map(runEstimate);
  const pooled = poolRuns(estimates, drift);
  const slowdowns = estimates.map((e) => e.hostSlowdown).filter(Boolean);
  if (slowdowns.length) point.hostSlowdown = Math.max(...slowdowns);
  const half = Z95 * Math.sqrt(pooled.v);
  point.y = pooled.y;
  point.v = pooled.v;
  // One run: its own estimate, as report prints it (not its exp(log()), which rounds).
  point.opsPerSec = ok.length === 1 ? ok[0].opsPerSec : Math.exp(pooled.y);
  point.low = Math.exp(pooled.y - half);
  point.high = Math.exp(pooled.y + half);
  return point;
}

const byText = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

// A point's value and interval in its series' unit: ops/s for time, instructions per operation for
// counts (the rate inverted, so the interval's ends swap). { value, low, high }, or null.
export function pointValue(series, point) {
  if (point.status !== 'ok') return null;
  if (series.measure !== MEASURES.instructions.id) return { value: point.opsPerSec, low: point.low, high: point.high };
  const per = (rate) => (rate > 0 ? 1e9 / rate : null);
  return { value: per(point.opsPerSec), low: per(point.high), high: per(point.low) };
}

// The series of the selected cells, each { key, host, suite, suiteFile, params, benchmark, flagSet,
// flags, line, measure, unit, drift (the floor of its points' spread between runs), points: [{ x, name, runtimes, runs: [{ entry, cell }], status, and when ok y, v,
// opsPerSec, low, high }] }, in a stable order (suite, benchmark, flag set, line).
// keys: build only the series with these keys (a Set), or all.
export function buildSeries(entries, { by = 'version', keys = null, ...filters } = {}) {
  const drift = storeDrift(selectCells(entries));
  const groups = new Map();
  for (const item of selectCells(entries, filters)) {
    const { entry, cell, params, flags } = item;
    const line = by === 'date' ? lineOf(entry, cell) : null;
    const measure = measureNamed(cell.measure);
    // A time series keeps the key it had before counts existed (a gate compares keys across adds);
    // a count's series spans hosts (host null), as no host moves a count, but not architectures:
    // an arm64 build's count is of another binary.
    const timedCell = measure.id === 'time';
    const host = timedCell ? cell.host : null;
    const arch = timedCell ? null : cell.arch ?? null;
    const key = canonicalJson([host, cell.suite, params, cell.benchmark, cell.flagSet, flags, line, ...(timedCell ? [] : [measure.id, arch])]);
    if (keys && !keys.has(key)) continue;
    if (!groups.has(key)) {
      const floor = timedCell ? drift.driftFor(cell.host, cell.suite) : measure.repeatability;
      groups.set(key, { key, host, arch, suite: cell.suite, params, benchmark: cell.benchmark, flagSet: cell.flagSet, flags, line, measure: measure.id, unit: measure.unit, drift: floor, cells: [] });
    }
    const group = groups.get(key);
    group.cells.push(item);
    // Where the suite was loaded from in its newest run (entries come oldest first).
    group.suiteFile = item.suiteFile ?? group.suiteFile ?? null;
  }
  const series = [...groups.values()].map(({ cells, ...s }) => {
    const byX = new Map();
    for (const item of cells) {
      const x = by === 'version' ? item.cell.runtime : item.entry.id;
      if (!byX.has(x)) byX.set(x, []);
      byX.get(x).push(item);
    }
    const points = [...byX.values()].map((group) => makePoint(group, by, s.drift));
    points.sort(by === 'version' ? (a, b) => compareVersions(a.x, b.x) : (a, b) => byText(a.x, b.x));
    return { ...s, points };
  });
  const order = (s) => [s.suite, s.benchmark, s.flagSet === 'baseline' ? '' : s.flagSet, s.line ?? '', s.measure === 'time' ? '' : s.measure, s.arch ?? '', s.params, s.host ?? ''];
  const sorted = series.sort((a, b) => {
    const [oa, ob] = [order(a), order(b)];
    for (let i = 0; i < oa.length; i++) if (oa[i] !== ob[i]) return oa[i] < ob[i] ? -1 : 1;
    return 0;
  });
  sorted.drift = drift;
  return sorted;
}

// The change points of a series, over its ok points: { extra, changes: [{ ..., from, to (the
// points either side), beforePoints, afterPoints }] }.
export function analyse(series, options) {
  const ok = series.points.filter((p) => p.status === 'ok');
  const found = changePoints(ok, options);
  return {
    extra: found.extra,
    changes: found.changes.map((c) => ({ ...c, from: ok[c.index - 1], to: ok[c.index], beforePoints: ok.slice(...c.before), afterPoints: ok.slice(...c.after) }))
  };
}
