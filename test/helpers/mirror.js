// A nodejs.org-layout mirror on loopback (<mirror>/v<version>/node-v<version>-<os>-<arch>.tar.gz,
// SHASUMS256.txt beside it, index.json at the top), serving a real Node build repackaged as
// upstream does (`modules`: npm and corepack in lib/node_modules). `binary` puts another runtime's node into the archive (a mirror that lies);
// `corrupt` publishes a wrong checksum; `index: false` serves no index.json.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { testRuntime } from './runtimes.js';

export async function startMirror({ version = '4.9.1', binary, corrupt = false, index = true, modules = {} } = {}) {
  const node = binary || (await testRuntime(version)).path;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-mirror-'));
  const top = `node-v${version}-${process.platform}-${process.arch}`;
  fs.mkdirSync(path.join(root, 'build', top, 'bin'), { recursive: true });
  fs.copyFileSync(node, path.join(root, 'build', top, 'bin', 'node'));
  // modules: { npm: dir, corepack: dir } packaged as lib/node_modules/<name>, as upstream ships them.
  for (const [name, dir] of Object.entries(modules)) fs.cpSync(dir, path.join(root, 'build', top, 'lib', 'node_modules', name), { recursive: true });
  fs.mkdirSync(path.join(root, `v${version}`));
  const archive = path.join(root, `v${version}`, `${top}.tar.gz`);
  await execa('tar', ['-czf', archive, '-C', path.join(root, 'build'), top]);
  const sha = corrupt ? '0'.repeat(64) : crypto.createHash('sha256').update(fs.readFileSync(archive)).digest('hex');
  fs.writeFileSync(path.join(root, `v${version}`, 'SHASUMS256.txt'), `${'1'.repeat(64)}  node-v${version}.tar.gz\n${sha}  ${top}.tar.gz\n`);
  if (index) fs.writeFileSync(path.join(root, 'index.json'), JSON.stringify([{ version: `v${version}`, lts: 'Argon' }, { version: 'v4.9.0', lts: 'Argon' }]));
  const requests = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url);
    const file = path.join(root, decodeURIComponent(req.url));
    if (!file.startsWith(root) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200);
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, requests, close: () => server.close() };
}
