// The load warning at the end of a run: the run's own benchmark processes are part of the 1-minute
// load average then, so a run alone on a 2-core machine (load ~1.2-1.5 from itself, as the default
// matrix measured on 2026-11-24) must not be told that other programs compete; a neighbour must.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { loadWarning, runOwnLoad, ownRecentLoad } from '../cli/results/host.js';

test('at the end of a run, its own processes are not counted as other programs', () => {
  const own = runOwnLoad({ pairing: 'sequential' });
  assert.equal(own, 1);
  assert.equal(runOwnLoad({ pairing: 'duet' }), 2);
  assert.deepEqual(loadWarning([1.42, 1.3, 1.5], 2, 'at the end', { ownLoad: own }), [], 'the run alone');
  const [busy] = loadWarning([3.1, 2, 2], 2, 'at the end', { ownLoad: own });
  assert.match(busy.message, /^the load average at the end was 3\.10 \(1 min\) on 2 cores; less about 1 for this run's own processes, 2\.10, above 0\.5 per core: other programs compete/);
});

test('before a run, or from doctor, the whole load counts', () => {
  assert.equal(loadWarning([1.42, 1, 1], 2, 'at the start').length, 1);
  assert.deepEqual(loadWarning([0.9, 1, 1], 2), []);
});

// Issue 39: on a fresh machine the start warning blamed "other programs" for a load that was the
// npm ci before nodebench and nodebench's own runtime downloads. Before measuring, nodebench's own
// recent work (its CPU time and that of the processes it ran, installs included) is taken out, and
// what is left is said as what it is: a look back over the last minute.
test('at the start, nodebench\'s own installing is not blamed on other programs, and the look back is said', () => {
  assert.deepEqual(loadWarning([1.46, 1, 1], 2, 'at the start', { ownLoad: 0.8 }), [], 'its own installs explain it');
  const [left] = loadWarning([1.46, 1, 1], 2, 'at the start', { ownLoad: 0.3 });
  assert.match(left.message, /^the load average at the start was 1\.46 \(1 min\) on 2 cores; about 0\.30 of it was this nodebench's own work before measuring \(installing and checking runtimes\), leaving 1\.16, above 0\.5 per core\. /);
  const [plain] = loadWarning([1.46, 1, 1], 2, 'at the start', { ownLoad: 0 });
  assert.match(plain.message, /looks back about a minute, so what ran just before \(an npm ci, say\) counts too/);
  assert.doesNotMatch(plain.message, /; about/);
});

test('nodebench\'s own recent load counts the processes it ran, measured from /proc', () => {
  const before = ownRecentLoad();
  // A real child that burns CPU until it has used 0.3 s of it.
  spawnSync(process.execPath, ['-e', 'const s = process.cpuUsage(); while (process.cpuUsage(s).user < 3e5);'], { stdio: 'ignore' });
  const after = ownRecentLoad();
  assert.ok(after > before, `${before} -> ${after}`);
});
