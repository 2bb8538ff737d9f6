// Provider: versions the user's nvm already installed ($NVM_DIR/versions/node/v<version>/bin/node).
// They are used in place (nvm owns them), never copied or changed. nvm itself is a shell function
// (nvm.sh) that only runs inside a shell, and nodebench starts no shells, so a version nvm does not
// have is installed by nodebench's own providers instead (which honour nvm's NVM_NODEJS_ORG_MIRROR).
import fs from 'node:fs/promises';
import path from 'node:path';

export function nvmDir(env = process.env) {
  return env.NVM_DIR || null;
}

export async function nvmVersions(env = process.env) {
  const dir = nvmDir(env);
  if (!dir) return [];
  try {
    const names = await fs.readdir(path.join(dir, 'versions', 'node'));
    return names.filter((n) => /^v\d+\.\d+\.\d+$/.test(n)).map((n) => n.slice(1));
  } catch {
    return [];
  }
}

export function nvmBinary(version, env = process.env) {
  return path.join(nvmDir(env), 'versions', 'node', `v${version}`, 'bin', 'node');
}
