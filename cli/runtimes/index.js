// Resolve a runtime spec to one exact, installed node binary, installing it when needed.
// Order: the nodebench cache, the user's nvm, then a download (a nodejs.org-layout mirror when one
// is configured, otherwise the npm registry packages). Specs: 16, 16.13.0, ">=14 <17", lts, latest,
// system, or a path to a binary.
import semver from 'semver';
import { UserError } from '../errors.js';
import { resolveVersion, ltsCandidates, releaseVersions } from './versions.js';
import { parseKnownRuntimeSpec } from './spec.js';
import { availableVersions } from './version-index.js';
import { listCached } from './cache.js';
import { PROVIDERS, CHOOSABLE_PROVIDERS, isChoosableProvider, providerNamed, downloadProvider } from './providers.js';
import { nvmVersions } from './nvm.js';

function describeSource(source) {
  return source.kind === 'mirror' ? `the mirror ${source.mirror}` : `the npm registry (${source.packageName})`;
}

const indexSource = (env) => downloadProvider(env).index(env);

async function installedVersions(env) {
  const cached = (await listCached(env)).filter((r) => r.platform === process.platform && r.arch === process.arch);
  return [...new Set([...cached.map((r) => r.version), ...(await nvmVersions(env))])];
}

// Where an exact version is looked for, in order, when no provider is named: the cache and the
// installers' own folders (nvm), each verified; null when none has it.
// Providers that share a store (npm and mirror: the cache) share its lookup, asked once.
async function existingRuntime(version, env) {
  for (const installed of new Set(PROVIDERS.filter((p) => p.kind !== 'binary').map((p) => p.installed))) {
    const runtime = await installed(version, { env });
    if (runtime) return runtime;
  }
  return null;
}

export async function installVersion(version, { env = process.env, log = () => {}, provider } = {}) {
  if (provider) {
    const named = providerNamed(provider);
    return (await named.installed(version, { env })) || named.install(version, { env, log });
  }
  const existing = await existingRuntime(version, env);
  if (existing) return existing;
  const source = downloadProvider(env);
  log(`installing Node ${version} from ${source.name === 'mirror' ? `the mirror ${source.index(env).mirror}` : 'the npm registry'} ...`);
  return source.install(version, { env, log });
}

// Which exact versions a parsed spec may mean, newest first (more than one only for "lts", whose
// newest candidate is confirmed by the binary itself).
async function candidateVersions(spec, { env, refresh, log, provider }) {
  // nvm installs an exact version itself: no list of versions is needed for one.
  // An exact version needs no list when it is installed (ensureRuntime looked) or an installer
  // (nvm) is asked for it by name.
  if (spec.kind === 'exact' && provider && providerNamed(provider).kind === 'installer') return [spec.version];
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
    if (spec.kind === 'exact' && source.kind === 'mirror') {
      log(`the mirror has no version index (${err.detail || err.message}); trying v${spec.version}/ directly`);
      return [spec.version];
    }
    throw new UserError(`Node "${spec.text}" is not in the cache and could not be fetched from ${describeSource(source)} (${err.detail || err.message}); check the network or the registry/mirror setting, or install it while online.`);
  }
  if (listing.stale) log(`warning: using an old list of Node versions (${listing.staleReason})`);
  if (spec.kind === 'lts') return ltsCandidates(listing.versions, new Date(), listing).slice(0, 2);
  return [resolveVersion(spec, listing.versions, { source: describeSource(source) })];
}

// `spec` is a string or what parseRuntimeSpec made of one; an invalid spec is refused before any
// version list is fetched.
// provider: undefined (the cache, then nvm, then a download) or 'nvm' (nvm only, installing with it).
export async function ensureRuntime(spec, { env = process.env, refresh = false, log = () => {}, provider } = {}) {
  const parsed = parseKnownRuntimeSpec(spec);
  if (provider !== undefined && provider !== null && !isChoosableProvider(provider)) {
    throw new UserError(`Provider "${provider}" is not known; the one provider to ask for is ${CHOOSABLE_PROVIDERS.join(', ')} (leave it out for the nodebench cache and downloads).`);
  }
  if ((parsed.kind === 'system' || parsed.kind === 'path') && provider) {
    throw new UserError(`Runtime "${parsed.text}" names a binary, so provider ${provider} has nothing to install; give a version (e.g. 16.20.2) or leave the provider out.`);
  }
  if (parsed.kind === 'system' || parsed.kind === 'path') {
    return { spec: parsed.text, ...(await providerNamed(parsed.kind).resolve(parsed, { env })) };
  }
  // Installed already: checked once here, not again by installVersion.
  const existing = parsed.kind === 'exact' && !provider ? await existingRuntime(parsed.version, env) : null;
  if (existing) return { spec: parsed.text, ...existing };
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
