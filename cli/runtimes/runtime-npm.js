// The npm that belongs with a runtime, so that `npm` and `npx` in a command nodebench runs
// (`exec`, `commands:`) are the runtime's own and not the host's: npm 11 does not start on Node 14.
// The npm registry's node-<os>-<arch> packages carry only bin/node, so a cache entry gets its npm
// from the registry's `npm` package, into <entry>/npm/ (lib/node_modules/npm, bin/npm, bin/npx and
// the record nodebench-npm.json). It is installed when a run first needs it — a run with commands —
// not with the runtime: most runs measure suites and never start npm, and an entry installed before
// nodebench did this gets its npm the same way. A runtime from a mirror keeps the npm (and corepack)
// its archive shipped, from install on (adoptShippedNpm). nvm's folders and binaries given by path
// keep the npm installed beside them (nvm's is the one the release shipped), when there is one.
//
// Which npm: the release line's own npm major (the table below: what its releases shipped, the
// last ones in particular), its newest version whose `engines` accepts the runtime; for a line not
// in the table, the newest npm whose `engines` accepts it. For most releases that is exactly the npm
// the release shipped (14.21.3: 6.14.18, 16.20.2: 8.19.4, 6.17.1: 3.10.10); the record says how it
// was chosen. The tarball is fetched with `npm pack`, which checks it against the integrity the
// registry publishes; that integrity is recorded, and the installed package.json's version is
// checked each time the npm is used.
//
// corepack the same way, where the release had it (14.19+ on 14.x, 16.9 to 24: it is no longer
// distributed from Node 25 on): the newest corepack whose `engines` accepts the runtime, into
// <entry>/npm/lib/node_modules/corepack with bin/corepack (the releases' own corepack is not known
// from the registry; the record says how it was chosen). Where there is none of the runtime's own
// (a release without it, an archive without it, the registry unreachable), bin/corepack is a script
// that fails with one sentence instead of letting the host's corepack start on a runtime it may not
// run on (corepack 0.34 crashes on Node 14).
import fs from 'node:fs/promises';
import path from 'node:path';
import semver from 'semver';
import { tar } from './tar.js';
import { UserError, isUserError } from '../errors.js';
import { npm, npmErrorSummary } from './npm-cli.js';
import { makeStagingDir } from './cache.js';
import { readJsonIfExists, writeFileAtomic } from '../fs-atomic.js';

// Node major -> the npm major its releases shipped (for lines that changed npm major on the way,
// the one of the later releases, which every release of the line accepts by its engines).
export const SHIPPED_NPM_MAJOR = {
  4: 2, 5: 3, 6: 3, 7: 4, 8: 6, 9: 5, 10: 6, 11: 6, 12: 6, 13: 6, 14: 6, 15: 7, 16: 8, 17: 8,
  18: 10, 19: 9, 20: 10, 21: 10, 22: 10, 23: 10, 24: 11
};

export const NPM_RECORD = 'nodebench-npm.json';

const accepts = (engines, nodeVersion) => semver.satisfies(nodeVersion, engines, { loose: true });

// Non-prerelease releases [{ version, engines }], newest first.
function newestFirst(releases) {
  return releases.filter((r) => semver.valid(r.version) && !semver.prerelease(r.version)).sort((a, b) => semver.rcompare(a.version, b.version));
}

// Pure: { version, chosen } out of the npm releases [{ version, engines }] for `nodeVersion`, or null.
export function chooseNpm(nodeVersion, releases) {
  const sorted = newestFirst(releases);
  const major = SHIPPED_NPM_MAJOR[semver.major(nodeVersion)];
  if (major !== undefined) {
    // npm 2 to 5 declare no engines: within the line's own major, no declaration is no objection.
    const found = sorted.find((r) => semver.major(r.version) === major && (!r.engines?.node || accepts(r.engines.node, nodeVersion)));
    if (found) return { version: found.version, chosen: `the newest npm ${major}.x (the npm major Node ${semver.major(nodeVersion)} shipped) that accepts Node ${nodeVersion}` };
  }
  const found = sorted.find((r) => r.engines?.node && accepts(r.engines.node, nodeVersion));
  return found ? { version: found.version, chosen: `the newest npm whose engines accept Node ${nodeVersion}` } : null;
}

