// What the history store's index keeps of one result file: who measured it where (host
// fingerprint, nodebench version, label, commit), what ran (runtimes, flag sets, suite parameters)
// and, per cell, the estimate with its interval and the standard error on the log scale that the
// change-point search weighs it by. Everything here is derived from the result file, which the
// store keeps beside it: the index is a view, never a second source of truth.
import crypto from 'node:crypto';
import { isUnfinished, restsOnDisturbed } from '../cell-identity.js';
import { fastReferences, cellHostLevel } from '../stats/host-speed.js';
import { disturbanceOf } from '../stats/compare.js';
import { Z95 } from './changepoints.js';
import { measureOfCell, measureOfResult, rateOf } from '../measure.js';

// Bumped when an entry's meaning changes; older entries are rebuilt from their stored result.
// 2: each ok cell's degrees of freedom and the host's speed for its processes (drift.js, series.js).
// 3: the measure of the run and of a counted cell (series.js keeps counts and times apart and lets
//    counts of any host share a series; a version-2 entry of an instruction run read its count as
//    nanoseconds).
// 4: a time cell whose processes all ran on a disturbed machine keeps its `disturbance` (series.js
//    widens its point by it, drift.js leaves it out of the estimate).
// 5: a counted cell keeps its build's architecture (`arch`): counts of an arm64 build and of the x64
//    one are of different binaries, never one series.
export const ENTRY_VERSION = 5;

// JSON with object keys sorted, so that equal parameters give equal text.
export function canonicalJson(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  return JSON.stringify(value ?? null);
}

// The facts about a machine that make its figures comparable with another run's. The hostname is
// left out: CI runners get a new one every job. The kernel too: an update is something a history
// should span (and show), not a reason to start another series.
export function hostFingerprint(host) {
  const facts = { cpuModel: host.cpuModel, cores: host.cores, memoryGiB: Math.round(host.memoryBytes / 2 ** 30), os: host.os };
  return { id: crypto.createHash('sha256').update(canonicalJson(facts)).digest('hex').slice(0, 12), ...facts };
}

export const describeHost = (h) => `${h.cpuModel}, ${h.cores} cores, ${h.memoryGiB} GiB, ${h.os}`;

// A cell's estimate as a point of a series: rate and 95% interval in ops/s, and the standard error
// of the log rate that the interval implies when read as ±1.96 standard errors. For a cell of few
// processes the interval is a t interval, wider than that: such a point then counts for less in a
// series, which is right, as its own spread is known only roughly. A one-process cell (--quick)
// has a bootstrap interval over its samples that leaves out the spread between processes; the
// drift between runs that series.js adds covers part of it.
// df: the interval's degrees of freedom (processes - 1, plus the suite prior's when its variance was
// moderated; trimming, rare, would take a few off), for the drift between runs (drift.js), which
// needs the standard error the t interval really has; null for a one-process cell.
// A counted cell (cli/measure.js) has no rate per second: its rate is operations per 10^9
// instructions, which compares the same way (a ratio above 1 is fewer instructions).
export function cellPoint(summary) {
  const { low, high } = summary.ci;
  return {
    opsPerSec: summary.opsPerSec ?? rateOf(summary),
    low: high > 0 ? 1e9 / high : null,
    high: low > 0 ? 1e9 / low : null,
    logSe: low > 0 && high > low ? Math.log(high / low) / (2 * Z95) : null,
    processes: summary.processes,
    df: summary.processes >= 2 ? summary.processes - 1 + (summary.variancePrior?.d0 ?? 0) : null
  };
}

// Each cell's host: a merged file names the shard host of every cell.
function hostOfCell(result) {
  const hosts = new Map((result.hosts || [result.host]).map((h) => [h.hostname, hostFingerprint(h)]));
  const fallback = hostFingerprint(result.host);
  return (cell) => (cell.host && hosts.get(cell.host)) || fallback;
}

// result: a result file already migrated and validated (results/read.js). meta: { id, label,
// commit, addedAt, batch, source (the path it was added from), schemaVersion (as written) }.
export function entryFrom(result, meta) {
  const hostOf = hostOfCell(result);
  const hosts = new Map();
  // How slow the host ran for each cell's processes against its runtime's fast mode in this run
  // (stats/host-speed.js): series.js widens the cell's interval by it, as diff does.
  const fasts = fastReferences(result.cells.filter((cell) => cell.status === 'ok'));
  const archOf = new Map(result.runtimes.map((r) => [r.label, r.arch]));
  const cells = result.cells.map((cell) => {
    const host = hostOf(cell);
    hosts.set(host.id, host);
    const counted = measureOfCell(cell).id === 'instructions';
    const base = { suite: cell.suite, benchmark: cell.benchmark, runtime: cell.runtime, runtimeLabel: cell.runtimeLabel, flagSet: cell.flagSet, host: host.id, ...(counted ? { measure: 'instructions', arch: archOf.get(cell.runtimeLabel) ?? null } : {}) };
    // No host moves a count, so no slowdown widens it.
    // A time cell whose processes all ran on a disturbed machine measured the host as much as its
    // code: how much slower it may have measured (stats/compare.js disturbanceOf), which series.js
    // widens its point by, as diff widens its comparisons.
    if (cell.status === 'ok') return { ...base, status: 'ok', ...cellPoint(cell.summary), hostSlowdown: counted ? null : cellHostLevel(cell, fasts).slowdown, ...(!counted && restsOnDisturbed(cell) ? { disturbance: disturbanceOf(cell) } : {}) };
    return { ...base, status: isUnfinished(cell) ? 'unfinished' : cell.status, reason: cell.error ? String(cell.error).slice(0, 200) : undefined };
  });
  return {
    entryVersion: ENTRY_VERSION,
    ...meta,
    createdAt: result.createdAt,
    status: result.status,
    // What store.js asks before mixing hosts: counts may come from any machine.
    measure: measureOfResult(result).id,
    nodebench: result.nodebench.version,
    hosts: [...hosts.values()],
    kernel: result.host.kernel,
    runtimes: result.runtimes.map((r) => ({ spec: r.spec, label: r.label, version: r.version, v8: r.v8 })),
    flagSets: result.flagSets.map((f) => ({ name: f.name, flags: f.flags })),
    suites: result.suites.map((s) => ({ name: s.name, params: s.params || {}, file: s.file })),
    cells
  };
}
