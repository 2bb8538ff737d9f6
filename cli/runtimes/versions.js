// Turns a runtime spec ("16", "16.13.0", "^14.17", "lts", "latest"; parsed by spec.js) into one
// exact version out of the versions a provider offers. Pure: no I/O, so it is unit-tested with
// fixed lists and dates.
import semver from 'semver';
import { UserError } from '../errors.js';
import { parseKnownRuntimeSpec } from './spec.js';

// Node's even majors are released in April of year 2013 + major/2 and become LTS in late October
// of that year (20 -> 2023, 22 -> 2024, 24 -> 2025). The npm packages carry no LTS marker, so this
// schedule picks the candidate; the installed binary's process.release.lts confirms it.
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

// Newest LTS majors first, one version each (the newest of its major). `marks` come from the version
// index, when it has them: `lts` (a mirror's index.json: the codename or false per version) decides
// outright; `published` (the npm registry's publish times) rules out a line whose newest release came
// out before the line's LTS start, as no release of it can be LTS yet. The binary still confirms.
export function ltsCandidates(versions, now = new Date(), marks = {}) {
  const releases = releaseVersions(versions);
  if (marks.lts) {
    const marked = releases.filter((v) => marks.lts[v]);
    return [...new Set(marked.map((v) => semver.major(v)))].map((m) => semver.maxSatisfying(marked, `${m}.x`));
  }
  const majors = [...new Set(releases.map((v) => semver.major(v)))];
  return majors.filter((m) => isLtsByDate(m, now)).sort((a, b) => b - a)
    .map((m) => semver.maxSatisfying(releases, `${m}.x`))
    .filter((v) => !marks.published?.[v] || !(new Date(marks.published[v]) < ltsStartDate(semver.major(v))));
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