// The Node releases that shipped corepack (nodejs/node doc/contributing/distribution.md: added in
// 14.19.0 and 16.9.0, no longer distributed as of 25.0.0).
export const SHIPPED_COREPACK = '>=14.19.0 <15.0.0 || >=16.9.0 <25.0.0';
// corepack declares engines from 0.17.0 on (>=14.14.0 there), which every release above accepts.
const COREPACK_RANGE = '>=0.17.0';

// Pure: { version, chosen } out of corepack's releases for `nodeVersion`, or null (the release shipped
// none, or none accepts it).
export function chooseCorepack(nodeVersion, releases) {
  if (!semver.satisfies(nodeVersion, SHIPPED_COREPACK)) return null;
  const found = newestFirst(releases).find((r) => semver.satisfies(r.version, COREPACK_RANGE) && r.engines?.node && accepts(r.engines.node, nodeVersion));
  return found ? { version: found.version, chosen: `the newest corepack whose engines accept Node ${nodeVersion}, a release that shipped corepack` } : null;
}

// [{ version, engines }] of `name`'s versions in `range` (asked of corepack from 0.17.0, where its
// releases declare engines: for corepack@>=0.0.0 npm view prints the versions alone).
async function releasesOf(name, range, env) {
  const answer = await npm(['view', `${name}@${range}`, 'version', 'engines'], { timeout: 60_000, env });
  return (Array.isArray(answer) ? answer : [answer]).filter((r) => r && typeof r.version === 'string');
}

// Where a cache entry keeps its npm; null for runtimes that are not cache entries.
function npmHome(runtime) {
  return runtime.provider === 'npm' || runtime.provider === 'mirror' ? path.join(path.dirname(path.dirname(runtime.path)), 'npm') : null;
}

// The folder to put on PATH after the runtime's own for its npm and npx, or null (the runtime's
// folder already holds them, or there is no npm of its own).
export function npmBinDir(runtime) {
  const home = npmHome(runtime);
  return home && runtime.npm?.version ? path.join(home, 'bin') : null;
}

const exists = (file) => fs.access(file).then(() => true, () => false);

// The npm installed in `home`, checked against its record; null when there is none or it is damaged.
// A corepack that is not where the record says is forgotten, to be installed again.
async function installedNpm(home) {
  const record = await readJsonIfExists(path.join(home, NPM_RECORD)).catch(() => null);
  if (!record || typeof record.version !== 'string') return null;
  const pkg = await readJsonIfExists(path.join(home, 'lib', 'node_modules', 'npm', 'package.json')).catch(() => null);
  if (pkg?.version !== record.version || !(await exists(path.join(home, 'bin', 'npm')))) return null;
  if (typeof record.corepack === 'string' && (await corepackIn(home))?.version !== record.corepack) {
    const { corepack, corepackSource, corepackIntegrity, corepackChosen, ...rest } = record;
    return rest;
  }
  return record;
}

// Old npm has no npx (it came with npm 5.2), and a runtime may have no corepack of its own: a clear
// refusal first on PATH, not the host's npx or corepack starting on a runtime it does not support.
function missingToolScript(why) {
  return `#!/bin/sh\necho "nodebench: ${why.replace(/["\\$`]/g, '')}" >&2\nexit 127\n`;
}

async function placeTool(bin, name, { target, refusal }) {
  const file = path.join(bin, name);
  await fs.rm(file, { force: true });
  try {
    if (target) await fs.symlink(path.relative(bin, target), file);
    else await fs.writeFile(file, missingToolScript(refusal), { mode: 0o755 });
  } catch (err) {
    // Another nodebench placed it at the same moment.
    if (err.code !== 'EEXIST') throw err;
  }
}

