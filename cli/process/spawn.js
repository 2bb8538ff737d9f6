// Spawning a process nodebench owns (a worker of the runtime under test, a command's probe, a probe
// of a binary): in its own process group and registry (groups.js), pinned with taskset where asked
// and dying with nodebench where setpriv works (host-tools.js), its stdout, stderr and fd 3 piped,
// its end read from its exit (pipe-holders.js), and only a bounded tail of its output kept for
// error messages. Its report channel on fd 3 is channel.js's; supervise.js watches it to its end.
import { execa } from 'execa';
import { stripVTControlCharacters } from 'node:util';
import { own, newTag, isProcessId, TAG_NAME } from './groups.js';
import { taskset, diesWithNodebench } from './host-tools.js';
import { watchEnd } from './pipe-holders.js';

export const TAIL_BYTES = 4096;

// stdin: 'ignore' for timing workers, 'pipe' for service workers that take commands.
// cpu: the core to pin the worker to (run.pairing), where taskset exists; child.nodebenchCpu says
// whether it was done. extendEnv: false when env is the whole environment (npm, nvm), not additions
// to nodebench's.
export function spawnWorker(nodePath, args, { stdin = 'ignore', cwd, env, cpu, extendEnv = true } = {}) {
  const tag = newTag();
  const pinned = cpu !== undefined && taskset() !== null;
  const [file, argv] = diesWithNodebench(...(pinned ? [taskset(), ['-c', String(cpu), nodePath, ...args]] : [nodePath, args]));
  const child = execa(file, argv, {
    stdio: [stdin, 'pipe', 'pipe', 'pipe'],
    detached: true,
    cleanup: true,
    reject: false,
    buffer: false,
    cwd,
    // NODE_OPTIONS of the host must not leak into the runtime under test (Node 4 rejects most); a
    // caller that means some for it (whether a runtime takes flags from there) names them in env.
    env: { NODE_OPTIONS: '', ...env, [TAG_NAME]: tag },
    extendEnv
  });
  child.nodebenchTag = tag;
  child.nodebenchCpu = pinned ? cpu : null;
  if (!isProcessId(child.pid)) {
    // The spawn failed: at once (E2BIG, which execa answers with a stand-in child that never emits
    // an event) or on the next tick (ENOENT, EACCES). There is no process to own, kill or wait for;
    // execa's result carries the error.
    child.nodebenchCgroup = null;
    child.nodebenchEnded = child.then((failed) => ({ exitCode: null, signal: null, holders: [], spawnError: failed.cause ?? failed }));
    return child;
  }
  own(child);
  child.nodebenchEnded = watchEnd(child);
  return child;
}

// Waits for the worker's end (pipe-holders.js watchEnd); the result of a spawnWorker child.
export const workerEnded = (child) => child.nodebenchEnded;

// plain: without terminal control sequences (a tool's colours), for a tail that becomes a message.
export function keepTail(stream, limit = TAIL_BYTES, { plain = false } = {}) {
  const chunks = [];
  let size = 0;
  stream?.on('data', (chunk) => {
    chunks.push(chunk);
    size += chunk.length;
    while (size - chunks[0].length > limit) size -= chunks.shift().length;
  });
  return () => {
    const whole = Buffer.concat(chunks).toString('utf8');
    const text = plain ? stripVTControlCharacters(whole) : whole;
    return text.length > limit ? text.slice(-limit) : text;
  };
}
