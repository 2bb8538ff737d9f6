// explain --measure instructions without valgrind: callgrind's per-function costs read from a part
// (test/fixtures/callgrind/part.2: lines of a real part of Node 24.21.0 under callgrind 3.19.0,
// 2026-11-28, trimmed to four functions, its summary set to their sum), JIT addresses named from
// V8's perf map by range, one counted process read as counted.js reads it, and the document shown
// in every format with a function name user code chose to carry an escape code and markup.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, nodebench } from './helpers/cli.js';
import { parseCallgrindPart } from '../cli/explain/callgrind.js';
import { parsePerfMap, perfMapLookup, mappedIdentity, UNNAMED_JIT } from '../cli/explain/perf-map.js';
import { readCountedProcess, perfMapFlags } from '../cli/explain/counted.js';
import { countedDocument } from '../cli/explain/counted-document.js';
import { EXPLAIN_FORMATS } from '../cli/explain/formats.js';

const partText = fs.readFileSync(path.join(root, 'test', 'fixtures', 'callgrind', 'part.2'), 'utf8');
// Lines of real maps: Node 24.21.0 (the first five, the hot.js the part above ran; the last, a
// function named by a computed property), then Node 6.17.1. The Builtin entry over 0x280043c0 is
// planted, written before the code that reused its memory.
const EVIL = 'holder.\u001b[31m<b>steady</b>';
const mapText = [
  '28004300 200 Builtin:ArrayPrototypePush',
  '3ce0a6001a30 23 JS:~hotLoop /tmp/cgt/hot.js:1:17',
  '28004240 148 JS:^hotLoop /tmp/cgt/hot.js:1:17',
  '28003d80 448 JS:+hotLoop /tmp/cgt/hot.js:1:17',
  '280043c0 214 JS:*\'hotLoop /tmp/cgt/hot.js:1:17',
  '28040dc0 160 JS:^hotLoop /tmp/cgt/hot.js:1:17',
  `7fc5fa004040 1c8 JS:*'${EVIL} /tmp/cgt/n.js:2:46`,
  '37ae8b546b60 10a LazyCompile:*f [eval]:1',
  '37ae8b4199c0 f Stub:BinaryOpICWithAllocationSiteStub',
  'not an entry: a name with a newline in it continues here'
].join('\n');

test('a callgrind part: each function\'s self instructions, the inclusive cost of calls left out, summing to the summary', () => {
  const part = parseCallgrindPart(partText);
  assert.equal(part.pid, 32154);
  assert.equal(part.part, 2);
  assert.deepEqual(part.events, ['Ir']);
  assert.equal(part.selfTotal, part.summary);
  const self = Object.fromEntries([...part.functions.values()].map((f) => [f.name, f.self]));
  // 12 + 8 around a call whose 717 are the callee's; relative positions (+1, *) read as cost lines.
  assert.deepEqual(self, { 'operator new[](unsigned long, std::nothrow_t const&)': 20, 'uv_mutex_unlock\'2': 32, '0x00000000280043c0': 1293775, '0x0000000028040dd4': 50 });
  // cob=(2) named "???" once, then by its number alone.
  assert.equal([...part.functions.values()].find((f) => f.name === '0x00000000280043c0').object, '???');
});

test('a perf map: an address inside an entry finds it, the entry written last wins where V8 reused memory, lines that are no entry are skipped', () => {
  const entries = parsePerfMap(mapText);
  assert.equal(entries.length, 9);
  const lookup = perfMapLookup(entries);
  assert.equal(lookup(0x280043c0).name, 'JS:*\'hotLoop /tmp/cgt/hot.js:1:17');
  assert.equal(lookup(0x28040dd4).name, 'JS:^hotLoop /tmp/cgt/hot.js:1:17');
  assert.equal(lookup(0x28004390).name, 'Builtin:ArrayPrototypePush');
  assert.equal(lookup(0x28040dc0 + 0x160), null);
  assert.equal(lookup(0x1000), null);
});

