// The history as every output format shows it: the series, their change points described in words
// (the runtime versions or runs either side, the shift with its interval, what else changed there,
// and the bisect command that would close a gap between two releases), and which change points
// are new: found with the newest `history add` and not without it (the gate's question).
import semver from 'semver';
import { buildSeries, analyse } from './series.js';
import { firstSplitP, extraSpread, ALPHA, MIN_SEGMENT } from './changepoints.js';
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
export function bisectHint(series, from, to, releases) {
  const good = from.runtimes.at(-1);
  const bad = to.runtimes[0];
  if (!semver.valid(good) || !semver.valid(bad) || good === bad) return null;
  const between = releases ? releasesBetween(releases, good, bad).length - 2 : null;
  if (between === 0) return { between, command: null };
  const flags = series.flags.length ? ` --flags ${shellWord(series.flags.join(' '))}` : '';
  // bisect takes a shipped suite by name, any other by its file.
  const suite = builtInSuites().includes(series.suite) || !series.suiteFile ? series.suite : series.suiteFile;
  // A change found in counts is searched in counts: time and counts can move apart (gc cells).
  const measure = series.measure === 'instructions' ? ' --measure instructions' : '';
  return { between, command: `nodebench bisect --good ${good} --bad ${bad} --suite ${shellWord(suite)} --benchmark ${shellWord(series.benchmark)}${flags}${measure}` };
}

// Whether two change points of one series are the same: their "after" points at most one point
// apart (a new run can move where the search puts a change by one).
function sameChange(change, earlier, points) {
  const at = (c) => points.findIndex((p) => p.x === c.to.x);
  return earlier.some((e) => Math.abs(at(e) - at(change)) <= 1 && at(e) >= 0);
}

// The search's settings for each series, judged together: a series is searched only when its
// first split is a discovery at one false discovery rate over all the series shown (Benjamini-
// Hochberg over the first splits' p-values), and then at the level that selection implies, alpha x
// selected / tested (Benjamini and Bogomolov, 2014: selective inference on families), as diff
// judges its comparisons at one rate. Each series alone at 5% showed change points in about 5% of
// 140 unchanged series, where two runs of one commit should show none.
// by version the consecutive points are different releases, whose differences are real: they say
// nothing of the scatter between runs, which the points carry already (drift.js, poolRuns), so no
// excess spread is estimated from them (it took the 4.9.1 -> 6.17.1 halving of gc/young-gen-churn
// for scatter).
function searchPlan(series, { by, minSegment = MIN_SEGMENT, alpha = ALPHA }) {
  const plans = series.map((s) => {
    const ok = s.points.filter((p) => p.status === 'ok');
    const extra = by === 'version' ? 0 : extraSpread(ok);
    return { extra, tested: ok.length >= 2 * minSegment, p: ok.length >= 2 * minSegment ? firstSplitP(ok, { alpha, minSegment, extra }) : 1 };
  });
  const tested = plans.filter((p) => p.tested).length;
  const sorted = plans.filter((p) => p.tested).map((p) => p.p).sort((a, b) => a - b);
  let selected = 0;
  sorted.forEach((p, i) => {
    if (p <= (alpha * (i + 1)) / tested) selected = i + 1;
  });
  const level = selected ? (alpha * selected) / tested : 0;
  return { alpha, tested, selected, level, plans: plans.map((p) => ({ extra: p.extra, searched: p.tested && p.p <= level })) };
}

// entries: the store's (store.js readStore). options: { by, suites, benchmarks, flagSets,
// releases, minSegment }. Returns { by, entries, hosts, drift (drift.js), search: { alpha, tested,
// selected, level }, series: [{ ...series, drift, extra, changes }] } where each change has { from,
// to, ratio, low, high, p, also, bisect, isNew }.
export function analyseHistory(entries, { by = 'version', releases = null, minSegment, ...filters } = {}) {
  const newestBatch = entries.length ? entries.reduce((a, e) => (e.addedAt > a.addedAt ? e : a)).batch : null;
  const built = buildSeries(entries, { by, ...filters });
  const { plans, ...search } = searchPlan(built, { by, minSegment });
  const found = built.map((s, i) => (plans[i].searched
    ? { ...s, ...analyse(s, { minSegment, alpha: search.level, extra: plans[i].extra }) }
    : { ...s, extra: plans[i].extra, changes: [] }));
  // The same search without the newest add, for the series that have change points now, at the level
  // they were found at (whether the older runs already held the change, not whether a smaller store
  // would have selected the series).
  const keys = new Set(found.filter((s) => s.changes.length).map((s) => s.key));
  const earlierEntries = entries.filter((e) => e.batch !== newestBatch);
  const earlierOptions = { minSegment, alpha: search.level, extra: by === 'version' ? 0 : undefined };
  const earlier = new Map(keys.size ? buildSeries(earlierEntries, { by, keys, ...filters }).map((s) => [s.key, analyse(s, earlierOptions).changes]) : []);
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
  return { by, entries, hosts: [...hosts.values()], drift: built.drift, search, series };
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
