// Resolve a runtime spec to one exact, installed node binary, installing it when needed.
// Order: the nodebench cache, the user's nvm, then a download (a nodejs.org-layout mirror when one
// is configured, otherwise the npm registry packages). Specs: 16, 16.13.0, ">=14 <17", lts, latest,
// system, or a path to a binary.
import path from 'node:path';
import fs from 'node:fs';
import semver from 'semver';
import { UserError } from '../errors.js';
import { resolveVersion, ltsCandidates, releaseVersions } from './versions.js';
import { parseKnownRuntimeSpec } from './spec.js';
import { availableVersions } from './version-index.js';
import { cachedRuntime, listCached } from './cache.js';
import { installFromNpm } from './npm-registry.js';
import { configuredMirror, installFromMirror } from './mirror.js';
import { nvmVersions, nvmBinary, installWithNvm } from './nvm.js';
import { inspectBinary } from './inspect.js';
import { labelMismatch, repairAdvice } from './verify.js';
import { npmPackageName } from './platform.js';

function whichNode(env) {
  for (const dir of String(env.PATH || '').split(path.delimiter)) {
    const candidate = path.join(dir || '.', 'node');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // keep looking
    }
  }
  throw new UserError('Runtime "system" needs a node on PATH, and there is none; install Node or give a path or version instead.');
}

function indexSource(env) {
  const mirror = configuredMirror(env);
  return mirror ? { kind: 'mirror', mirror } : { kind: 'npm', packageName: npmPackageName() };
}

function describeSource(source) {
  return source.kind === 'mirror' ? `the mirror ${source.mirror}` : `the npm registry (${source.packageName})`;
}

async function installedVersions(env) {
  const cached = (await listCached(env)).filter((r) => r.platform === process.platform && r.arch === process.arch);
  return [...new Set([...cached.map((r) => r.version), ...(await nvmVersions(env))])];
}

// Where a runtime may come from: by default the nodebench cache, then the user's nvm, then a
// download into the cache; `nvm` asks nvm itself (the user's nvm, installing with nvm's installer).
export const PROVIDERS = ['nvm'];

// An nvm folder is labelled by its name only: the binary inside is asked, like a cache entry's.
async function nvmRuntime(version, env, binary = nvmBinary(version, env)) {
  const info = await inspectBinary(binary);
  const mismatch = labelMismatch(version, info.version, 'nvm folder');
  if (mismatch) {
    throw new UserError(`Node ${version} in your nvm (${binary}) is damaged: ${mismatch}; ${repairAdvice({ provider: 'nvm', version })}.`);
  }
  return { ...info, provider: 'nvm', source: binary, path: binary };
}

async function existingRuntime(version, env) {
  const cached = await cachedRuntime(version, env);
  if (cached) return cached;
  if ((await nvmVersions(env)).includes(version)) return nvmRuntime(version, env);
  return null;
}

export async function installVersion(version, { env = process.env, log = () => {}, provider } = {}) {
  if (provider === 'nvm') {
    if ((await nvmVersions(env)).includes(version)) return nvmRuntime(version, env);
    log(`installing Node ${version} with nvm (nvm install ${version}) ...`);
    return nvmRuntime(version, env, await installWithNvm(version, { env }));
  }
  const existing = await existingRuntime(version, env);
  if (existing) return existing;
  const mirror = configuredMirror(env);
  log(`installing Node ${version} from ${mirror ? `the mirror ${mirror}` : 'the npm registry'} ...`);
  return mirror ? installFromMirror(version, mirror, { env }) : installFromNpm(version, { env });
}

// Which exact versions a parsed spec may mean, newest first (more than one only for "lts", whose
// newest candidate is confirmed by the binary itself).
async function candidateVersions(spec, { env, refresh, log, provider }) {
  // nvm installs an exact version itself: no list of versions is needed for one.
  if (spec.kind === 'exact' && (provider === 'nvm' || (await existingRuntime(spec.version, env)))) return [spec.version];
  const source = indexSource(env);
  let listing;
  try {
    listing = await availableVersions(source, { env, refresh });
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    // Offline: what is already installed can still serve the spec.
    const installed = await installedVersions(env);
    const usable = spec.range ? semver.maxSatisfying(installed, spec.range) : null;
    if (usable) {
      log(`warning: ${err.message} Using the cached Node ${usable} for "${spec.text}".`);
      return [usable];
    }
    // Many mirrors serve the release folders (archive + SHASUMS256.txt) but no index.json: an exact
    // version needs no index, and the checksum file verifies the download.
    if (spec.kind === 'exact' && configuredMirror(env)) {
      log(`the mirror has no version index (${err.detail || err.message}); trying v${spec.version}/ directly`);
      return [spec.version];
    }
    throw new UserError(`Node "${spec.text}" is not in the cache and could not be fetched from ${describeSource(source)} (${err.detail || err.message}); check the network or the registry/mirror setting, or install it while online.`);
  }
  if (listing.stale) log(`warning: using an old list of Node versions (${listing.staleReason})`);
  if (spec.kind === 'lts') return ltsCandidates(releaseVersions(listing.versions)).slice(0, 2);
  return [resolveVersion(spec, listing.versions, { source: describeSource(source) })];
}

// `spec` is a string or what parseRuntimeSpec made of one; an invalid spec is refused before any
// version list is fetched.
// provider: undefined (the cache, then nvm, then a download) or 'nvm' (nvm only, installing with it).
export async function ensureRuntime(spec, { env = process.env, refresh = false, log = () => {}, provider } = {}) {
  const parsed = parseKnownRuntimeSpec(spec);
  if (provider !== undefined && provider !== null && !PROVIDERS.includes(provider)) {
    throw new UserError(`Provider "${provider}" is not known; the one provider to ask for is ${PROVIDERS.join(', ')} (leave it out for the nodebench cache and downloads).`);
  }
  if ((parsed.kind === 'system' || parsed.kind === 'path') && provider) {
    throw new UserError(`Runtime "${parsed.text}" names a binary, so provider ${provider} has nothing to install; give a version (e.g. 16.20.2) or leave the provider out.`);
  }
  if (parsed.kind === 'system' || parsed.kind === 'path') {
    const binary = parsed.kind === 'system' ? whichNode(env) : parsed.path;
    return { spec: parsed.text, ...(await inspectBinary(binary)), provider: parsed.kind, source: binary, path: binary };
  }
  const candidates = await candidateVersions(parsed, { env, refresh, log, provider });
  for (const version of candidates) {
    const runtime = await installVersion(version, { env, log, provider });
    if (parsed.kind !== 'lts' || runtime.lts) return { spec: parsed.text, ...runtime };
    log(`Node ${version} is not an LTS release yet (process.release.lts is empty); trying the previous LTS line.`);
  }
  throw new UserError(`No LTS Node version could be confirmed from ${describeSource(indexSource(env))}; give a version instead of "lts".`);
}

export { listCached } from './cache.js';

// Every release version the configured source offers, oldest first (for bisecting between two).
export async function listReleases({ env = process.env, refresh = false } = {}) {
  const listing = await availableVersions(indexSource(env), { env, refresh });
  return releaseVersions(listing.versions).sort(semver.compare);
}