// The corepack in `home`/lib/node_modules: { version, script }, or null.
async function corepackIn(home) {
  const dir = path.join(home, 'lib', 'node_modules', 'corepack');
  const pkg = await readJsonIfExists(path.join(dir, 'package.json')).catch(() => null);
  if (typeof pkg?.version !== 'string') return null;
  const script = path.join(dir, typeof pkg.bin === 'object' && pkg.bin ? pkg.bin.corepack : 'dist/corepack.js');
  return (await exists(script)) ? { version: pkg.version, script } : null;
}

const noCorepackOfItsOwn = (nodeVersion) => `Node ${nodeVersion} shipped no corepack (Node 14.19 to 24 did)`;
const PROJECT_COREPACK = 'add corepack to the project\'s devDependencies and run it with npx';
const REGISTRY_AGAIN = 'run again when the npm registry is reachable';

// bin/corepack: the corepack in `home`, else a refusal naming `problem` and `fix`. Returns the
// corepack's version, or null.
async function placeCorepack(home, nodeVersion, problem, fix = PROJECT_COREPACK) {
  const corepack = await corepackIn(home);
  // A tarball's modes are the publisher's: the script is run by its `#!/usr/bin/env node` line.
  if (corepack) await fs.chmod(corepack.script, 0o755);
  await placeTool(path.join(home, 'bin'), 'corepack', corepack ? { target: corepack.script } : {
    refusal: `${problem}, and nodebench does not run the host's corepack on Node ${nodeVersion} instead; ${fix}.`
  });
  return corepack?.version ?? null;
}

const saveRecord = async (home, record) => {
  await writeFileAtomic(path.join(home, NPM_RECORD), JSON.stringify(record, null, 2));
  return record;
};

// `home`/lib/node_modules holds npm (and corepack, where the release had it): puts bin/npm, bin/npx
// and bin/corepack beside it and writes the record. A corepack left undecided (corepack and
// corepackProblem absent) is the registry's to add (addCorepack).
async function linkTools(home, nodeVersion, record, { corepackProblem = null } = {}) {
  const bin = path.join(home, 'bin');
  const modules = path.join(home, 'lib', 'node_modules');
  await fs.mkdir(bin, { recursive: true });
  for (const tool of ['npm', 'npx']) {
    const script = path.join(modules, 'npm', 'bin', `${tool}-cli.js`);
    await placeTool(bin, tool, (await exists(script)) ? { target: script } : {
      refusal: `npm ${record.version}, the npm of Node ${nodeVersion}, has no ${tool} (npx came with npm 5.2); use a newer runtime for ${tool}.`
    });
  }
  const hasCorepack = Boolean(await corepackIn(home));
  const corepack = hasCorepack || corepackProblem ? await placeCorepack(home, nodeVersion, corepackProblem) : null;
  return saveRecord(home, {
    ...record,
    npx: await exists(path.join(modules, 'npm', 'bin', 'npx-cli.js')),
    ...(corepack ? { corepack } : corepackProblem ? { corepackProblem } : {})
  });
}

// A mirror's archive is the official build, with the npm (and corepack) the release shipped in
// lib/node_modules: kept at install as the entry's npm, instead of one chosen from the registry later.
// `staged` is the entry being installed; `modules` the archive's extracted lib/node_modules.
export async function adoptShippedNpm(staged, modules, nodeVersion, source) {
  const pkg = await readJsonIfExists(path.join(modules, 'npm', 'package.json')).catch(() => null);
  if (typeof pkg?.version !== 'string') return null;
  const home = path.join(staged, 'npm');
  await fs.mkdir(path.join(home, 'lib'), { recursive: true });
  await fs.rename(modules, path.join(home, 'lib', 'node_modules'));
  const corepackProblem = semver.satisfies(nodeVersion, SHIPPED_COREPACK) ? `the archive of Node ${nodeVersion} on the mirror holds no corepack` : noCorepackOfItsOwn(nodeVersion);
  return linkTools(home, nodeVersion, { version: pkg.version, source, chosen: `the npm Node ${nodeVersion} shipped (its archive on the mirror)` }, { corepackProblem });
}

