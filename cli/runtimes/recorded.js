// A runtime a result file recorded, as something nodebench may run again on this machine (explain,
// diff --explain, diff --confirm). A result file is data, often a CI artifact built from a pull
// request: the binary it names is never run. A runtime from the cache, a download or nvm is found
// again by its exact version (the cache, nvm, the configured download source); "system" is this
// machine's node on PATH when it is that version, else the version again; a path runtime (a binary
// nodebench did not install, perhaps a custom build) runs only as a binary the user names on the
// command line (--node), of the version the file recorded.
import { UserError } from '../errors.js';
import { ensureRuntime } from './index.js';
import { parseRuntimeSpec } from './spec.js';
import { shellWord } from '../text/escape.js';

// The binaries given with --node, each asked once for its version: spec -> Promise<runtime>.
export function namedBinaries(specs, { log } = {}) {
  const asked = new Map();
  return {
    specs,
    resolve(spec) {
      if (!asked.has(spec)) asked.set(spec, ensureRuntime(spec, { log }));
      return asked.get(spec);
    }
  };
}

// The spec to run for `record` (result.runtimes[i]): an exact version, or one of the named binaries
// (a spec the user wrote). file: the result file, for the sentence; option: how the user names a
// binary (--node). Throws a UserError saying how to name one when only the file names it.
export async function rerunSpec(record, { file, named = namedBinaries([]), log = () => {}, option = '--node' }) {
  const version = parseRuntimeSpec(record.version);
  if (version.kind !== 'exact') {
    throw new UserError(`${file} records runtime "${record.label}" with version "${record.version}", which is not an exact Node version; pass a result file written by nodebench.`);
  }
  for (const spec of named.specs) {
    const runtime = await named.resolve(spec);
    if (runtime.version === version.version) return spec;
  }
  if (record.provider === 'system') {
    let system = null;
    try {
      system = await ensureRuntime('system', { log });
    } catch {
      // No node on PATH here: the version is looked for as any other.
    }
    return system?.version === version.version ? 'system' : version.version;
  }
  if (record.provider !== 'path') return version.version;
  const others = named.specs.length ? ` (${named.specs.join(', ')} ${named.specs.length === 1 ? 'is' : 'are'} not Node ${version.version})` : '';
  throw new UserError(`${file} records runtime "${record.label}" as the binary ${record.source}, and nodebench does not run a binary a result file names${others}; if you trust it, name it yourself with ${option} ${shellWord(String(record.source))}, or give ${option} any node binary of version ${version.version}.`);
}