test('map names: JavaScript functions by name and place with their tier apart, V8\'s own code by its name', () => {
  const suiteDir = '/tmp/cgt';
  const node24 = mappedIdentity('JS:*\'hotLoop /tmp/cgt/hot.js:1:17', { suiteDir });
  assert.deepEqual(node24, { key: 'user\u0000hotLoop\u0000/tmp/cgt/hot.js\u00001:17', name: 'hotLoop', location: 'hot.js:1:17', kind: 'user', tier: '*\'' });
  assert.equal(mappedIdentity('JS:^hotLoop /tmp/cgt/hot.js:1:17', { suiteDir }).key, node24.key);
  assert.deepEqual(mappedIdentity('LazyCompile:*f /tmp/cgt/x.js:3', { suiteDir }), { key: 'user\u0000f\u0000/tmp/cgt/x.js\u00003', name: 'f', location: 'x.js:3', kind: 'user', tier: '*' });
  assert.equal(mappedIdentity(`JS:*'${EVIL} /tmp/cgt/n.js:2:46`, { suiteDir }).name, EVIL);
  assert.deepEqual(mappedIdentity('Builtin:ArrayPrototypePush'), { key: 'v8\u0000Builtin:ArrayPrototypePush', name: 'Builtin:ArrayPrototypePush', location: 'V8', kind: 'v8', tier: null });
  assert.equal(mappedIdentity('LazyCompile:~then native promise.js:12').location, 'V8\'s promise.js');
  assert.equal(mappedIdentity('LazyCompile:~hrtime internal/process.js:10').location, 'node:internal/process');
  assert.equal(mappedIdentity('LazyCompile:*f [eval]:1').kind, 'node');
});

test('the flags: the map into the process\'s folder where the runtime can put it there, V8\'s log out of the suite\'s folder', () => {
  assert.deepEqual(perfMapFlags({ perfMap: true, inFolder: true, logfile: true }, '/d'), ['--perf-basic-prof', '--perf-basic-prof-path=/d', '--logfile=/d/v8.log', '--no-logfile-per-isolate']);
  assert.deepEqual(perfMapFlags({ perfMap: true, inFolder: false, logfile: true }, '/d'), ['--perf-basic-prof', '--logfile=/d/v8.log', '--no-logfile-per-isolate']);
  assert.deepEqual(perfMapFlags({ perfMap: false }, '/d'), []);
});

// A folder as runner/instructions.js leaves it: parts 3 (a measured batch) and 4 (an empty one),
// the map beside them. extra: instructions to add to hotLoop's optimised code in the batch.
function countedFolder(extra, { map = true } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-explain-parse-'));
  const batch = partText.replace('0 1293774', `0 ${1293774 + extra}`).replace('summary: 1293877', `summary: ${1293877 + extra}`).replace('part: 2', 'part: 3');
  fs.writeFileSync(path.join(dir, 'callgrind.out.3'), batch);
  fs.writeFileSync(path.join(dir, 'callgrind.out.4'), partText.replace('part: 2', 'part: 4'));
  if (map) fs.writeFileSync(path.join(dir, 'perf-32154.map'), mapText);
  const total = 1293877 + extra;
  const measurement = {
    batches: [{ phase: 'sample', part: 3, operations: 100, instructions: total }, { phase: 'marker', part: 4, operations: 0, instructions: 1000 }],
    markerInstructions: 1000,
    instructionsPerOp: [(total - 1000) / 100]
  };
  return { dir, measurement };
}

test('one counted process: JIT code named from the map and merged over tiers, natives by symbol, the sum with the marks subtracted is the cell\'s figure', () => {
  const { dir, measurement } = countedFolder(0);
  const counted = readCountedProcess(dir, measurement, { support: { perfMap: true, inFolder: true }, suiteDir: '/tmp/cgt' });
  assert.equal(counted.operations, 100);
  const byName = Object.fromEntries([...counted.functions.values()].map((f) => [f.identity.name, f]));
  assert.equal(byName.hotLoop.instructions, 1293775 + 50);
  assert.deepEqual(byName.hotLoop.tiers, { '*\'': 1293775, '^': 50 });
  // callgrind's suffix for a recursion level is the same function.
  assert.equal(byName.uv_mutex_unlock.identity.location, 'node');
  const sum = [...counted.functions.values()].reduce((s, f) => s + f.instructions, 0);
  assert.equal(sum / counted.operations - (counted.markerInstructions * counted.sampleBatches) / counted.operations, counted.instructionsPerOp);
  const unnamed = readCountedProcess(dir, measurement, { support: { perfMap: false }, suiteDir: '/tmp/cgt' });
  assert.equal(unnamed.functions.get('jit\u0000unnamed').identity.name, UNNAMED_JIT);
  assert.equal(unnamed.unnamedJit, 1293825);
  fs.rmSync(dir, { recursive: true });
});

