// Optimised-away detection on real runtimes: every timing process times an empty benchmark of its
// type (worker/sampler.js), and cells whose work the runtime folded away are flagged, in the result
// file and with the "!" mark in every output; real work of a few ns per call is not. The examples
// are test/fixtures/suites/folding: constant inputs (folded on Node 4.9.1 and 16.20.2, at 0.8-1.2x
// the empty loop) against a xorshift step and a parse of changing strings (4x and more).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { nodebench, root } from './helpers/cli.js';
import { runWorkerIn, OLDEST } from './helpers/runtimes.js';
import { schemaErrors } from './helpers/schema.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-folding-'));
const suite = path.join(root, 'test', 'fixtures', 'suites', 'folding', 'index.js');
const smoke = path.join(root, 'test', 'fixtures', 'suites', 'smoke', 'index.js');
const FOLDED = ['empty', 'constant-math', 'constant-length'];
const REAL = ['xorshift', 'parse-varying-string'];
const RUNTIMES = [OLDEST, '16.20.2'];
const flagged = (cell) => (cell.warnings || []).some((w) => w.code === 'optimized-away');

test('every timing process times an empty benchmark of its type, on Node 4.9.1 and the host', { timeout: 120_000 }, async () => {
  for (const spec of [OLDEST, 'system']) {
    for (const benchmark of ['sum-loop', 'promise-chain']) {
      const { byType } = await runWorkerIn(spec, { mode: 'run', suite: smoke, benchmark, params: {}, sampler: { samples: 3, minSampleMs: 2, warmupMinMs: 5, warmupMaxMs: 50 } });
      const m = byType.result.measurement;
      assert.equal(m.emptyNsPerOp.length, 5, `${spec} ${benchmark}`);
      assert.ok(m.emptyNsPerOp.every((x) => x > 0 && Number.isFinite(x)));
      // An empty body costs less than a benchmark that does something (in its fastest batch).
      assert.ok(Math.min(...m.emptyNsPerOp) < Math.min(...m.samplesNsPerOp), `${spec} ${benchmark}: ${m.emptyNsPerOp} vs ${m.samplesNsPerOp}`);
    }
  }
});

