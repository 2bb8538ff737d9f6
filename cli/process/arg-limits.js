// What the operating system lets one exec() carry. Linux refuses (E2BIG) a single argument or
// environment string longer than 32 pages (MAX_ARG_STRLEN, 128 KiB with 4 KiB pages), whatever the
// limits, and an argument list and environment that together exceed a quarter of the stack limit
// (2 MiB under the usual 8 MiB). The first is known before anything runs and is refused then
// (matrix/commands.js); the second depends on the environment at launch and fails the cell.
import fs from 'node:fs';
import os from 'node:os';
import { formatBytes } from '../text/format.js';

let pageSize;

// The page size from the kernel's auxiliary vector (AT_PAGESZ, 6; pairs of 64-bit words here),
// read once; null where there is none, and then no string is refused before it is tried.
function kernelPageSize() {
  if (pageSize !== undefined) return pageSize;
  pageSize = null;
  if (process.platform !== 'linux' || os.endianness() !== 'LE' || !/64/.test(process.arch)) return pageSize;
  try {
    const auxv = fs.readFileSync('/proc/self/auxv');
    for (let at = 0; at + 16 <= auxv.length; at += 16) {
      if (auxv.readBigUInt64LE(at) === 6n) {
        pageSize = Number(auxv.readBigUInt64LE(at + 8));
        break;
      }
    }
  } catch {
    // No /proc: the spawn itself says E2BIG, and the cell's sentence names the size.
  }
  return pageSize;
}

// The longest argument or environment string (in bytes, its terminating NUL not counted) one exec
// takes, or null where that is not known.
export function longestExecString() {
  const page = kernelPageSize();
  return page ? page * 32 - 1 : null;
}

// What argv and env take on the new process's stack: every string with its NUL, and a pointer each.
export function execBytes(argv, env) {
  const strings = [...argv, ...Object.entries(env || {}).map(([name, value]) => `${name}=${value}`)];
  return strings.reduce((sum, text) => sum + Buffer.byteLength(String(text)) + 1 + 8, 0);
}

// Why a spawn failed, as a fragment after "could not be started: ", for the cell's sentence.
// argv, env: what was passed, for its size.
export function spawnFailure(error, { argv, env } = {}) {
  if (error?.code === 'E2BIG') {
    const size = argv ? `, ${formatBytes(execBytes(argv, env))} in all,` : '';
    return `its arguments and environment${size} are too long for the operating system (E2BIG); pass large data in a file or on stdin instead`;
  }
  return error?.message || String(error);
}