test('the document: a planted 0.5% in one function is called, the rest is within its floor, and every format escapes a name user code chose', () => {
  const read = (extra) => {
    const { dir, measurement } = countedFolder(extra);
    try {
      return readCountedProcess(dir, measurement, { support: { perfMap: true, inFolder: true }, suiteDir: '/tmp/cgt' });
    } finally {
      fs.rmSync(dir, { recursive: true });
    }
  };
  // The evil name stands for the native function so that every format has to escape it.
  const evil = (counted) => {
    const [key, f] = [...counted.functions].find(([, x]) => x.identity.name === 'uv_mutex_unlock');
    counted.functions.set(key, { ...f, identity: { ...f.identity, name: EVIL } });
    return counted;
  };
  const planted = Math.round(1293775 * 0.005);
  const side = (id, flags) => ({ id, column: `24.21.0/${flags.join(' ') || 'baseline'}`, flags, runtime: { version: '24.21.0', v8: '13.6.233.17-node.53', label: '24.21.0' }, timing: null });
  const inputs = { source: { suiteFile: '/tmp/cgt/suite.js' }, target: { suite: { name: 's', file: '/tmp/cgt/suite.js' }, benchmark: 'b' }, sides: [side('a', []), side('b', ['--stack-size=984'])], run: null };
  const runs = {
    a: { processes: [{ counted: evil(read(0)) }, { counted: evil(read(0)) }], skipped: null, perfMap: { perfMap: true } },
    b: { processes: [{ counted: evil(read(planted)) }, { counted: evil(read(planted)) }], skipped: null, perfMap: { perfMap: true } }
  };
  const doc = countedDocument(inputs, runs, { processes: 2 }, { command: ['explain', '--measure', 'instructions'], createdAt: '2026-11-28T00:00:00.000Z' });
  const hot = doc.functions.rows.find((r) => r.name === 'hotLoop');
  assert.equal(hot.change.verdict, 'more');
  assert.ok(Math.abs(hot.change.relative - 0.005) < 1e-4, hot.change.relative);
  assert.equal(doc.functions.rows.find((r) => r.name === EVIL).change.verdict, 'same');
  assert.equal(doc.functions.sides.a.agreementPpm, 0);
  assert.ok(doc.functions.sides.b.residual < 1e-6);
  assert.match(doc.summary, /hotLoop \(hot\.js:1:17\) \+64\.69 \(\+0\.50%\)/);
  const table = EXPLAIN_FORMATS.table(doc);
  assert.ok(!table.includes('\u001b'), 'no raw escape code in the terminal table');
  assert.match(table, /holder\.\\x1b\[31m<b>steady<\/b>/);
  assert.match(table, /Units are instructions/);
  const html = EXPLAIN_FORMATS.html(doc);
  assert.ok(!html.includes('<b>steady') && !html.includes('\u001b'), 'the name is text in the page');
  assert.match(html, /&lt;b&gt;steady/);
  const markdown = EXPLAIN_FORMATS.markdown(doc);
  assert.ok(!markdown.includes('<b>steady') && !markdown.includes('\u001b'), 'the name is text in Markdown');
  assert.equal(JSON.parse(EXPLAIN_FORMATS.json(doc)).functions.rows.find((r) => r.name === EVIL).name, EVIL);
});

test('a result file of counts is explained in counts unless --measure says otherwise: the options of the time profiler are refused before anything runs', async () => {
  const counted = path.join(root, 'test', 'fixtures', 'history', 'counted-16.json');
  const run = await nodebench(['explain', counted, '--from', '16.20.2/baseline', '--to', '16.20.2/baseline', '--benchmark', 'loop-100', '--interval', '100']);
  assert.equal(run.exitCode, 2, run.stderr);
  // The sentence names what the user gave: the file of counts here, --measure instructions below.
  assert.equal(run.stderr.trim(), 'nodebench: --interval applies to explain in time (the profiler and its metrics processes), and a result file of counts, explained in counts, runs neither; leave out --interval.');
  const measured = await nodebench(['explain', counted, '--from', '16.20.2/baseline', '--to', '16.20.2/baseline', '--benchmark', 'loop-100', '--measure', 'instructions', '--interval', '100']);
  assert.equal(measured.exitCode, 2, measured.stderr);
  assert.equal(measured.stderr.trim(), 'nodebench: --interval applies to explain in time (the profiler and its metrics processes), and --measure instructions runs neither; leave out --interval.');
});
