// What a node binary really is: asked from the binary itself, so a record can never claim a version
// the file does not have. Plus its sha256, to tell two builds of "the same" version apart.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { execa } from 'execa';
import { UserError } from '../errors.js';

// Node-4-compatible expression: it is evaluated by every runtime in the matrix.
const PROBE = 'JSON.stringify({version: process.version.slice(1), v8: process.versions.v8, arch: process.arch, platform: process.platform, lts: (process.release && process.release.lts) || null})';

export async function sha256File(file) {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk);
  return hash.digest('hex');
}

export async function inspectBinary(binary) {
  try {
    await fs.promises.access(binary, fs.constants.X_OK);
  } catch {
    throw new UserError(`Runtime ${binary} does not exist or is not executable; give the path to a node binary.`);
  }
  let stdout;
  try {
    ({ stdout } = await execa(binary, ['-p', PROBE], { timeout: 30_000, stdin: 'ignore', env: { NODE_OPTIONS: '' } }));
  } catch (err) {
    throw new UserError(`Runtime ${binary} did not run as Node (${err.shortMessage || err.message}); give the path to a node binary.`, { cause: err });
  }
  let info;
  try {
    info = JSON.parse(stdout.trim().split('\n').pop());
  } catch {
    info = null;
  }
  if (!info || typeof info.version !== 'string') {
    throw new UserError(`Runtime ${binary} is not a node binary (asked for its version, it printed ${stdout.trim() ? `"${stdout.trim().slice(0, 60)}"` : 'nothing'}); give the path to a node binary.`);
  }
  return { ...info, sha256: await sha256File(binary) };
}
