// Providers: the node on PATH (`system`) and a binary given by path. Nothing is installed; the
// binary is asked its version two ways (inspect.js), and a binary whose answers disagree — a wrapper
// that preloads a script rewriting process.version, or answers the probe itself — is refused rather
// than labelled by what it claims. A wrapper that execs a node is also judged by that node's own
// answers (wrappedProgramProblem), which catches one that lies to both questions.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UserError } from '../errors.js';
import { inspectBinary, runtimeInfo, askVersions, askVersionFlag } from './inspect.js';
import { spawnWorker } from '../process/spawn.js';
import { superviseWorker } from '../process/supervise.js';

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

// Node-4-compatible, like inspect.js's probe: says it runs, then waits until its stdin is closed.
const RUNNING_PROBE = 'process.stdout.write("running\\n"); process.stdin.resume(); process.stdin.on("end", function () { process.exit(0); });\n';

// The program that really runs scripts when `binary` is asked to run one, read from the kernel
// (/proc/PID/exe) while it runs: a wrapper script that execs a node (an asdf shim, `exec node -r
// lie.js "$@"`) becomes that node in the same process. Null where it cannot be told (no /proc, no
// answer within the limit).
async function programRunBy(binary) {
  if (process.platform !== 'linux') return null;
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'nodebench-exe-'));
  try {
    const probe = path.join(dir, 'running.js');
    await fs.promises.writeFile(probe, RUNNING_PROBE);
    const child = spawnWorker(binary, [probe], { stdin: 'pipe', cwd: dir });
    let exe = null;
    child.stdout.on('data', function seen(chunk) {
      if (!String(chunk).includes('running')) return;
      child.stdout.off('data', seen);
      try {
        exe = fs.realpathSync(`/proc/${child.pid}/exe`);
      } catch {
        // Gone already: nothing to tell.
      }
      child.stdin.end();
    });
    child.stdin.on('error', () => {});
    await superviseWorker(child, { timeoutMs: 30_000 });
    return exe;
  } catch {
    return null;
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

// When `binary` is a wrapper that execs another program to run scripts, that program is asked
// itself (no arguments of the wrapper's, no preload): a wrapper that answers --version itself and
// preloads a script rewriting process.version or process.versions.v8 is caught by what the real
// binary says. Returns that as a fragment ("runs scripts in /x/node, which is Node 14.21.3 with
// V8 8.4.371.23-node.88, but says it is Node 16.20.2 with V8 ..."), or null when they agree or
// nothing can be told (a wrapper that forks instead of exec: docs/reliability.md's threat model).
export async function wrappedProgramProblem(binary, answer) {
  const exe = await programRunBy(binary);
  if (!exe || exe === fs.realpathSync(binary)) return null;
  // Asked --version first: a program that is no node (a shell that forked one) is not given -p.
  if (!(await askVersionFlag(exe))) return null;
  let real;
  try {
    real = await askVersions(exe);
  } catch {
    return null;
  }
  if (real.version === answer.version && real.v8 === answer.v8) return null;
  return `runs scripts in ${exe}, which is Node ${real.version} with V8 ${real.v8}, but says it is Node ${answer.version} with V8 ${answer.v8}`;
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
      const wrapped = await wrappedProgramProblem(binary, answer);
      if (wrapped) throw new UserError(`The binary ${binary} ${wrapped}; ${advice(runtime)}.`);
      return runtime;
    },
    labelSays: (runtime) => `when asked for its version it said ${runtime.version}`,
    repairAdvice: advice
  };
}

export const systemProvider = binaryProvider('system', (parsed, env) => whichNode(env));
export const pathProvider = binaryProvider('path', (parsed) => parsed.path);
