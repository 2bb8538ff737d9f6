// How one run of a user's whole command is launched (`nodebench exec`, matrix.yaml `commands:`):
// the command-launch counterpart of process/supervise.js launchWorker and service.js. The command runs under the probe
// (command-probe.js, in the host's Node, in its own process group like every worker) with the
// runtime under test first on PATH, so that `node`, and npm and npx through their `#!/usr/bin/env
// node` line, run on it, and right after it the runtime's own npm, npx and corepack (runtime-npm.js,
// put in place by the plan; a runtime without a corepack of its own gets one that refuses in a
// sentence, never the host's); the flag set goes in NODE_OPTIONS where Node allows every flag of it
// there, else through a `node` wrapper first on PATH that passes the flags to the real binary
// (Node 4 to 7 have no NODE_OPTIONS; most V8 flags are not allowed in it). An argument array
// unless the user asked for a shell.
//
// runCommandLaunch(runtime, flags, command, { timeoutMs, runDir }) -> { status, error?, result?, wallMs, survivors }
//   command: { argv: [file, ...args], shell: false, cwd, env: {}, warmupRuns: 0 }
//   result (on 'ok'): { benchmarkType: 'command', measurement: { samplesNsPerOp: [wall ns],
//     iterationsPerSample: 1, calibrationBatches: 0, warmup, sampleMs, cpuNsPerOp, cpuMethod },
//     memory: { peakRssBytes, peakRssMethod }, command: { exitCode, wallMs, userMs, systemMs, flagsVia } }
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnWorker } from '../process/spawn.js';
import { sendRequest } from '../process/channel.js';
import { superviseWorker } from '../process/supervise.js';
import { runToExit } from '../process/run-to-exit.js';
import { spawnFailure } from '../process/arg-limits.js';
import { timeoutSentence } from './outcome.js';
import { npmBinDir } from '../runtimes/runtime-npm.js';
import { failureCause } from '../text/failure-cause.js';

const probeEntry = path.join(path.dirname(fileURLToPath(import.meta.url)), 'command-probe.js');

// Single-quoted for sh: the wrapper is a file nodebench writes, never a string of the user's.
const shQuote = (text) => `'${String(text).replace(/'/g, `'\\''`)}'`;

// Whether the runtime takes every flag of the set from NODE_OPTIONS, asked once per runtime and set.
const nodeOptionsVerdicts = new Map();
async function flagsAllowedInNodeOptions(runtime, flags) {
  const key = `${runtime.path}\0${flags.join(' ')}`;
  if (!nodeOptionsVerdicts.has(key)) {
    const probe = runToExit(runtime.path, ['-e', '0'], { env: { NODE_OPTIONS: flags.join(' ') } })
      .then((r) => r.exitCode === 0 && !/NODE_OPTIONS/.test(r.stderr), () => false);
    nodeOptionsVerdicts.set(key, probe);
  }
  return nodeOptionsVerdicts.get(key);
}

// A directory (in the run's shared directory, removed with it) whose `node` runs the runtime under
// test with the flag set first.
function flagWrapperDir(runtime, flags, runDir) {
  const dir = path.join(runDir, `node-wrapper-${createHash('sha256').update(`${runtime.path}\0${flags.join('\0')}`).digest('hex').slice(0, 16)}`);
  const file = path.join(dir, 'node');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file, `#!/bin/sh\nexec ${[runtime.path, ...flags].map(shQuote).join(' ')} "$@"\n`, { mode: 0o755 });
  }
  return dir;
}

