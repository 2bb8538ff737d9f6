// Providers: the node on PATH (`system`) and a binary given by path. Nothing is installed; the
// binary is asked its version two ways (inspect.js), and a binary whose answers disagree — a wrapper
// that preloads a script rewriting process.version, or answers the probe itself — is refused rather
// than labelled by what it claims.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.js';
import { inspectBinary, runtimeInfo } from './inspect.js';

function whichNode(env) {
  for (const dir of String(env.PATH || '').split(path.delimiter)) {
    const candidate = path.join(dir || '.', 'node');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // keep looking
    }
  }
  throw new UserError('Runtime "system" needs a node on PATH, and there is none; install Node or give a path or version instead.');
}

const advice = (runtime) => `give the path of a real node binary (${runtime.path} is a wrapper or a build that does not report its own version)`;

function binaryProvider(name, binaryOf) {
  return {
    name,
    choosable: false,
    kind: 'binary',
    async resolve(parsed, { env }) {
      const binary = binaryOf(parsed, env);
      const answer = await inspectBinary(binary);
      const runtime = { ...runtimeInfo(answer), provider: name, source: binary, path: binary };
      // `--version` is the binary's own answer; a script's process.version is what a preload says.
      if (answer.versionFlag !== answer.version) {
        const said = answer.versionFlag === null ? 'did not answer --version as Node does' : `ran as Node ${answer.versionFlag}`;
        throw new UserError(`The binary ${binary} ${said}, but when asked for its version it said ${answer.version}; ${advice(runtime)}.`);
      }
      return runtime;
    },
    labelSays: (runtime) => `when asked for its version it said ${runtime.version}`,
    repairAdvice: advice
  };
}

export const systemProvider = binaryProvider('system', (parsed, env) => whichNode(env));
export const pathProvider = binaryProvider('path', (parsed) => parsed.path);
