import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseV8Options, findFlag, diffFlags, flagName } from '../cli/flags/v8-options.js';
import { nodebench } from './helpers/cli.js';

test('--v8-options in every format: underscores and dashes, true/false, --flag/--no-flag/--noflag and --flag=value defaults', () => {
  const text = [
    'Options:',
    '  --max_semi_space_size (max size of a semi-space (in MBytes))',
    '        type: int  default: 0',
    '  --concurrent-marking (use concurrent marking)',
    '        type: bool  default: false',
    '  --parallel-marking (use parallel marking)',
    '        type: bool  default: --noparallel-marking',
    '  --concurrent-sweeping (use concurrent sweeping)',
    '        type: bool  default: --concurrent-sweeping',
    '  --max-old-space-size (max size of the old space (in Mbytes))',
    '        type: size_t  default: --max-old-space-size=0',
    '  --trace-gc (print one trace line following each garbage collection)',
    '        type: bool  default: --no-trace-gc',
    '  --expose-gc-as (expose gc extension under the specified name)',
    '        type: string  default: nullptr'
  ].join('\n');
  const flags = parseV8Options(text);
  const of = (name) => flags.find((f) => f.canonical === name);
  assert.deepEqual(of('max-semi-space-size'), { name: 'max_semi_space_size', canonical: 'max-semi-space-size', description: 'max size of a semi-space (in MBytes)', type: 'int', default: 0 });
  assert.equal(of('concurrent-marking').default, false);
  assert.equal(of('parallel-marking').default, false);
  assert.equal(of('concurrent-sweeping').default, true);
  assert.equal(of('max-old-space-size').default, 0);
  assert.equal(of('trace-gc').default, false);
  assert.equal(of('expose-gc-as').default, null);
  assert.equal(findFlag(flags, '--max-semi-space-size=64').canonical, 'max-semi-space-size');
  assert.equal(findFlag(flags, '--no-concurrent-marking').canonical, 'concurrent-marking');
  assert.equal(findFlag(flags, '--noparallel-marking').canonical, 'parallel-marking');
  assert.equal(findFlag(flags, '--xyz'), null);
  assert.deepEqual(flagName('--max_old_space_size=64'), { canonical: 'max-old-space-size', negated: false });
  const changed = diffFlags(flags, flags.map((f) => (f.canonical === 'concurrent-marking' ? { ...f, default: true } : f))).changed;
  assert.deepEqual(changed.map((f) => [f.canonical, f.from, f.to]), [['concurrent-marking', false, true]]);
});

// Real binaries, as `nodebench flags` reads them (installed by .ci/run).
const EXPECTED = {
  '4.9.1': { 'max-semi-space-size': ['int', 0], 'concurrent-recompilation': ['bool', true], 'concurrent-marking': null },
  '6.17.1': { 'max-semi-space-size': ['int', 0], 'concurrent-marking': null },
  '14.21.3': { 'max-semi-space-size': ['size_t', 0], 'concurrent-marking': ['bool', true] },
  '16.20.2': { 'max-semi-space-size': ['size_t', 0], 'concurrent-marking': ['bool', true] },
  lts: { 'max-semi-space-size': ['size_t', 0], 'concurrent-marking': ['bool', true] }
};

for (const [spec, expected] of Object.entries(EXPECTED)) {
  test(`nodebench flags ${spec} --json: presence, type and default of named flags`, { timeout: 60_000 }, async () => {
    const run = await nodebench(['flags', spec, '--json']);
    assert.equal(run.exitCode, 0, run.stderr);
    const { flags } = JSON.parse(run.stdout);
    assert.ok(flags.length > 300, `only ${flags.length} flags`);
    for (const [name, want] of Object.entries(expected)) {
      const flag = flags.find((f) => f.canonical === name);
      if (want === null) assert.equal(flag, undefined, `${name} should not exist on ${spec}`);
      else assert.deepEqual([flag?.type, flag?.default], want, name);
    }
  });
}

test('flags user errors are one sentence, exit 2', async () => {
  const grep = await nodebench(['flags', '4.9.1', '--grep', '(']);
  assert.equal(grep.exitCode, 2);
  assert.match(grep.stderr, /--grep "\(" is not a valid regular expression/);
  const diff = await nodebench(['flags', 'diff', '4.9.1']);
  assert.equal(diff.exitCode, 2);
  assert.match(diff.stderr, /flags diff needs two runtimes/);
});

test('a flag one runtime lacks makes only its cells unsupported, with the runtime and V8 version named', { timeout: 120_000 }, async () => {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-flags-')), 'r.json');
  const run = await nodebench(['run', 'test/fixtures/suites/smoke/index.js', '--node', '4.9.1,16', '--flags', '--concurrent-marking', '--benchmarks', 'sum-loop',
    '--processes', '1', '--out', out]);
  assert.equal(run.exitCode, 0, run.stderr);
  const cells = JSON.parse(fs.readFileSync(out, 'utf8')).cells;
  const flagged = (version) => cells.find((c) => c.runtime.startsWith(version) && c.flags.length);
  assert.equal(flagged('4.9.1').status, 'unsupported');
  assert.equal(flagged('4.9.1').error, 'unsupported: Node 4.9.1 (V8 4.5) has no flag --concurrent-marking');
  assert.equal(flagged('16.').status, 'ok');
  assert.ok(cells.filter((c) => !c.flags.length).every((c) => c.status === 'ok'));
});

test('flags diff 16.13.2 16.14.0 shows the concurrent-marking default flip (nodejs/node#41012)', { timeout: 120_000 }, async () => {
  const run = await nodebench(['flags', 'diff', '16.13.2', '16.14.0', '--json', '--grep', 'marking']);
  assert.equal(run.exitCode, 0, run.stderr);
  const diff = JSON.parse(run.stdout);
  const flip = diff.changed.find((f) => f.canonical === 'concurrent-marking');
  assert.deepEqual([flip?.from, flip?.to], [false, true]);
});
