// Provider (providers.js): a mirror with nodejs.org's layout (<mirror>/v<version>/node-v<version>-<os>-<arch>.tar.gz
// and SHASUMS256.txt beside it), named by NODE_MIRROR or nvm's NVM_NODEJS_ORG_MIRROR. The archive's
// sha256 must match the mirror's SHASUMS256.txt before anything is unpacked.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { tar } from './tar.js';
import { UserError } from '../errors.js';
import { mirrorArchiveName } from './platform.js';
import { makeStagingDir, commitInstall, cacheEntries } from './cache.js';
import { adoptShippedNpm } from './runtime-npm.js';

export function configuredMirror(env = process.env) {
  return env.NODE_MIRROR || env.NVM_NODEJS_ORG_MIRROR || null;
}

async function download(url) {
  let response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(300_000) });
  } catch (err) {
    throw new UserError(`Could not download ${url} (${err.cause?.code || err.message}); check the mirror address and the network.`, { cause: err });
  }
  if (!response.ok) throw new UserError(`The mirror answered HTTP ${response.status} for ${url}; check that it has this version.`);
  return Buffer.from(await response.arrayBuffer());
}

export async function installFromMirror(version, mirror, { env = process.env } = {}) {
  const base = `${mirror.replace(/\/$/, '')}/v${version}`;
  const archiveName = mirrorArchiveName(version);
  const sums = (await download(`${base}/SHASUMS256.txt`)).toString('utf8');
  const line = sums.split('\n').find((l) => l.trim().endsWith(`  ${archiveName}`) || l.trim().endsWith(` ${archiveName}`));
  if (!line) throw new UserError(`The mirror's SHASUMS256.txt for Node ${version} does not list ${archiveName}; the mirror has no build for this machine.`);
  const expected = line.trim().split(/\s+/)[0];
  const archive = await download(`${base}/${archiveName}`);
  const actual = crypto.createHash('sha256').update(archive).digest('hex');
  if (actual !== expected) {
    throw new UserError(`${archiveName} from ${mirror} has sha256 ${actual} but SHASUMS256.txt says ${expected}; the download is corrupt or tampered with, so it was not installed.`);
  }
  const staged = await makeStagingDir(env);
  try {
    const archiveFile = path.join(staged, archiveName);
    await fs.writeFile(archiveFile, archive);
    const top = archiveName.replace(/\.tar\.gz$/, '');
    // The release's own npm and corepack come along when the archive has them (runtime-npm.js).
    const listing = await tar(['-tzf', archiveFile]);
    const withModules = listing.split('\n').includes(`${top}/lib/node_modules/npm/package.json`);
    await tar(['-xzf', archiveFile, '-C', staged, `${top}/bin/node`, ...(withModules ? [`${top}/lib/node_modules`] : [])]);
    await fs.mkdir(path.join(staged, 'bin'));
    await fs.rename(path.join(staged, top, 'bin', 'node'), path.join(staged, 'bin', 'node'));
    if (withModules) await adoptShippedNpm(staged, path.join(staged, top, 'lib', 'node_modules'), version, `${base}/${archiveName}`);
    await fs.rm(path.join(staged, top), { recursive: true, force: true });
    await fs.rm(archiveFile, { force: true });
    return await commitInstall(staged, version, { provider: 'mirror', source: `${base}/${archiveName}`, archiveSha256: actual }, env);
  } catch (err) {
    await fs.rm(staged, { recursive: true, force: true });
    throw err;
  }
}

export const mirrorProvider = {
  ...cacheEntries,
  name: 'mirror',
  available: (env) => configuredMirror(env) !== null,
  index: (env) => ({ kind: 'mirror', mirror: configuredMirror(env) }),
  install: (version, { env }) => installFromMirror(version, configuredMirror(env), { env })
};
