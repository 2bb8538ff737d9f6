// A folder made read-only by a read-only bind mount of itself: what a CI cache restored without
// write permission, or a read-only volume, looks like. Needs the right to mount (root in a
// container). Returns unmount(), or null where this user may not mount.
import fs from 'node:fs';
import { execaSync } from 'execa';

function execaSyncQuiet(file, args) {
  const { exitCode, stderr } = execaSync(file, args, { reject: false, stdin: 'ignore' });
  if (exitCode !== 0) throw new Error(stderr);
}

export function readOnlyMount(dir) {
  try {
    fs.mkdirSync(dir, { recursive: true });
    execaSyncQuiet('mount', ['--bind', dir, dir]);
  } catch {
    return null;
  }
  try {
    execaSyncQuiet('mount', ['-o', 'remount,bind,ro', dir]);
  } catch {
    execaSyncQuiet('umount', [dir]);
    return null;
  }
  return () => execaSyncQuiet('umount', [dir]);
}
