// V8 flags as data, on real binaries: parsing --v8-options from Node 4 to the newest LTS, the flags
// and flags diff commands, flag validation before a matrix runs, and bisect on a flag's default.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodebench, root } from './helpers/cli.js';
import { testRuntime } from './helpers/runtimes.js';
import { runtimeFlags } from '../cli/flags/index.js';
import { findFlag, parseV8Options } from '../cli/flags/parse.js';
import { buildPlan } from '../cli/matrix/plan.js';
import { releasesBetween } from '../cli/bisect/releases.js';
import { bisectVersions } from '../cli/bisect/search.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-flags-'));
const flagCache = { ...process.env, NODEBENCH_CACHE: path.join(tmp, 'cache') };

// [runtime, flag as a user writes it, name the release prints, type, default]; null type: absent.
const EXPECTED = [
  ['4.9.1', '--max-semi-space-size', 'max_semi_space_size', 'int', 0],
  ['4.9.1', '--concurrent-marking', null],
  ['4.9.1', '--trace_gc', 'trace_gc', 'bool', false],
  ['6.17.1', '--concurrent-marking', null],
  ['6.17.1', '--stack-size', 'stack_size', 'int', 984],
  ['8.17.0', '--concurrent-marking', 'concurrent_marking', 'bool', false],
  ['14.21.3', '--concurrent-marking', 'concurrent-marking', 'bool', true],
  ['14.21.3', '--max_semi_space_size', 'max-semi-space-size', 'size_t', 0],
  ['16.13.2', '--no-concurrent-marking', 'concurrent-marking', 'bool', false],
  ['16.13.2', '--parallel-marking', 'parallel-marking', 'bool', false],
  ['17.2.0', '--concurrent-marking', 'concurrent-marking', 'bool', false],
  ['17.3.0', '--concurrent-marking', 'concurrent-marking', 'bool', true],
  ['lts', '--concurrent-marking', 'concurrent-marking', 'bool', true],
  ['lts', '--trace-gc', 'trace-gc', 'bool', false],
  ['lts', '--stack-size', 'stack-size', 'int', 984],
  ['lts', '--expose-gc-as', 'expose-gc-as', 'string', '']
];

for (const [spec, written, printed, type, value] of EXPECTED) {
  test(`Node ${spec}: ${written} ${type ? `is ${type}, default ${JSON.stringify(value)}` : 'is absent'}`, { timeout: 120_000 }, async () => {
    const listing = await runtimeFlags(await testRuntime(spec), { env: flagCache });
    assert.ok(listing.flags.length > 300, `only ${listing.flags.length} flags parsed`);
    const flag = findFlag(listing.flags, written);
    if (!type) return assert.equal(flag, null);
    assert.equal(flag.printed, printed);
    assert.equal(flag.type, type);
    assert.deepEqual(flag.default, value);
    assert.ok(flag.description.length > 3);
  });
}

test('every flag line of a release is parsed, and the listing is cached per binary', async () => {
  const runtime = await testRuntime('16.13.2');
  const listing = await runtimeFlags(runtime, { env: flagCache });
  const cached = path.join(flagCache.NODEBENCH_CACHE, 'v8-flags', `${runtime.sha256}.json`);
  assert.deepEqual(JSON.parse(fs.readFileSync(cached, 'utf8')).flags, listing.flags);
  // Every flag's type line was understood: no boolean default left as raw text.
  assert.deepEqual(listing.flags.filter((f) => f.type === 'bool' && typeof f.default !== 'boolean'), []);
});

test('parser reads V8 10+ defaults written as command lines, and wrapped descriptions', () => {
  const text = [
    '  --concurrent-marking (use concurrent marking)',
    '        type: bool  default: --concurrent-marking',
    '  --trace-gc (print one trace line',
    '      following each garbage collection)',
    '        type: bool  default: --no-trace-gc',
    '  --max-lazy (ignore eager compilation hints)',
    '        type: bool  default: --nomax-lazy',
    '  --stack-size (default size of stack region)',
    '        type: int  default: --stack-size=984'
  ].join('\n');
  assert.deepEqual(parseV8Options(text).map((f) => [f.name, f.default, f.description]), [
    ['concurrent-marking', true, 'use concurrent marking'],
    ['trace-gc', false, 'print one trace line following each garbage collection'],
    ['max-lazy', false, 'ignore eager compilation hints'],
    ['stack-size', 984, 'default size of stack region']
  ]);
});

