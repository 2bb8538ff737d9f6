// What a node binary really is: asked from the binary itself, so a record can never claim a version
// the file does not have. Plus its sha256, to tell two builds of "the same" version apart.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { outputOf } from '../process/run-to-exit.js';
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
    stdout = await outputOf(binary, [path.join(dir, 'probe.js')], { cwd: dir });
  } catch (err) {
    throw new UserError(`Runtime ${binary} did not run as Node (it ${err.message}); give the path to a node binary.`, { cause: err });
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

// `node --version` is answered by the binary before any JavaScript runs: a script preloaded by a
// wrapper (`exec node -r lie.js "$@"`) can rewrite process.version for the probe and the worker, not
// this answer. Null when the binary does not answer it like Node.
export async function askVersionFlag(binary) {
  try {
    const stdout = await outputOf(binary, ['--version']);
    const said = /^v(\d+\.\d+\.\d+\S*)$/.exec(stdout.trim());
    return said ? said[1] : null;
  } catch {
    return null;
  }
}

// The version and V8 version of a binary nodebench installed and checked by its sha256: one `-p`,
// no probe file (the cheapest question that runs JavaScript, asked by every command that names a
// cached runtime). NODE_OPTIONS is cleared and no flag is given, so nothing is preloaded into it.
export async function askVersions(binary) {
  let stdout;
  try {
    stdout = await outputOf(binary, ['-p', 'process.version + " " + process.versions.v8']);
  } catch (err) {
    throw new UserError(`Runtime ${binary} did not run as Node (it ${err.message}); give the path to a node binary.`, { cause: err });
  }
  const said = /^v(\d+\.\d+\.\d+\S*) (\S+)$/.exec(stdout.trim());
  if (!said) throw new UserError(`Runtime ${binary} is not a node binary (asked for its version, it printed "${stdout.trim().slice(0, 60)}"); give the path to a node binary.`);
  return { version: said[1], v8: said[2] };
}

// The binary asked both ways: { version, v8, arch, platform, lts } from the probe script and
// versionFlag from `--version`; they differ only for a wrapper or a preload that lies.
export async function askBothWays(binary) {
  const answer = await askBinary(binary);
  return { ...answer, versionFlag: await askVersionFlag(binary) };
}

// Why the binary's two answers disagree (a sentence fragment), or null.
export function answersDisagree({ version, versionFlag }) {
  return versionFlag === version ? null : `its bin/node answers --version with ${versionFlag === null ? 'nothing Node prints' : versionFlag} but runs scripts as Node ${version}`;
}

// Why a binary is not the runtime its label says, when it is not: null when the binary itself
// agrees with the label.
export function labelMismatch(claimed, actual, label) {
  return actual === claimed ? null : `its bin/node is Node ${actual}, not ${claimed} as its ${label} says`;
}

export async function inspectBinary(binary) {
  return { ...(await askBothWays(binary)), sha256: await sha256File(binary) };
}

// A runtime's fields for the result file and the commands: the binary's answer less the cross-check.
export function runtimeInfo({ versionFlag, ...info }) {
  return info;
}
