// A private nodebench cache holding copies of real cache entries (installed into the normal cache
// first if needed) and the real version index, so that a test may damage it and needs no network.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testRuntime } from './runtimes.js';

export const realCache = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'nodebench');
// npm pointed at a closed port: a test that reaches for the registry fails at once instead of waiting.
export const OFFLINE = { npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0' };

export async function privateCache(versions, prefix = 'nodebench-cache-') {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const version of versions) {
    await testRuntime(version);
    fs.cpSync(path.join(realCache, 'runtimes', `${version}-linux-x64`), path.join(cache, 'runtimes', `${version}-linux-x64`), { recursive: true });
  }
  if (fs.existsSync(path.join(realCache, 'index'))) fs.cpSync(path.join(realCache, 'index'), path.join(cache, 'index'), { recursive: true });
  return { cache, env: { NODEBENCH_CACHE: cache, ...OFFLINE } };
}