// nodebench started from an npm script (`npm run bench`) inherits that npm's lifecycle: its whole
// configuration as npm_config_* (its user agent, its own node-gyp, its prefix), npm_execpath, NODE
// (the host's node) and the package's npm_package_*. The runtime's own npm would take all of it as
// its configuration, and the command would see the host's npm and node: it starts clean of them
// instead, and reads the project's and the user's .npmrc itself.
const fromEnclosingNpm = (name) => /^npm_/i.test(name) || name === 'NODE' || name === 'INIT_CWD';
export function withoutEnclosingNpm(env) {
  if (!env.npm_lifecycle_event && !env.npm_execpath) return env;
  return Object.fromEntries(Object.entries(env).filter(([name]) => !fromEnclosingNpm(name)));
}

// `yarn`, `pnpm` and their aliases that `corepack enable` put on the host's PATH are links into the
// host's corepack (its dist/ folder), which may not run on the runtime under test (corepack 0.34
// crashes on Node 14). Where the runtime's own corepack is on PATH (or the sentence that refuses in
// its place, runtime-npm.js), they go through it instead: scripts that `exec corepack yarn "$@"`,
// put before the host's. A yarn or pnpm of the host's that is not corepack's is left alone.
const COREPACK_SHIMS = ['yarn', 'yarnpkg', 'pnpm', 'pnpx'];
const HOST_COREPACK_SHIM = /[\\/]corepack[\\/]dist[\\/][^\\/]+\.js$/;

function hostCorepackShims(pathValue) {
  const dirs = String(pathValue || '').split(path.delimiter).filter(Boolean);
  return COREPACK_SHIMS.filter((name) => {
    for (const dir of dirs) {
      let real;
      try {
        real = fs.realpathSync(path.join(dir, name));
      } catch {
        continue;
      }
      return HOST_COREPACK_SHIM.test(real);
    }
    return false;
  });
}

function corepackShimDir(names, runDir) {
  const dir = path.join(runDir, `corepack-shims-${names.join('-')}`);
  for (const name of names) {
    const file = path.join(dir, name);
    if (fs.existsSync(file)) continue;
    fs.mkdirSync(dir, { recursive: true });
    // Written whole, then renamed: a launch running beside this one never reads half a script.
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, `#!/bin/sh\nexec corepack ${name} "$@"\n`, { mode: 0o755 });
    fs.renameSync(tmp, file);
  }
  return dir;
}

// npm's global prefix is, by default, the folder above the node that runs it: for a runtime of the
// cache, its cache entry. `npm link` or `npm i -g` in a project's tests would install there, into
// what every later run of that runtime (any project's) starts from. A command's global operations go
// to a prefix in the run's own folder instead, one per runtime (what they build is for that Node),
// removed with the run; its bin folder is on PATH after the runtime's npm, so what the command
// linked runs within it. A prefix the command itself names (commands: env) is its own; one of the
// user's environment for the host's npm is not the runtime's, in any spelling npm reads.
function globalNpmPrefix(env, runtime, command, runDir, dirs) {
  const isPrefix = (name) => name.toLowerCase() === 'npm_config_prefix';
  if (Object.keys(command.env || {}).some(isPrefix)) return;
  for (const name of Object.keys(env).filter(isPrefix)) delete env[name];
  const prefix = path.join(runDir, `npm-global-${createHash('sha256').update(runtime.path).digest('hex').slice(0, 16)}`);
  env.npm_config_prefix = prefix;
  dirs.push(path.join(prefix, 'bin'));
}

