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
import fs from 'node:fs/promises';
import path from 'node:path';
import semver from 'semver';
import { execa } from 'execa';
import { UserError, isUserError } from '../errors.js';
import { npm, npmErrorSummary } from './npm-cli.js';
import { makeStagingDir } from './cache.js';
import { readJsonIfExists } from '../fs-atomic.js';

// Node major -> the npm major its releases shipped (for lines that changed npm major on the way,
// the one of the later releases, which every release of the line accepts by its engines).
export const SHIPPED_NPM_MAJOR = {
  4: 2, 5: 3, 6: 3, 7: 4, 8: 6, 9: 5, 10: 6, 11: 6, 12: 6, 13: 6, 14: 6, 15: 7, 16: 8, 17: 8,
  18: 10, 19: 9, 20: 10, 21: 10, 22: 10, 23: 10, 24: 11
};

export const NPM_RECORD = 'nodebench-npm.json';

const accepts = (engines, nodeVersion) => semver.satisfies(nodeVersion, engines, { loose: true });

// Pure: { version, chosen } out of the npm releases [{ version, engines }] for `nodeVersion`, or null.
export function chooseNpm(nodeVersion, releases) {
  const sorted = releases.filter((r) => semver.valid(r.version) && !semver.prerelease(r.version)).sort((a, b) => semver.rcompare(a.version, b.version));
  const major = SHIPPED_NPM_MAJOR[semver.major(nodeVersion)];
  if (major !== undefined) {
    // npm 2 to 5 declare no engines: within the line's own major, no declaration is no objection.
    const found = sorted.find((r) => semver.major(r.version) === major && (!r.engines?.node || accepts(r.engines.node, nodeVersion)));
    if (found) return { version: found.version, chosen: `the newest npm ${major}.x (the npm major Node ${semver.major(nodeVersion)} shipped) that accepts Node ${nodeVersion}` };
  }
  const found = sorted.find((r) => r.engines?.node && accepts(r.engines.node, nodeVersion));
  return found ? { version: found.version, chosen: `the newest npm whose engines accept Node ${nodeVersion}` } : null;
}

async function npmReleases(env) {
  const answer = await npm(['view', 'npm@>=2.0.0', 'version', 'engines'], { timeout: 60_000, env });
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

// The npm installed in `home`, checked against its record; null when there is none or it is damaged.
async function installedNpm(home) {
  const record = await readJsonIfExists(path.join(home, NPM_RECORD)).catch(() => null);
  if (!record || typeof record.version !== 'string') return null;
  const pkg = await readJsonIfExists(path.join(home, 'lib', 'node_modules', 'npm', 'package.json')).catch(() => null);
  const bin = await fs.access(path.join(home, 'bin', 'npm')).then(() => true, () => false);
  return pkg?.version === record.version && bin ? record : null;
}

// Old npm has no npx (it came with npm 5.2): a clear refusal first on PATH, not the host's npx
// starting on a runtime it does not support.
function missingToolScript(why) {
  return `#!/bin/sh\necho "nodebench: ${why.replace(/["\\$`]/g, '')}" >&2\nexit 127\n`;
}

// `home`/lib/node_modules holds npm (and corepack, where the release had it): puts bin/npm, bin/npx
// and bin/corepack beside it and writes the record.
async function linkTools(home, nodeVersion, record) {
  const bin = path.join(home, 'bin');
  const modules = path.join(home, 'lib', 'node_modules');
  await fs.mkdir(bin, { recursive: true });
  const exists = (file) => fs.access(file).then(() => true, () => false);
  for (const tool of ['npm', 'npx']) {
    const script = path.join(modules, 'npm', 'bin', `${tool}-cli.js`);
    if (await exists(script)) {
      await fs.symlink(path.relative(bin, script), path.join(bin, tool));
    } else {
      await fs.writeFile(path.join(bin, tool), missingToolScript(`npm ${record.version}, the npm of Node ${nodeVersion}, has no ${tool} (npx came with npm 5.2); use a newer runtime for ${tool}.`), { mode: 0o755 });
    }
  }
  const corepack = await readJsonIfExists(path.join(modules, 'corepack', 'package.json')).catch(() => null);
  const corepackScript = corepack && path.join(modules, 'corepack', typeof corepack.bin === 'object' ? corepack.bin.corepack : 'dist/corepack.js');
  if (corepackScript && await exists(corepackScript)) await fs.symlink(path.relative(bin, corepackScript), path.join(bin, 'corepack'));
  const full = {
    ...record,
    npx: await exists(path.join(modules, 'npm', 'bin', 'npx-cli.js')),
    ...(corepackScript ? { corepack: corepack.version } : {})
  };
  await fs.writeFile(path.join(home, NPM_RECORD), JSON.stringify(full, null, 2));
  return full;
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
  return linkTools(home, nodeVersion, { version: pkg.version, source, chosen: `the npm Node ${nodeVersion} shipped (its archive on the mirror)` });
}

async function installNpm(runtime, home, { env, log }) {
  let releases;
  try {
    releases = await npmReleases(env);
  } catch (err) {
    if (isUserError(err)) throw err;
    throw new UserError(`Could not list npm's versions from the npm registry (${npmErrorSummary(err)})`, { cause: err });
  }
  const choice = chooseNpm(runtime.version, releases);
  if (!choice) throw new UserError(`No npm on the npm registry accepts Node ${runtime.version} by its engines`);
  log(`installing npm ${choice.version} for Node ${runtime.version} (${choice.chosen}) ...`);
  const staged = await makeStagingDir(env);
  try {
    let packed;
    try {
      [packed] = await npm(['pack', `npm@${choice.version}`, '--pack-destination', staged], { cwd: staged, env });
    } catch (err) {
      if (isUserError(err)) throw err;
      throw new UserError(`Could not fetch npm ${choice.version} from the npm registry (${npmErrorSummary(err)})`, { cause: err });
    }
    const lib = path.join(staged, 'lib', 'node_modules', 'npm');
    await fs.mkdir(lib, { recursive: true });
    await execa('tar', ['-xzf', path.join(staged, packed.filename), '-C', lib, '--strip-components=1'], { stdin: 'ignore' });
    await fs.rm(path.join(staged, packed.filename));
    const pkg = JSON.parse(await fs.readFile(path.join(lib, 'package.json'), 'utf8'));
    if (pkg.version !== choice.version) throw new UserError(`The npm registry's npm@${choice.version} tarball holds npm ${pkg.version}`);
    const record = await linkTools(staged, runtime.version, { version: choice.version, source: `npm@${choice.version}`, integrity: packed.integrity, chosen: choice.chosen });
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
  const installed = await installedNpm(home);
  if (installed) return installed;
  if (await fs.access(home).then(() => true, () => false)) {
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
