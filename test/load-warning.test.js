// The load warning at the end of a run: the run's own benchmark processes are part of the 1-minute
// load average then, so a run alone on a 2-core machine (load ~1.2-1.5 from itself, as the default
// matrix measured on 2026-11-24) must not be told that other programs compete; a neighbour must.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWarning, runOwnLoad } from '../cli/results/host.js';

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
