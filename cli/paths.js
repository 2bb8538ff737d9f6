// Where nodebench keeps things on disk. One place so tests can redirect all of it with NODEBENCH_CACHE.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const workerEntry = path.join(projectRoot, 'worker', 'child.js');
export const suitesDir = path.join(projectRoot, 'suites');

export function cacheDir(env = process.env) {
  if (env.NODEBENCH_CACHE) return path.resolve(env.NODEBENCH_CACHE);
  const base = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'nodebench');
}

export const runtimesDir = (env) => path.join(cacheDir(env), 'runtimes');
export const indexDir = (env) => path.join(cacheDir(env), 'index');
export const tmpDir = (env) => path.join(cacheDir(env), 'tmp');