test('folded benchmarks are flagged on the runtimes that fold them, real work of a few ns is not, and every output says so', { timeout: 300_000 }, async () => {
  const out = path.join(tmp, 'folding.json');
  // Five processes a cell: the decision is on the median process, and with two busy loops beside it
  // one process of constant-math on 4.9.1 read 2.01x the empty loop (the line is 1.8x) while the rest
  // read 1.0-1.4x; with three processes two such readings would flip the cell, with five it takes three.
  const run = await nodebench(['run', suite, '--node', RUNTIMES.join(','), '--benchmarks', [...FOLDED, ...REAL].join(','), '--processes', '5', '--max-processes', '5', '--samples', '5', '--out', out]);
  assert.equal(run.exitCode, 0, run.stderr);
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.deepEqual(schemaErrors(result), []);
  for (const cell of result.cells) {
    const evidence = `${cell.benchmark} on ${cell.runtime}: ${cell.summary.estimate.toFixed(2)} ns/op, empty ${cell.summary.emptyNsPerOp.toFixed(2)} ns/op`;
    assert.equal(flagged(cell), FOLDED.includes(cell.benchmark), evidence);
    assert.ok(cell.processes.every((p) => p.emptyNsPerOp.length === 5));
  }
  // Terminal table: the mark on the rate and on the ratio, the note under the table.
  assert.match(run.stdout, /\nconstant-math\s+\S+! (?:±\S+|\(no estimate\)) \(base\)\s+\S+! (?:±\S+|\(no estimate\)) \S+x!\S* \[\S+x, \S+x\]/);
  assert.match(run.stdout, /\nxorshift\s+\d\S*[kMG] (?:±\S+|\(no estimate\)) \(base\)\s+\d\S*[kMG] (?:±\S+|\(no estimate\)) \S+x[=?]? \[\S+x, \S+x\]/);
  assert.match(run.stdout, /! optimized away: 6 cells ran within 1\.8x of an empty benchmark/);

  const md = await nodebench(['report', out, '--format', 'markdown']);
  // Bold only where decided (issue 39, item 8); the folded mark either way.
  assert.match(md.stdout, /\| constant-length \| \S+! (?:±\S+|\(no estimate\)) \(base\) \| \S+! (?:±\S+|\(no estimate\)) (?:\*\*\S+x\*\*!|\S+x!\S*) \[\S+x, \S+x\]/);
  assert.match(md.stdout, /! optimized away: 6 cells/);
  const csv = parse((await nodebench(['report', out, '--format', 'csv'])).stdout, { columns: true });
  for (const row of csv) {
    assert.equal(row.warnings.split(' ').includes('optimized-away'), FOLDED.includes(row.benchmark), row.benchmark);
    assert.ok(Number(row.emptyNsPerOp) > 0);
  }
  const html = await nodebench(['report', out, '--format', 'html', '--out', path.join(tmp, 'r.html')]);
  assert.equal(html.exitCode, 0, html.stderr);
  assert.match(fs.readFileSync(path.join(tmp, 'r.html'), 'utf8'), /16\.20\.2\/baseline ! optimized away: ran within 1\.8x of an empty benchmark/);

  const from = `${OLDEST}/baseline`;
  const to = `${result.runtimes[1].label}/baseline`;
  const diff = await nodebench(['diff', out, '--from', from, '--to', to]);
  assert.match(diff.stdout, /folding\/constant-math\s+.+? -> \S+\s+\S+!\s+\S+!\s+[+-]\S+%!/);
  assert.match(diff.stdout, /folding\/xorshift\s+.+? -> \S+\s+\d\S*[kMG]\s+\d\S*[kMG]\s+[+-][\d.]+%\s/);
  assert.match(diff.stdout, /! optimized away: 6 cells/);
  const json = JSON.parse((await nodebench(['diff', out, '--from', from, '--to', to, '--json'])).stdout);
  for (const row of json.rows) assert.equal(row.warnings.a.includes('optimized-away'), FOLDED.includes(row.label.split('/')[1]), row.label);
  const diffMd = await nodebench(['diff', out, '--from', from, '--to', to, '--format', 'markdown']);
  assert.match(diffMd.stdout, /\| folding\/empty \| [^|]+ \| \S+! \| \S+! \| [+-]\S+%! \|/);
});

test("require('nodebench/blackhole') from a user's suite, Node 4.9.1 to 24: consume() keeps a dropped result alive, opaque() stops constant folding", { timeout: 300_000 }, async () => {
  const project = fs.mkdtempSync(path.join(tmp, 'project-'));
  fs.mkdirSync(path.join(project, 'node_modules'));
  fs.symlinkSync(root, path.join(project, 'node_modules', 'nodebench'), 'dir');
  const file = path.join(project, 'bench.js');
  fs.writeFileSync(file, `'use strict';
var blackhole = require('nodebench/blackhole');
function step(x) { x ^= x << 13; x ^= x >> 17; return x ^ (x << 5); }
module.exports = {
  setup: function () { return { x: 88172645 }; },
  benchmarks: {
    dropped: function (ctx) { step(ctx.x); },
    consumed: function (ctx) { blackhole.consume(step(ctx.x)); },
    'constant-math': function () { return Math.max(3, 7) + Math.abs(-2); },
    'opaque-math': function () { return Math.max(blackhole.opaque(3), blackhole.opaque(7)) + Math.abs(blackhole.opaque(-2)); }
  }
};
`);
  const out = path.join(project, 'r.json');
  // Five processes, as above: the folding check takes the median process, and two of three slowed
  // by load (constant-math read 2.01x the empty loop once) would flip it.
  const run = await nodebench(['run', file, '--node', `${OLDEST},24.21.0`, '--processes', '5', '--max-processes', '5', '--samples', '5', '--out', out]);
  assert.equal(run.exitCode, 0, run.stderr);
  for (const cell of JSON.parse(fs.readFileSync(out, 'utf8')).cells) {
    assert.equal(flagged(cell), ['dropped', 'constant-math'].includes(cell.benchmark), `${cell.benchmark} on ${cell.runtime}: ${cell.summary.estimate} ns/op, empty ${cell.summary.emptyNsPerOp}`);
  }
});
