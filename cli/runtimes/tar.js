// tar, as every install runs it (a release archive, an npm tarball, the release marks' package):
// through run-to-exit.js like any program nodebench runs for its output, so that it is owned to its
// exit (its process group, the reaper, Ctrl-C) instead of left to execa. Resolves tar's stdout.
import { outputOf } from '../process/run-to-exit.js';

// An archive of a runtime unpacks in seconds; this bounds a tar that hangs (a stalled disk), not a slow one.
const TAR_TIMEOUT_MS = 10 * 60 * 1000;

export async function tar(args) {
  try {
    return await outputOf('tar', args, { timeoutMs: TAR_TIMEOUT_MS });
  } catch (err) {
    throw new Error(`tar ${args[0]} ${err.message}`, { cause: err });
  }
}
