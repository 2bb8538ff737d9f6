// Provider (providers.js): nvm. Versions the user's nvm already installed ($NVM_DIR/versions/node/v<version>/bin/node)
// are used in place (nvm owns them: never copied or changed), and on request (`runtimes install
// --via nvm`, `provider: nvm` in matrix.yaml) nvm's own installer runs: nvm is a shell function
// (nvm.sh), so it runs in bash, sourced with --no-use (no default version switched on), with the
// version as an argument, never pasted into the script. It honours NVM_DIR and
// NVM_NODEJS_ORG_MIRROR as the user's own shell would. Whatever nvm installed is then asked its
// version like every other runtime (index.js).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runToExit } from '../process/run-to-exit.js';
import { UserError } from '../errors.js';
import { inspectBinary, runtimeInfo, labelMismatch, answersDisagree } from './inspect.js';
import { wrappedProgramProblem } from './binary.js';

export function nvmDir(env = process.env) {
  return env.NVM_DIR || null;
}

export async function nvmVersions(env = process.env) {
  const dir = nvmDir(env);
  if (!dir) return [];
  try {
    const names = await fs.readdir(path.join(dir, 'versions', 'node'));
    return names.filter((n) => /^v\d+\.\d+\.\d+$/.test(n)).map((n) => n.slice(1));
  } catch {
    return [];
  }
}

export function nvmBinary(version, env = process.env) {
  return path.join(nvmDir(env), 'versions', 'node', `v${version}`, 'bin', 'node');
}

// nvm's progress goes to stderr, so that stdout is only `nvm which`'s answer: the binary's path.
const INSTALL_SCRIPT = 'source "$NVM_DIR/nvm.sh" --no-use && nvm install "$1" 1>&2 && nvm which "$1"';
const INSTALL_TIMEOUT_MS = 15 * 60 * 1000;
const NVM_MIRROR_PATTERN = /^https?:\/\/[a-zA-Z0-9./_-]+$/;

// Runs `nvm install <version>` and returns the path of the binary nvm says it installed.
export async function installWithNvm(version, { env = process.env } = {}) {
  const dir = env.NVM_DIR || path.join(env.HOME || os.homedir(), '.nvm');
  try {
    await fs.access(path.join(dir, 'nvm.sh'));
  } catch {
    throw new UserError(`nvm is not installed in ${dir} (no nvm.sh there); install nvm, or set NVM_DIR to its folder, or leave out --via nvm / provider: nvm.`);
  }
  let run;
  try {
    run = await runToExit('bash', ['-c', INSTALL_SCRIPT, 'nodebench', version], {
      env: { ...env, NVM_DIR: dir }, extendEnv: false, timeoutMs: INSTALL_TIMEOUT_MS
    });
  } catch (err) {
    throw new UserError(`bash could not be started (${err.code || err.message}); nvm is a bash function, so --via nvm needs bash on PATH.`, { cause: err });
  }
  const lastLine = (text) => String(text || '').split('\n').map((l) => l.trim()).filter(Boolean).pop();
  if (run.exitCode !== 0 || run.timedOut) {
    const why = run.timedOut ? `it ran longer than ${INSTALL_TIMEOUT_MS / 60_000} minutes` : `exit ${run.exitCode}: ${lastLine(run.stderr) || 'no message'}`;
    const mirror = env.NVM_NODEJS_ORG_MIRROR;
    // nvm (checked with v0.40.6) ignores a mirror URL outside this pattern, a port included, and
    // then reports only that the version was not found.
    const mirrorNote = !mirror ? '' : NVM_MIRROR_PATTERN.test(mirror)
      ? ` (NVM_NODEJS_ORG_MIRROR is ${mirror})`
      : ` (NVM_NODEJS_ORG_MIRROR is ${mirror}, which nvm refuses: it takes only http(s):// with letters, digits and . / _ -, no port)`;
    throw new UserError(`nvm install ${version} failed (${why}); run it in your shell to see why${mirrorNote}, or install without nvm.`);
  }
  const binary = lastLine(run.stdout);
  if (!binary || !path.isAbsolute(binary)) {
    throw new UserError(`nvm install ${version} finished but nvm which ${version} named no binary (it printed ${binary ? `"${binary.slice(0, 80)}"` : 'nothing'}); check the nvm in ${dir}.`);
  }
  return binary;
}

const nvmAdvice = (runtime) => `reinstall it with nvm (nvm uninstall ${runtime.version}, then nvm install ${runtime.version})`;

// An nvm folder is labelled by its name only: the binary inside is asked, like a cache entry's.
async function nvmRuntime(version, env, binary = nvmBinary(version, env)) {
  const answer = await inspectBinary(binary);
  const wrapped = async () => {
    const problem = await wrappedProgramProblem(binary, answer);
    return problem && `its bin/node ${problem}`;
  };
  const mismatch = labelMismatch(version, answer.versionFlag ?? answer.version, 'nvm folder') || answersDisagree(answer) || await wrapped();
  if (mismatch) {
    throw new UserError(`Node ${version} in your nvm (${binary}) is damaged: ${mismatch}; ${nvmAdvice({ version })}.`);
  }
  return { ...runtimeInfo(answer), provider: 'nvm', source: binary, path: binary };
}

export const nvmProvider = {
  name: 'nvm',
  choosable: true,
  kind: 'installer',
  async installed(version, { env }) {
    return (await nvmVersions(env)).includes(version) ? nvmRuntime(version, env) : null;
  },
  async install(version, { env, log }) {
    log(`installing Node ${version} with nvm (nvm install ${version}) ...`);
    return nvmRuntime(version, env, await installWithNvm(version, { env }));
  },
  labelSays: (runtime) => `its nvm folder says ${runtime.version}`,
  repairAdvice: nvmAdvice
};
