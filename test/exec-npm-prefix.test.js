// A command's global npm operations never write the runtime cache (issue 40, item 8): a project whose
// tests ran `npm link` or `npm i -g` under `exec` installed into the shared cache entry
// (runtimes/20.20.2-linux-x64/lib/node_modules/<project>, bin/<its bin>), which `runtimes list`
// still called ok, and every later run of that runtime saw the package. Global operations now go
// to a prefix inside the run's own folder (npm_config_prefix), removed with it; its bin folder is
// on PATH, so what `npm link` linked still runs within the command. A private copy of the cache:
// the old code would write into it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodebench } from './helpers/cli.js';
import { privateCache } from './helpers/private-cache.js';

// Every path under `dir` (links not followed), for a before-and-after comparison.
function tree(dir) {
  const out = [];
  const walk = (at) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      out.push(path.relative(dir, full));
      if (entry.isDirectory()) walk(full);
    }
  };
  walk(dir);
  return out.sort();
}

function project() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-npm-link-'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'nb-linked-project', version: '1.0.0', bin: { 'nb-linked': 'cli.js' } }));
  fs.writeFileSync(path.join(dir, 'cli.js'), '#!/usr/bin/env node\nrequire("fs").writeFileSync(process.argv[2], "ran " + process.version);\n', { mode: 0o755 });
  return dir;
}

test('npm link and npm i -g under exec install into the run\'s own prefix, never into the runtime cache entry', { timeout: 600_000 }, async () => {
  const { cache, env } = await privateCache(['20.20.2']);
  const entry = path.join(cache, 'runtimes', '20.20.2-linux-x64');
  const before = tree(entry);
  const dir = project();
  const quiet = { ...env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
  const runs = [
    // Linked, then run by its bin name as a project's tests would.
    ['npm link', ['sh', '-c', 'npm link && nb-linked "$1" && npm ls -g --depth 0 > "$2"', 'sh', path.join(dir, 'linked-ran'), path.join(dir, 'linked-ls')]],
    ['npm i -g', ['npm', 'install', '-g', dir]]
  ];
  for (const [what, command] of runs) {
    const out = path.join(dir, `${what.replace(/\W+/g, '-')}.json`);
    const run = await nodebench(['exec', '--node', '20.20.2', '--processes', '1', '--max-processes', '1', '--out', out, '--', ...command], { cwd: dir, env: quiet });
    assert.equal(run.exitCode, 0, `${what}: ${run.stderr}`);
    assert.equal(JSON.parse(fs.readFileSync(out, 'utf8')).cells[0].status, 'ok', what);
  }
  assert.equal(fs.readFileSync(path.join(dir, 'linked-ran'), 'utf8'), 'ran v20.20.2', 'the linked bin did not run on the runtime');
  assert.match(fs.readFileSync(path.join(dir, 'linked-ls'), 'utf8'), /nb-linked-project@1\.0\.0/);
  assert.deepEqual(tree(entry).filter((p) => !before.includes(p)), [], 'the cache entry was written');
  const listed = await nodebench(['runtimes', 'list'], { env });
  // An entry in good order is listed with its V8 and source; a damaged one by its state in capitals.
  assert.match(listed.stdout, /^20\.20\.2 +V8 /m, listed.stderr);
});
