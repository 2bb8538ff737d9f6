// bisect --measure instructions on real runtimes under real valgrind: a suite whose loop takes 1%
// more steps from Node 16.14.0 on (planted by release, so that there is always a change to find;
// its size is V8's: the same loop counted 1.297x fewer instructions on 16.14.0 on 2026-11-27, and
// the counted fixture's promise chain went from 1.5% more to 2.8% fewer when the warm-up cap
// changed), so a 0.5% threshold finds 16.14.0 from two processes per release, with the ends' counts as the verdict (counts of the same two releases would
// come back the same), and running the command again resumes from the state file without counting
// anything.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodebench } from '../helpers/cli.js';
import { onPath } from '../../cli/process/host-tools.js';

const PLANTED = [
  "'use strict';",
  'var version = process.versions.node.split(\'.\').map(Number);',
  'var n = version[0] > 16 || (version[0] === 16 && version[1] >= 14) ? 1010 : 1000;',
  "module.exports = { name: 'planted-release', benchmarks: { steps: { type: 'sync', fn: function () {",
  '  var s = 0;',
  '  for (var i = 0; i < n; i++) s = (s + i * i) | 0;',
  '  return s;',
  '} } } };',
  ''
].join('\n');

test('bisect --measure instructions finds the release whose count changed, from two processes per release', { timeout: 1_200_000, skip: !onPath('valgrind') && 'valgrind is not installed' }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-instr-bisect-'));
  const suite = path.join(dir, 'planted-release.js');
  fs.writeFileSync(suite, PLANTED);
  const state = path.join(dir, 'state.json');
  // One valgrind process at a time: the test shares its machine.
  const args = ['bisect', '--good', '16.13.2', '--bad', '16.14.0', '--suite', suite, '--benchmark', 'steps', '--measure', 'instructions', '--threshold', '0.5%', '--pairing', 'sequential', '--out', state];
  const run = await nodebench(args);
  assert.equal(run.exitCode, 0, run.stderr);
  assert.match(run.stderr, /bisect: 16\.14\.0 is \d+\.\d{3}x \[\d+\.\d{3}, \d+\.\d{3}\] of 16\.13\.2; a release is bad past \d+\.\d{3}x/);
  assert.match(run.stdout, /^first bad release: Node 16\.14\.0 \(V8 [^)]+\); last good: Node 16\.13\.2/);
  assert.match(run.stdout, /steps instructions\/op 16\.13\.2 \/ 16\.14\.0 \(counted under valgrind; below 1x is more instructions\): \d+\.\d{3}x \[\d+\.\d{3}, \d+\.\d{3}\] \(95% interval, .*the count's repeatability \(0\.05% per side\); state-16\.14\.0-instructions\.json\)/);
  // One run of two releases, two counted processes each, and no verdict run beside it.
  const steps = fs.readdirSync(dir).filter((f) => f.startsWith('state-') && f.endsWith('.json'));
  assert.deepEqual(steps, ['state-16.14.0-instructions.json']);
  const result = JSON.parse(fs.readFileSync(path.join(dir, steps[0]), 'utf8'));
  assert.equal(result.run.measure, 'instructions');
  assert.deepEqual(result.cells.map((c) => `${c.runtime} ${c.processes.length} ${c.summary.unit}`), ['16.13.2 2 instructions/op', '16.14.0 2 instructions/op']);
  assert.equal(JSON.parse(fs.readFileSync(state, 'utf8')).key.measure, 'instructions');

  // Again: everything is in the state file.
  const again = await nodebench(args);
  assert.equal(again.exitCode, 0, again.stderr);
  assert.equal(again.stdout, run.stdout);
  assert.doesNotMatch(again.stderr, /measuring|process\(es\) each/);
});
