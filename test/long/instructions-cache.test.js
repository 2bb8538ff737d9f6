// --cache-sim with --measure instructions, as a user runs it on a file of their own: two loops that
// execute about the same instructions, one reading memory in order and one a cache line apart, on
// real Node 24.21.0 under real valgrind. The counts and every miss repeat between processes (fixed
// cache geometry, no address randomisation), and the estimated cycles tell the strided loop apart
// where the instruction count cannot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodebench } from '../helpers/cli.js';
import { onPath } from '../../cli/process/host-tools.js';
import { CYCLE_FORMULA } from '../../cli/process/valgrind.js';

// 8M 32-bit integers, 32 MB: four times the simulated last-level cache. Both loops read 64K
// elements per operation; 'strided' reads one per 64-byte line, 'sequential' sixteen per line.
const SUITE = `'use strict';
var data = new Int32Array(8 * 1024 * 1024);
for (var i = 0; i < data.length; i++) data[i] = i & 1023;
var READS = 65536;
var sequentialAt = 0;
var stridedAt = 0;
function sum(start, step) {
  var total = 0;
  var mask = data.length - 1;
  for (var k = 0, at = start; k < READS; k++, at = (at + step) & mask) total += data[at];
  return total;
}
module.exports = {
  name: 'memory',
  benchmarks: {
    sequential: { type: 'sync', fn: function () { var t = sum(sequentialAt, 1); sequentialAt = (sequentialAt + READS) & (data.length - 1); return t; } },
    strided: { type: 'sync', fn: function () { var t = sum(stridedAt, 16); stridedAt = (stridedAt + READS * 16) & (data.length - 1); return t; } }
  }
};
`;

test('--cache-sim keeps misses and estimated cycles per operation that repeat between processes and tell memory-bound work apart', { timeout: 900_000, skip: !onPath('valgrind') && 'valgrind is not installed' }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-cache-sim-'));
  try {
    const suite = path.join(dir, 'memory.js');
    fs.writeFileSync(suite, SUITE);
    const out = path.join(dir, 'r.json');
    const run = await nodebench(['run', suite, '--node', '24.21.0', '--measure', 'instructions', '--cache-sim', '--out', out, '--no-color']);
    assert.equal(run.exitCode, 0, `${run.stdout}\n${run.stderr}`);
    const result = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.equal(result.run.cacheSim, true);
    const cell = (name) => result.cells.find((c) => c.benchmark === name);
    const perProcess = (name) => cell(name).processes.map((p) => ({ instructions: p.instructionsPerOp, cache: p.cache }));
    for (const name of ['sequential', 'strided']) {
      const [a, b] = perProcess(name);
      assert.equal(a.cache.formula, CYCLE_FORMULA);
      assert.deepEqual(a.cache.geometry.LL, { size: 8388608, ways: 16, line: 64 });
      // Deterministic code in a fixed simulated cache: every event of every batch repeats.
      assert.deepEqual(a.cache.perSample, b.cache.perSample, name);
      a.cache.estimatedCyclesPerOp.forEach((cycles, i) => assert.ok(cycles > a.instructions[i], `${name}: ${cycles} estimated cycles, ${a.instructions[i]} instructions`));
    }
    const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    const [seq] = perProcess('sequential');
    const [strided] = perProcess('strided');
    // About the same instructions (the same loop; the step differs), far more estimated cycles.
    const instructionRatio = median(strided.instructions) / median(seq.instructions);
    const cycleRatio = median(strided.cache.estimatedCyclesPerOp) / median(seq.cache.estimatedCyclesPerOp);
    assert.ok(instructionRatio > 0.9 && instructionRatio < 1.1, `instructions strided/sequential ${instructionRatio}`);
    assert.ok(cycleRatio > 2, `estimated cycles strided/sequential ${cycleRatio} (instructions ${instructionRatio})`);

    // Cache simulation is a part of counting: asked for without it, one sentence, nothing runs.
    const lone = await nodebench(['run', suite, '--node', '24.21.0', '--cache-sim', '--out', path.join(dir, 'lone.json')]);
    assert.equal(lone.exitCode, 2);
    assert.equal(lone.stderr.trim(), 'nodebench: cache simulation (--cache-sim, run.cacheSim) applies to instruction counts: add --measure instructions, or leave it out to measure time.');
    assert.equal(fs.existsSync(path.join(dir, 'lone.json')), false);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