// The command's environment: the user's, the command's own additions, the runtime first on PATH and
// the flags. Returns { env, flagsVia }.
export async function commandEnvironment(runtime, flags, command, { runDir, baseEnv = process.env }) {
  const env = { ...withoutEnclosingNpm(baseEnv), ...(command.env || {}) };
  // The runtime's own npm, npx and corepack right after it (runtime-npm.js), before the host's.
  const dirs = [path.dirname(runtime.path), npmBinDir(runtime)].filter(Boolean);
  const ownCorepack = npmBinDir(runtime) || fs.existsSync(path.join(path.dirname(runtime.path), 'corepack'));
  const shims = ownCorepack ? hostCorepackShims(baseEnv.PATH) : [];
  if (shims.length) dirs.push(corepackShimDir(shims, runDir));
  globalNpmPrefix(env, runtime, command, runDir, dirs);
  let flagsVia = 'none';
  // The host's NODE_OPTIONS belong to the host, not to the runtime under test.
  env.NODE_OPTIONS = '';
  if (flags.length) {
    if (await flagsAllowedInNodeOptions(runtime, flags)) {
      env.NODE_OPTIONS = flags.join(' ');
      flagsVia = 'NODE_OPTIONS';
    } else {
      dirs.unshift(flagWrapperDir(runtime, flags, runDir));
      flagsVia = 'a node wrapper first on PATH (Node does not take these flags from NODE_OPTIONS)';
    }
  }
  env.PATH = [...dirs, baseEnv.PATH || ''].filter(Boolean).join(path.delimiter);
  return { env, flagsVia };
}

export async function runCommandLaunch(runtime, flags, command, { timeoutMs = 60_000, expectedMs, runDir }) {
  const started = Date.now();
  const { env, flagsVia } = await commandEnvironment(runtime, flags, command, { runDir });
  const request = { argv: command.argv, shell: !!command.shell, cwd: command.cwd, env, warmupRuns: command.warmupRuns || 0 };
  // On stdin, like a worker's request: as one argument, a command and environment of more than
  // 128 KiB together would not even start the probe (E2BIG).
  const child = spawnWorker(process.execPath, [probeEntry], { stdin: 'pipe', cwd: command.cwd });
  sendRequest(child, request);
  const { messages, timedOut, stdout, stderrTail, survivors, holders, spawnError } = await superviseWorker(child, { timeoutMs });
  const wallMs = Date.now() - started;
  const base = { wallMs, survivors, holders };
  if (spawnError) {
    return { ...base, status: 'failed', error: `the command probe could not be started: ${spawnFailure(spawnError, { argv: [process.execPath, probeEntry], env: process.env })}` };
  }
  if (timedOut) {
    return { ...base, status: 'timeout', error: timeoutSentence(timeoutMs, expectedMs) };
  }
  const report = messages.find((m) => m.type === 'command');
  if (!report) {
    const error = messages.find((m) => m.type === 'error');
    return { ...base, status: 'failed', error: `the command probe failed: ${error ? error.message : failureCause(stderrTail) || 'no report'}` };
  }
  if (report.error) return { ...base, status: 'failed', error: report.error };
  if (report.exitCode !== 0) {
    const how = report.signal ? `was killed by ${report.signal}` : `exited with status ${report.exitCode}`;
    const tail = failureCause(stderrTail) || failureCause(stdout());
    return { ...base, status: 'failed', error: `the command ${how}${report.phase === 'warmup' ? ' in a warm-up run' : ''}${tail ? `: ${tail}` : ''}` };
  }
  const cpuNs = report.cpu.userNs === null ? null : report.cpu.userNs + report.cpu.systemNs;
  return {
    ...base,
    status: 'ok',
    result: {
      benchmarkType: 'command',
      params: {},
      measurement: {
        samplesNsPerOp: [report.wallNs],
        iterationsPerSample: 1,
        calibrationBatches: 0,
        warmup: { batches: request.warmupRuns, ms: 0, stable: true },
        sampleMs: report.wallNs / 1e6,
        cpuNsPerOp: cpuNs,
        cpuMethod: report.cpu.method
      },
      memory: { peakRssBytes: report.peakRssBytes, peakRssMethod: report.peakRssMethod },
      command: {
        exitCode: report.exitCode,
        wallMs: report.wallNs / 1e6,
        userMs: report.cpu.userNs === null ? null : report.cpu.userNs / 1e6,
        systemMs: report.cpu.systemNs === null ? null : report.cpu.systemNs / 1e6,
        peakRssBytes: report.peakRssBytes,
        flagsVia
      }
    }
  };
}
