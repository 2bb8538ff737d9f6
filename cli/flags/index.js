// The V8 flags of a runtime binary, parsed once and cached per binary (by its sha256) under the
// nodebench cache, so that validating a matrix or diffing two releases costs one `--v8-options`
// call per binary ever.
import fs from 'node:fs/promises';
import path from 'node:path';
import { cacheDir } from '../paths.js';
import { readV8Options } from './v8-options.js';
import { writeFileAtomic } from '../fs-atomic.js';

const FORMAT = 1;

export async function flagsOf(runtime, { env } = {}) {
  const file = runtime.sha256 ? path.join(cacheDir(env), 'flags', `${runtime.sha256}.json`) : null;
  if (file) {
    try {
      const cached = JSON.parse(await fs.readFile(file, 'utf8'));
      if (cached.format === FORMAT && Array.isArray(cached.flags)) return cached.flags;
    } catch {
      // Missing or damaged: parse again below.
    }
  }
  const flags = await readV8Options(runtime.path);
  if (flags && file) {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await writeFileAtomic(file, JSON.stringify({ format: FORMAT, version: runtime.version, v8: runtime.v8, flags }));
  }
  return flags;
}
