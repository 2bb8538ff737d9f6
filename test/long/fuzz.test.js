// Hostile input, generated: random and mutated matrix files, result files and command lines must
// end in a sentence and exit 0/1/2, never a stack trace (exit 70 is for bugs in nodebench).
// Budget: FUZZ_RUNS (default 40 per property; `FUZZ_RUNS=2000 node --test test/long/fuzz.test.js` for a
// longer hunt, with the seed fast-check prints to replay a failure).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { parseMatrix } from '../../cli/matrix/load.js';
import { readResult } from '../../cli/results/read.js';
import { isUserError } from '../../cli/errors.js';
import { nodebench, root } from '../helpers/cli.js';

const runs = Number(process.env.FUZZ_RUNS || 40);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-fuzz-'));
const shippedMatrix = fs.readFileSync(path.join(root, 'matrix.yaml'), 'utf8');

// Whatever it is given, the matrix parser returns a matrix or throws a UserError.
function parsesOrSaysWhy(text) {
  try {
    parseMatrix(text, 'fuzz.yaml');
  } catch (err) {
    assert.ok(isUserError(err), `not a user error for ${JSON.stringify(text).slice(0, 200)}: ${err.stack}`);
  }
}

const yamlish = fc.oneof(
  fc.string(),
  fc.constantFrom('runtimes', 'flagSets', 'suites', 'run', 'processes', '- ', ': ', '[', ']', '{', '}', '&a', '*a', '\0', '\t', '\n', 'null', '~', '16', '"lts"', '-1', '1e309', 'all', '--x')
    .chain((token) => fc.array(fc.constant(token), { maxLength: 3 }).map((t) => t.join('')))
);

test('random and mutated matrix files parse or say why', () => {
  fc.assert(fc.property(fc.array(yamlish, { maxLength: 30 }).map((parts) => parts.join('')), parsesOrSaysWhy), { numRuns: runs * 5 });
  // Mutations of the shipped matrix: a line dropped, duplicated or cut short, a character replaced.
  const lines = shippedMatrix.split('\n');
  fc.assert(fc.property(fc.nat(lines.length - 1), fc.nat(80), fc.constantFrom('drop', 'dup', 'cut', 'char'), fc.string({ maxLength: 3 }), (at, col, how, text) => {
    const copy = [...lines];
    if (how === 'drop') copy.splice(at, 1);
    if (how === 'dup') copy.splice(at, 0, copy[at]);
    if (how === 'cut') copy[at] = copy[at].slice(0, col);
    if (how === 'char') copy[at] = copy[at].slice(0, col) + text + copy[at].slice(col + 1);
    parsesOrSaysWhy(copy.join('\n'));
  }), { numRuns: runs * 5 });
});

test('damaged result files are read or refused with a sentence', async () => {
  const good = {
    schemaVersion: 2, nodebench: { version: '0' }, createdAt: new Date().toISOString(), status: 'complete', host: { hostname: 'h', cpuModel: 'c', cores: 2, memoryBytes: 1, os: 'o', kernel: 'k', loadAverageStart: [0, 0, 0] },
    runtimes: [{ spec: '16', label: '16.20.2', version: '16.20.2', v8: '9', arch: 'x64', provider: 'npm', sha256: 'a'.repeat(64) }],
    flagSets: [{ name: 'baseline', flags: [] }], suites: [], run: {}, schedule: { seed: 1, processesPerCell: 1, order: 'x' },
    cells: [{ id: 0, runtime: '16.20.2', runtimeLabel: '16.20.2', flagSet: 'baseline', flags: [], suite: 's', benchmark: 'b', status: 'ok', processes: [{ round: 0, samplesNsPerOp: [1], iterationsPerSample: 1, warmup: { batches: 1, ms: 1, stable: true } }], summary: { unit: 'ns/op', opsPerSec: 1, median: 1, mean: 1, rme: 1, samples: 1, processes: 1, ci: { level: 0.95, low: 1, high: 1, method: 'm' } } }]
  };
  const file = path.join(tmp, 'r.json');
  // Delete or replace one field anywhere in the document.
  const pathsOf = (value, prefix = []) => (value && typeof value === 'object' ? Object.keys(value).flatMap((k) => [[...prefix, k], ...pathsOf(value[k], [...prefix, k])]) : []);
  const fields = pathsOf(good);
  await fc.assert(fc.asyncProperty(fc.constantFrom(...fields), fc.oneof(fc.constant(undefined), fc.constant(null), fc.string(), fc.integer(), fc.constant([]), fc.constant({})), async (at, replacement) => {
    const copy = structuredClone(good);
    let parent = copy;
    for (const key of at.slice(0, -1)) parent = parent[key];
    if (replacement === undefined) delete parent[at[at.length - 1]];
    else parent[at[at.length - 1]] = replacement;
    fs.writeFileSync(file, JSON.stringify(copy));
    try {
      await readResult(file);
    } catch (err) {
      assert.ok(isUserError(err), `${at.join('.')} = ${JSON.stringify(replacement)}: ${err.stack}`);
    }
  }), { numRuns: runs * 5 });
});

test('random command lines end in exit 0, 1 or 2 with no stack trace', { timeout: 300_000 }, async () => {
  const fuzzCache = fs.mkdtempSync(path.join(tmp, 'cache-'));
  const word = fc.oneof(
    fc.constantFrom('matrix', 'run', 'diff', 'report', 'merge', 'runtimes', 'flags', 'doctor', 'bisect', 'list', 'which', 'prune', 'install', '--quick', '--processes', '--samples',
      '--timeout', '--seed', '--baseline', '--out', '--runtimes', '--flags', '--suites', '--format', '--fail-on-regression', '--shard', '--matrix', '--json', '--grep',
      '0', '-1', 'abc', '1e9', '', ' ', '/', '/tmp', '/nonexistent', 'x', '*', '4.9.1', 'lts', '16/baseline', '1/0', 'html', '\u00e9'),
    fc.string({ maxLength: 8 })
  );
  await fc.assert(fc.asyncProperty(fc.array(word, { minLength: 1, maxLength: 5 }), async (args) => {
    // Never a long measurement or a download: only the fast paths of every command are fuzzed.
    // A matrix that parses would run for minutes: its suites are pointed at a file that is not there.
    // A cache of its own: `runtimes prune` may be drawn, and the other test files share the real one.
    const bounded = args[0] === 'matrix' ? [...args, '--suites', './no-such-suite.js'] : args;
    const run = await nodebench(bounded, {
      timeout: 60_000, env: { NODEBENCH_CACHE: fuzzCache, npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0', NODE_MIRROR: 'http://127.0.0.1:9' }, cwd: tmp
    });
    if (run.timedOut) return;
    assert.ok([0, 1, 2].includes(run.exitCode), `nodebench ${JSON.stringify(args)} exited ${run.exitCode}: ${run.stderr.slice(0, 800)}`);
    assert.doesNotMatch(run.stderr, /internal error|\n\s+at /, `nodebench ${JSON.stringify(args)}: ${run.stderr.slice(0, 800)}`);
  }), { numRuns: Math.max(10, Math.round(runs / 2)) });
});
