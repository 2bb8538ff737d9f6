// What a node binary really is: asked from the binary itself, so a record can never claim a version
// the file does not have. Plus its sha256, to tell two builds of "the same" version apart.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { UserError } from '../errors.js';

// Node-4-compatible: it runs in every runtime of the matrix. It is run as a script file, the way the
// worker is started, not with -p: a wrapper that answers -p itself and hands everything else to
// another node is then asked the same way as the runs it would serve.
const PROBE = 'console.log(JSON.stringify({version: process.version.slice(1), v8: process.versions.v8, arch: process.arch, platform: process.platform, lts: (process.release && process.release.lts) || null}));\n';

export async function sha256File(file) {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk);
  return hash.digest('hex');
}

// The binary's own answer: { version, v8, arch, platform, lts }, or a UserError saying it is no node.
export async function askBinary(binary) {
  try {
    await fs.promises.access(binary, fs.constants.X_OK);
  } catch {
    throw new UserError(`Runtime ${binary} does not exist or is not executable; give the path to a node binary.`);
  }
  let stdout;
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'nodebench-probe-'));
  try {
    await fs.promises.writeFile(path.join(dir, 'probe.js'), PROBE);
    ({ stdout } = await execa(binary, [path.join(dir, 'probe.js')], { timeout: 30_000, stdin: 'ignore', cwd: dir, env: { NODE_OPTIONS: '' } }));
  } catch (err) {
    throw new UserError(`Runtime ${binary} did not run as Node (${err.shortMessage || err.message}); give the path to a node binary.`, { cause: err });
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
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
  return info;
}

export async function inspectBinary(binary) {
  return { ...(await askBinary(binary)), sha256: await sha256File(binary) };
}
