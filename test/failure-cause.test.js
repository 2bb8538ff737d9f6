// A failed command's cell says why it failed: Node prints the cause before the stack, and the last
// lines alone ("at f (...)", "Node.js v24") hid it (issue 39, item 4: lukeed/dequal's npm test on
// Node 22 said only "at Module.require ... | Node.js v22.20.0").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { failureCause } from '../cli/text/failure-cause.js';
import { nodebench } from './helpers/cli.js';
import { testRuntime, OLDEST } from './helpers/runtimes.js';

const THROWER = 'function f(n) { if (!n) throw new TypeError("the cause"); f(n - 1); }\nf(20);\n';

test('the cause of a real runtime\'s uncaught error is kept ahead of the last lines of its stack, on the oldest and the newest runtime', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-cause-'));
  fs.writeFileSync(path.join(dir, 'thrower.js'), THROWER);
  for (const spec of [OLDEST, 'system']) {
    const runtime = await testRuntime(spec);
    const { stderr, exitCode } = await execa(runtime.path, ['thrower.js'], { cwd: dir, reject: false });
    assert.equal(exitCode, 1);
    const said = failureCause(stderr);
    assert.match(said, /^TypeError: the cause \| … \| /, `${spec}: ${said}`);
    // The stack's last lines follow it, and the cause is not repeated.
    assert.equal(said.split('TypeError').length, 2, said);
  }
});

test('output with no error line keeps its last lines; a cause among them is not repeated', () => {
  assert.equal(failureCause('one\ntwo\n\nthree\nfour\n'), 'two | three | four');
  assert.equal(failureCause('a\nb\nError: near the end\nc'), 'b | Error: near the end | c');
  assert.equal(failureCause('npm error code ELIFECYCLE\n' + 'x\n'.repeat(5)), 'npm error code ELIFECYCLE | … | x | x | x');
  assert.equal(failureCause(''), '');
  // Words that only contain "error" are no cause.
  assert.equal(failureCause('terror strikes\n1\n2\n3'), '1 | 2 | 3');
});

test('exec: the failed cell names the cause of the command\'s failure', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-cause-'));
  fs.writeFileSync(path.join(dir, 'thrower.js'), THROWER);
  const run = await nodebench(['exec', '--node', 'system', '--processes', '1', '--json', '--out', path.join(dir, 'r.json'), '--', 'node', 'thrower.js'], { cwd: dir });
  assert.equal(run.exitCode, 1, run.stderr);
  const cell = JSON.parse(fs.readFileSync(path.join(dir, 'r.json'), 'utf8')).cells[0];
  assert.equal(cell.status, 'failed');
  assert.match(cell.error, /the command exited with status 1: TypeError: the cause \| … \| /);
});