// Fetches name@version from the npm registry with `npm pack` (which checks the tarball against the
// integrity the registry publishes) and unpacks it into `staged`/lib/node_modules/name. Returns that
// integrity.
async function fetchPackage(name, version, staged, env) {
  let packed;
  try {
    [packed] = await npm(['pack', `${name}@${version}`, '--pack-destination', staged], { cwd: staged, env });
  } catch (err) {
    if (isUserError(err)) throw err;
    throw new UserError(`Could not fetch ${name} ${version} from the npm registry (${npmErrorSummary(err)})`, { cause: err });
  }
  const lib = path.join(staged, 'lib', 'node_modules', name);
  await fs.mkdir(lib, { recursive: true });
  await tar(['-xzf', path.join(staged, packed.filename), '-C', lib, '--strip-components=1']);
  await fs.rm(path.join(staged, packed.filename));
  const pkg = JSON.parse(await fs.readFile(path.join(lib, 'package.json'), 'utf8'));
  if (pkg.version !== version) throw new UserError(`The npm registry's ${name}@${version} tarball holds ${name} ${pkg.version}`);
  return packed.integrity;
}

async function listReleases(name, range, env) {
  try {
    return await releasesOf(name, range, env);
  } catch (err) {
    if (isUserError(err)) throw err;
    throw new UserError(`Could not list ${name}'s versions from the npm registry (${npmErrorSummary(err)})`, { cause: err });
  }
}

async function installNpm(runtime, home, { env, log }) {
  const choice = chooseNpm(runtime.version, await listReleases('npm', '>=2.0.0', env));
  if (!choice) throw new UserError(`No npm on the npm registry accepts Node ${runtime.version} by its engines`);
  log(`installing npm ${choice.version} for Node ${runtime.version} (${choice.chosen}) ...`);
  const staged = await makeStagingDir(env);
  try {
    const integrity = await fetchPackage('npm', choice.version, staged, env);
    const record = await linkTools(staged, runtime.version, { version: choice.version, source: `npm@${choice.version}`, integrity, chosen: choice.chosen });
    try {
      await fs.rename(staged, home);
    } catch (err) {
      if (!['ENOTEMPTY', 'EEXIST'].includes(err.code)) throw err;
      // Another nodebench installed it first; keep theirs when it is whole.
      await fs.rm(staged, { recursive: true, force: true });
      return (await installedNpm(home)) || record;
    }
    return record;
  } catch (err) {
    await fs.rm(staged, { recursive: true, force: true });
    throw err;
  }
}

// What a cache entry that cannot be written (a read-only CI cache) throws; the run goes on without.
const cannotWrite = (err) => isUserError(err) || ['EACCES', 'EPERM', 'EROFS', 'ENOSPC'].includes(err?.code);

// A registry runtime's corepack, added to its npm home once (also to one installed before nodebench
// did this): the chosen corepack where the release shipped one, else the refusal. When the registry
// cannot give it, the refusal says so and nothing is recorded, so the next run tries again.
async function addCorepack(runtime, home, record, { env, log }) {
  if (!semver.satisfies(runtime.version, SHIPPED_COREPACK)) {
    const corepackProblem = noCorepackOfItsOwn(runtime.version);
    try {
      await placeCorepack(home, runtime.version, corepackProblem);
      return await saveRecord(home, { ...record, corepackProblem });
    } catch (err) {
      if (!cannotWrite(err)) throw err;
      return { ...record, corepackProblem };
    }
  }
  try {
    return await installCorepack(runtime, home, record, { env, log });
  } catch (err) {
    if (!cannotWrite(err)) throw err;
    const corepackProblem = isUserError(err) ? err.message.replace(/[.;]\s*$/, '') : `nodebench could not add corepack to ${home} (${err.code})`;
    log(`warning: ${corepackProblem}; corepack on PATH refuses to run for Node ${runtime.version}`);
    await placeCorepack(home, runtime.version, corepackProblem, REGISTRY_AGAIN).catch(() => {});
    return { ...record, corepackProblem };
  }
}

