#!/usr/bin/env node
// Runs the test command given as arguments with TMPDIR set to a fresh folder of its own, and removes
// that folder when the command ends, whatever its outcome. The tests make their folders with
// os.tmpdir() (result files, private runtime caches, copies of runtimes, mirrors), and many leave
// them behind: on the development VM, repeated runs of `npm test` had left 25 GB in /tmp
// (2026-11-28; a private cache with copied runtimes is about 90 MB). One place to clean up rather
// than an after() in each of 75 test files, and a test that forgets its own cleanup costs nothing.
// NODEBENCH_KEEP_TEST_TMP=1 keeps the folder (its path is printed) to look at what a test wrote.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node test/run-in-own-tmpdir.js COMMAND [ARGS...]');
  process.exit(2);
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-tests-'));
const keep = process.env.NODEBENCH_KEEP_TEST_TMP === '1';
const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, TMPDIR: tmp } });

// The terminal sends Ctrl-C to the child too; the folder goes once the child has ended.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));

// A folder a test made unreadable (hostile tests do) must not turn a passing run into a failing one.
function removeTmp() {
  try {
    fs.rmSync(tmp, { recursive: true, force: true });
  } catch (err) {
    console.error(`could not remove the tests' temporary folder ${tmp}: ${err.message}`);
  }
}

child.on('error', (err) => {
  console.error(`could not start ${command}: ${err.message}`);
  removeTmp();
  process.exit(2);
});
child.on('exit', (code, signal) => {
  if (keep) console.error(`the tests' temporary files are kept in ${tmp}`);
  else removeTmp();
  process.exit(code ?? (signal ? 128 + os.constants.signals[signal] : 1));
});
