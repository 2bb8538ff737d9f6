// The history as every output format shows it: the series, their change points described in words
// (the runtime versions or runs either side, the shift with its interval, what else changed there,
// and the bisect command that would close a gap between two releases), and which change points
// are new: found with the newest `history add` and not without it (the gate's question).
import semver from 'semver';
import { buildSeries, analyse } from './series.js';
import { releasesBetween } from '../bisect/releases.js';
import { builtInSuites } from '../matrix/discover-suites.js';
import { shellWord } from '../text/escape.js';
import { benchmarkName } from '../cell-identity.js';

const setOf = (runs, fact) => new Set(runs.map(fact).filter((v) => v !== null && v !== undefined));

// Facts that differ on the two sides of a change, besides what the series is ordered by.
function alsoChanged(from, to, by) {
  const facts = [['nodebench', (r) => r.entry.nodebench], ['kernel', (r) => r.entry.kernel], ...(by === 'date' ? [['Node', (r) => r.cell.runtime]] : [])];
  const notes = [];
  for (const [name, fact] of facts) {
    const before = setOf(from.runs, fact);
    const after = setOf(to.runs, fact);
    if (before.size && after.size && ![...after].some((v) => before.has(v))) notes.push(`${name} ${[...before].join('/')} -> ${[...after].join('/')}`);
  }
  return notes;
}

// The bisect that finds the release between the two sides, when they ran different releases with
// others in between. releases: the known Node releases, or null (then the command is given
// whenever the versions differ, as bisect itself says when there is nothing between).
function bisectHint(series, from, to, releases) {
  const good = from.runtimes.at(-1);
  const bad = to.runtimes[0];
  if (!semver.valid(good) || !semver.valid(bad) || good === bad) return null;
  const between = releases ? releasesBetween(releases, good, bad).length - 2 : null;
  if (between === 0) return { between, command: null };
  const flags = series.flags.length ? ` --flags ${shellWord(series.flags.join(' '))}` : '';
  // bisect takes a shipped suite by name, any other by its file.
  const suite = builtInSuites().includes(series.suite) || !series.suiteFile ? series.suite : series.suiteFile;
  return { between, command: `nodebench bisect --good ${good} --bad ${bad} --suite ${shellWord(suite)} --benchmark ${shellWord(series.benchmark)}${flags}` };
}

// Whether two change points of one series are the same: their "after" points at most one point
// apart (a new run can move where the search puts a change by one).
function sameChange(change, earlier, points) {
  const at = (c) => points.findIndex((p) => p.x === c.to.x);
  return earlier.some((e) => Math.abs(at(e) - at(change)) <= 1 && at(e) >= 0);
}

// entries: the store's (store.js readStore). options: { by, suites, benchmarks, flagSets,
// releases, minSegment }. Returns { by, entries, hosts, series: [{ ...series, extra, changes }] }
// where each change has { from, to, ratio, low, high, p, also, bisect, isNew }.
export function analyseHistory(entries, { by = 'version', releases = null, minSegment, ...filters } = {}) {
  const newestBatch = entries.length ? entries.reduce((a, e) => (e.addedAt > a.addedAt ? e : a)).batch : null;
  const found = buildSeries(entries, { by, ...filters }).map((s) => ({ ...s, ...analyse(s, { minSegment }) }));
  // The same search without the newest add, for the series that have change points now.
  const keys = new Set(found.filter((s) => s.changes.length).map((s) => s.key));
  const earlierEntries = entries.filter((e) => e.batch !== newestBatch);
  const earlier = new Map(keys.size ? buildSeries(earlierEntries, { by, keys, ...filters }).map((s) => [s.key, analyse(s, { minSegment }).changes]) : []);
  const series = found.map((s) => {
    const okPoints = s.points.filter((p) => p.status === 'ok');
    return {
      ...s,
      changes: s.changes.map((c) => ({
        ...c,
        also: alsoChanged(c.from, c.to, by),
        bisect: bisectHint(s, c.from, c.to, releases),
        isNew: !sameChange(c, earlier.get(s.key) || [], okPoints)
      }))
    };
  });
  const hosts = new Map(entries.flatMap((e) => e.hosts.map((h) => [h.id, h])));
  return { by, entries, hosts: [...hosts.values()], series };
}

// Changes that cross releases: the commands need the list of releases to count what lies between.
export const crossesReleases = (analysis) => analysis.series.some((s) => s.changes.some((c) => c.from.runtimes.at(-1) !== c.to.runtimes[0]));

// The gate: new change points that are slowdowns by more than `limit` percent, grouped per
// benchmark: [{ label, changes: [{ series, change }] }].
export function gateFailures(analysis, limit) {
  const byBenchmark = new Map();
  for (const s of analysis.series) {
    for (const change of s.changes) {
      if (!change.isNew || change.ratio >= 1 || (1 - change.ratio) * 100 <= limit) continue;
      const label = benchmarkName(s);
      if (!byBenchmark.has(label)) byBenchmark.set(label, { label, changes: [] });
      byBenchmark.get(label).changes.push({ series: s, change });
    }
  }
  return [...byBenchmark.values()];
}