async function installCorepack(runtime, home, record, { env, log }) {
  const choice = chooseCorepack(runtime.version, await listReleases('corepack', COREPACK_RANGE, env));
  if (!choice) throw new UserError(`No corepack on the npm registry accepts Node ${runtime.version} by its engines`);
  log(`installing corepack ${choice.version} for Node ${runtime.version} (${choice.chosen}) ...`);
  const staged = await makeStagingDir(env);
  let integrity;
  try {
    integrity = await fetchPackage('corepack', choice.version, staged, env);
    const target = path.join(home, 'lib', 'node_modules', 'corepack');
    // A damaged one (installedNpm forgot it) makes way.
    if (!(await corepackIn(home))) await fs.rm(target, { recursive: true, force: true });
    await fs.rename(path.join(staged, 'lib', 'node_modules', 'corepack'), target).catch((err) => {
      // Another nodebench added it first.
      if (!['ENOTEMPTY', 'EEXIST'].includes(err.code)) throw err;
    });
  } finally {
    await fs.rm(staged, { recursive: true, force: true });
  }
  const missing = `The npm registry's corepack@${choice.version} has no corepack script`;
  const corepack = await placeCorepack(home, runtime.version, missing, REGISTRY_AGAIN);
  if (!corepack) throw new UserError(missing);
  return saveRecord(home, { ...record, corepack, corepackSource: `corepack@${choice.version}`, corepackIntegrity: integrity, corepackChosen: choice.chosen });
}

// The npm beside a binary not in the cache (nvm's folder, a path, the system node): its version
// from its package.json, or null when there is no npm there.
async function npmBeside(binary) {
  const npmLink = path.join(path.dirname(binary), 'npm');
  let script;
  try {
    script = await fs.realpath(npmLink);
  } catch {
    return null;
  }
  for (let dir = path.dirname(script); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const pkg = await readJsonIfExists(path.join(dir, 'package.json')).catch(() => null);
    if (pkg?.name === 'npm' && typeof pkg.version === 'string') return { version: pkg.version, source: npmLink };
  }
  return null;
}

// The runtime's npm, installing it into a cache entry when it has none: { version, source, integrity,
// chosen, npx } for the result file, or { version: null, problem } when it cannot be had (offline,
// no npm beside a path) — then a command's npm is the host's, and the problem says so.
export async function ensureRuntimeNpm(runtime, { env = process.env, log = () => {} } = {}) {
  const home = npmHome(runtime);
  if (!home) {
    const beside = await npmBeside(runtime.path);
    return beside || { version: null, problem: `there is no npm beside ${runtime.path}, so npm and npx are the ones on PATH` };
  }
  const record = await installedNpm(home) || await freshNpm(runtime, home, { env, log });
  const corepackDecided = typeof record.corepack === 'string' || typeof record.corepackProblem === 'string';
  return record.version && runtime.provider === 'npm' && !corepackDecided ? addCorepack(runtime, home, record, { env, log }) : record;
}

async function freshNpm(runtime, home, { env, log }) {
  if (await exists(home)) {
    log(`the npm in ${home} is incomplete or damaged; installing it again`);
    await fs.rm(home, { recursive: true, force: true }).catch(() => {});
  }
  try {
    return await installNpm(runtime, home, { env, log });
  } catch (err) {
    if (!isUserError(err)) throw err;
    const problem = `${err.message.replace(/[.;]\s*$/, '')}; npm and npx are the ones on PATH, which may not run on Node ${runtime.version}`;
    log(`warning: ${problem}`);
    return { version: null, problem };
  }
}
