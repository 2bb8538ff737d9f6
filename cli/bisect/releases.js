// The releases a bisect walks: the exact versions given as its ends, and every release between
// them in order from good to bad.
import semver from 'semver';
import { parseRuntimeSpec } from '../runtimes/spec.js';
import { UserError } from '../errors.js';

// `spec` as an exact released version; `name` is the option it came from.
export function exactVersion(spec, name, releases) {
  const parsed = parseRuntimeSpec(spec);
  if (parsed.kind !== 'exact' || !releases.includes(parsed.version)) {
    throw new UserError(`${name} must be an exact released Node version such as 14.21.3, not "${spec}".`);
  }
  return parsed.version;
}

export function releasesBetween(releases, good, bad) {
  const [low, high] = semver.lt(good, bad) ? [good, bad] : [bad, good];
  const between = releases.filter((v) => semver.gte(v, low) && semver.lte(v, high)).sort(semver.compare);
  return semver.lt(good, bad) ? between : between.reverse();
}
