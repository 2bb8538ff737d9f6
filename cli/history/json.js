// `history show --format json`: the runs, hosts, series and change points, for other tools.
import { renderJson as json } from '../render/json.js';
import { describeStoreDrift } from './drift.js';
import { pointValue } from './series.js';

const changeJson = (c) => ({
  from: c.from.name, to: c.to.name, ratio: c.ratio, low: c.low, high: c.high, p: c.p, isNew: c.isNew, alsoChanged: c.also, bisect: c.bisect
});

export function renderJson(analysis, { store }) {
  return json({
    store,
    by: analysis.by,
    runs: analysis.entries.map((e) => ({ id: e.id, createdAt: e.createdAt, addedAt: e.addedAt, label: e.label, commit: e.commit, nodebench: e.nodebench, schemaVersion: e.schemaVersion, source: e.source })),
    hosts: analysis.hosts,
    // The drift between runs per side that each series' points were widened by (its `drift`), and
    // how the series were judged together: searched further when their largest shift was a discovery
    // at `alpha` over `tested` series, at `level`.
    drift: describeStoreDrift(analysis.drift).split('\n'),
    search: analysis.search,
    series: analysis.series.map((s) => ({
      suite: s.suite, benchmark: s.benchmark, params: JSON.parse(s.params), flagSet: s.flagSet, flags: s.flags, line: s.line, host: s.host, drift: s.drift, extraSpread: s.extra,
      // A series of counts (unit instructions/op) gives its points' rate as operations per 10^9
      // instructions in opsPerSec/low/high, and the count itself in perOp; arch: its build's
      // architecture (null for time, whose series is of one host).
      measure: s.measure, unit: s.unit, arch: s.arch,
      points: s.points.map((p) => ({ x: p.x, name: p.name, runtimes: p.runtimes, status: p.status, reason: p.reason, opsPerSec: p.opsPerSec ?? null, low: p.low ?? null, high: p.high ?? null, ...(s.measure === 'time' ? {} : { perOp: pointValue(s, p) }), hostSlowdown: p.hostSlowdown ?? null, runs: p.runs.map((r) => r.entry.id) })),
      changes: s.changes.map(changeJson)
    }))
  });
}
