// README claims not covered by the tests of their own feature: a worker that runs as another Node
// version than its runtime said fails its cell (the runner's late check, for a binary that
// answers the resolver's every question as another version); colours go to a terminal only, never
// with NO_COLOR or into a pipe; a file from another nodebench version or with other suite
// parameters is not resumed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { nodebench, cliPath, root } from './helpers/cli.js';
import { testRuntime } from './helpers/runtimes.js';
import { writeResultFile, okCell } from './helpers/result-file.js';

const OFFLINE = { npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0' };

test('a worker that reports another Node version than its runtime said fails its cell; the result never carries that version\'s numbers', { timeout: 180_000 }, async () => {
  const node14 = await testRuntime('14.21.3');
  const node16 = await testRuntime('16.20.2');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-late-'));
  // Every question the resolver asks (the probe script, --version, what runs a script) goes to a
  // real 16.20.2; only the worker is run by 14.21.3. (A cache entry cannot be such a wrapper: its
  // bin/node must be a native binary, test/long/fifos-devices-and-lying-binaries.test.js.)
  const binary = path.join(dir, 'node');
  fs.writeFileSync(binary, `#!/bin/sh\ncase "$*" in\n  *worker/child.js*) exec ${node14.path} "$@";;\nesac\nexec ${node16.path} "$@"\n`, { mode: 0o755 });
  const out = path.join(dir, 'r.json');
  const run = await nodebench(['run', 'test/fixtures/suites/smoke/index.js', '--node', binary, '--benchmarks', 'sum-loop', '--quick', '--out', out], { env: OFFLINE });
  assert.equal(run.exitCode, 1, run.stderr);
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.equal(result.cells[0].status, 'failed');
  assert.match(result.cells[0].error, /ran as Node 14\.21\.3, but when asked for its version it said 16\.20\.2/);
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