test('nodebench flags lists a runtime\'s flags with --grep and --json', async () => {
  const run = await nodebench(['flags', '4.9.1', '--grep', 'semi_space', '--json']);
  assert.equal(run.exitCode, 0, run.stderr);
  const listed = JSON.parse(run.stdout);
  assert.equal(listed.v8, '4.5.103.53');
  assert.ok(listed.flags.some((f) => f.printed === 'max_semi_space_size' && f.default === 0));
  const text = await nodebench(['flags', '16.13.2', '--grep', '^concurrent-marking$']);
  assert.match(text.stdout, /Node 16\.13\.2 \(V8 9\.4\): 1 V8 flag\n--concurrent-marking +bool +off +use concurrent marking/);
});

test('nodebench flags diff shows the concurrent-marking default flipping, both ways', async () => {
  const fixed = await nodebench(['flags', 'diff', '16.13.2', '16.14.0', '--json']);
  assert.equal(fixed.exitCode, 0, fixed.stderr);
  const diff = JSON.parse(fixed.stdout);
  assert.deepEqual(diff.changed.find((c) => c.name === 'concurrent-marking'), { name: 'concurrent-marking', type: 'bool', description: 'use concurrent marking', before: false, after: true });
  const broke = await nodebench(['flags', 'diff', '14.21.3', '16.13.2']);
  assert.match(broke.stdout, /V8 8\.4\.371\.23-node\.\d+ -> 9\.4\.146\.24-node\.\d+/);
  // GC flags are listed before the compiler's.
  const lines = broke.stdout.split('\n');
  const marking = lines.findIndex((l) => l.includes('[gc] --concurrent-marking: on -> off'));
  const compiler = lines.findIndex((l) => l.includes('[compiler]'));
  assert.ok(marking > 0 && marking < compiler, broke.stdout);
});

test('a --grep that is not a pattern is one sentence and exit 2', async () => {
  const run = await nodebench(['flags', '4.9.1', '--grep', '(']);
  assert.equal(run.exitCode, 2);
  assert.equal(run.stderr, 'nodebench: --grep "(" is not a valid regular expression; give a word such as gc or a valid pattern.');
});

