// A runtime spec as the user writes it (16, 16.13.0, "^14.17", lts, latest, system, a path), read
// once into what it asks for. Everything between a matrix file or a flag and a binary works on the
// parsed object, so what counts as "a version" or "a path" is decided here and nowhere else.
import os from 'node:os';
import path from 'node:path';
import semver from 'semver';
import { UserError } from '../errors.js';

// Objects this module made: parsing one again returns it as it is, and nothing else passes for one.
const parsedSpecs = new WeakSet();

function made(fields) {
  const spec = Object.freeze(fields);
  parsedSpecs.add(spec);
  return spec;
}

// Returns a frozen { kind, text, ... } where text is the spec as written and kind is one of:
//   system                  the node on PATH
//   path     path           a binary, resolved against the current directory (~ is the home)
//   lts, latest             the newest LTS / newest release the configured source offers
//   major    major, range   "16": the newest 16.x
//   exact    version, range "16.13.0" or "v16.13.0"
//   range    range          any other semver range, ">=14 <17", "^14.17", "16.x"
//   invalid                 anything else; each caller words the refusal for where the spec came from
export function parseRuntimeSpec(spec) {
  if (parsedSpecs.has(spec)) return spec;
  const text = String(spec);
  const s = text.trim();
  if (s === 'system') return made({ kind: 'system', text });
  if (/^(\/|\.\.?\/|~)/.test(s)) return made({ kind: 'path', text, path: path.resolve(s.replace(/^~(?=\/|$)/, os.homedir())) });
  if (s === 'lts' || s === 'latest' || s === 'current') return made({ kind: s === 'current' ? 'latest' : s, text });
  // semver reads "", "x" and "*" as "any version": a typo, or "v$NODE_VERSION" with the variable
  // empty, must not silently mean the newest release.
  const range = s.replace(/^v/, '');
  // One leading v (v16.13.0) is how Node writes versions; vv16 is a typo semver would forgive.
  if (/^[xX*]?$/.test(range) || /^[vV]/.test(range) || !semver.validRange(range)) return made({ kind: 'invalid', text });
  if (/^\d+$/.test(range)) return made({ kind: 'major', text, major: Number(range), range });
  const version = semver.valid(range);
  if (version) return made({ kind: 'exact', text, version, range: version });
  return made({ kind: 'range', text, range });
}

// For callers with no flag or file line to name: the spec itself is refused.
export function parseKnownRuntimeSpec(spec) {
  const parsed = parseRuntimeSpec(spec);
  if (parsed.kind === 'invalid') {
    throw new UserError(`Runtime spec "${parsed.text}" is not a version, range, "lts", "latest", "system" or a path; use e.g. 16, 16.13.0, ">=14 <17" or lts.`);
  }
  return parsed;
}
