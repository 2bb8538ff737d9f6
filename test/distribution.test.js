// The one-line distribution glyph: two clusters of processes show as two humps with a gap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sparkline } from '../cli/report/distribution.js';

test('a bimodal set of process rates draws two humps with a gap; one value or none draws one block or nothing', () => {
  const bimodal = sparkline([10, 10.2, 10.1, 20, 20.3, 19.9, 10.05], 12);
  assert.equal(bimodal.length, 12);
  assert.match(bimodal, /^[▁-█]+ {3,}[▁-█]+$/u);
  assert.equal(bimodal[0], '█', 'four processes near 10 make the tallest bar');
  const unimodal = sparkline([5, 5.1, 5.2, 5.3, 5.4, 5.5], 6);
  assert.doesNotMatch(unimodal, / /);
  assert.equal(sparkline([7, 7, 7]), '█');
  assert.equal(sparkline([]), '');
});