test('the plan marks a flag a runtime lacks unsupported, and a compiled-out one failed with V8\'s message', { timeout: 120_000 }, async () => {
  const runtimes = await Promise.all(['4.9.1', '16.13.2', '16.20.2'].map(async (spec) => ({ ...(await testRuntime(spec)), label: spec })));
  const flagSets = [
    { name: 'on', flags: ['--concurrent-marking'] },
    { name: 'semi', flags: ['--max_semi_space_size=16', '--expose-gc'] },
    { name: 'bogus', flags: ['--xyz-no-such-flag'] },
    { name: 'illegal', flags: ['--max-semi-space-size=abc'] }
  ];
  const cells = await buildPlan({ runtimes, flagSets, suites: [{ name: 's', benchmarks: [{ name: 'b' }], selected: ['b'] }] });
  const status = Object.fromEntries(cells.map((c) => [`${c.runtime}/${c.flagSet}`, [c.status, c.error]]));
  assert.deepEqual(status['4.9.1/on'], ['unsupported', 'Node 4.9.1 (V8 4.5) has no flag --concurrent-marking']);
  assert.deepEqual(status['16.13.2/on'], ['failed', 'Node 16.13.2 (V8 9.4) will not start with --concurrent-marking: Check failed: !FLAG_concurrent_marking && !FLAG_parallel_marking.']);
  assert.deepEqual(status['16.20.2/on'], ['pending', undefined]);
  for (const v of ['4.9.1', '16.13.2', '16.20.2']) {
    assert.deepEqual(status[`${v}/semi`], ['pending', undefined]);
    assert.equal(status[`${v}/bogus`][1], `Node ${v} (V8 ${v === '4.9.1' ? '4.5' : '9.4'}) has no flag --xyz-no-such-flag`);
    // A flag the runtime has, with a value V8 refuses: failed with V8's words, not "has no flag".
    assert.equal(status[`${v}/illegal`][0], 'failed');
    assert.match(status[`${v}/illegal`][1], /refuses the value of --max-semi-space-size=abc \(V8 expects type (int|size_t)\); fix the flag set's value$/);
  }
  assert.deepEqual(runtimes[1].v8Flags['concurrent-marking'], false);
  assert.deepEqual(runtimes[2].v8Flags['concurrent-marking'], true);
});

test('a matrix with a flag Node 4 lacks runs the rest and says why, and notes the differing default', { timeout: 300_000 }, async () => {
  const matrixFile = path.join(tmp, 'matrix.yaml');
  fs.writeFileSync(matrixFile, [
    'runtimes: [4.9.1, 16.13.2, 16.20.2]',
    'flagSets:',
    '  no-cm: ["--no-concurrent-marking"]',
    'suites:',
    `  - name: ${path.join(root, 'test', 'fixtures', 'suites', 'smoke')}`,
    '    benchmarks: [sum-loop]',
    'run: { processes: 1, maxProcesses: 1, samples: 3, minSampleMs: 2, warmupMinMs: 5, warmupMaxMs: 50, metrics: false }',
    ''
  ].join('\n'));
  const out = path.join(tmp, 'result.json');
  const run = await nodebench(['matrix', '--matrix', matrixFile, '--out', out]);
  assert.equal(run.exitCode, 0, run.stderr);
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  const cells = Object.fromEntries(result.cells.map((c) => [c.runtime, c]));
  assert.equal(cells['4.9.1'].status, 'unsupported');
  assert.equal(cells['4.9.1'].error, 'Node 4.9.1 (V8 4.5) has no flag --no-concurrent-marking');
  assert.equal(cells['16.13.2'].status, 'ok');
  assert.equal(cells['16.20.2'].status, 'ok');
  assert.equal(result.runtimes.find((r) => r.version === '16.13.2').v8Flags['concurrent-marking'], false);
  assert.match(run.stdout, /V8 flag default differs: --concurrent-marking is off on 16\.13\.2, on on 16\.20\.2/);
});

test('bisect search finds the first bad release and reuses known verdicts', async () => {
  const versions = ['1.0.0', '1.1.0', '1.2.0', '1.3.0', '1.4.0', '1.5.0'];
  const asked = [];
  const judge = async (v) => {
    asked.push(v);
    return { kind: v >= '1.3.0' ? 'bad' : 'good' };
  };
  const known = new Map([['1.2.0', { kind: 'good' }]]);
  assert.deepEqual(await bisectVersions(versions, judge, { known }), { lastGood: '1.2.0', firstBad: '1.3.0' });
  assert.ok(!asked.includes('1.2.0'));
  assert.deepEqual(releasesBetween(['16.0.0', '15.14.0', '14.21.3', '16.14.0', '16.13.2', '15.0.0'], '14.21.3', '16.13.2'), ['14.21.3', '15.0.0', '15.14.0', '16.0.0', '16.13.2']);
});

test('bisect --flag names the release whose default flipped, with both V8 versions', { timeout: 120_000 }, async () => {
  const run = await nodebench(['bisect', '--flag', 'concurrent-marking', '--good', '16.13.2', '--bad', '16.14.0', '--out', path.join(tmp, 'bisect.json')]);
  assert.equal(run.exitCode, 0, run.stderr);
  assert.match(run.stdout, /^first release with --concurrent-marking on: Node 16\.14\.0 \(V8 9\.4\.146\.24-node\.20\); the one before, Node 16\.13\.2 \(V8 9\.4\.146\.24-node\.14\), has off/);
  assert.match(run.stdout, /--concurrent-marking: off -> on/);
  const same = await nodebench(['bisect', '--flag', 'concurrent-marking', '--good', '14.21.3', '--bad', '16.20.2', '--out', path.join(tmp, 'same.json')]);
  assert.equal(same.exitCode, 2);
  assert.match(same.stderr, /^nodebench: --concurrent-marking defaults to on on both 14\.21\.3 and 16\.20\.2; pick releases where it differs/m);
});
