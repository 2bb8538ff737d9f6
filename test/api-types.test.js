// cli/api.d.ts against what it describes: docs/api.md's example and a consumer of every export
// (test/fixtures/api-consumer.ts) must type-check with tsc --strict, and the names the module
// exports at run time must be exactly the values the .d.ts declares. The .d.ts is written by hand,
// so what it says of the run options (cli/options.js RUN_OPTIONS), the verdicts (stats/decision.js
// DECISIONS), the comparisons (stats/compare.js), the matrix (matrix/load.js) and the result
// document (results/result.schema.json) is checked against those sources too, by type assertions
// generated from them (drift-check.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { execa } from 'execa';
import { root } from './helpers/cli.js';
import { RUN_OPTIONS, DEFAULT_RUN } from '../cli/options.js';
import { DECISIONS } from '../cli/stats/decision.js';
import { parseMatrix } from '../cli/matrix/load.js';
import { compare, pairedRatio } from '../cli/api.js';
import { okCell } from './helpers/result-file.js';

const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const consumer = path.join(root, 'test', 'fixtures', 'api-consumer.ts');

function tsc() {
  try {
    const dir = path.dirname(createRequire(path.join(root, 'package.json')).resolve('typescript/package.json'));
    return { file: process.execPath, args: [path.join(dir, 'bin', 'tsc')] };
  } catch {
    // A work tree sharing another checkout's node_modules may lack it: npx fetches the version
    // package.json pins, once, into its cache.
    return { file: 'npx', args: ['--yes', '-p', `typescript@${pkg.devDependencies.typescript}`, 'tsc'] };
  }
}

// A file outside the package that imports it by name (through node_modules, as a user would) and
// lists the run-time export names as the keys of an object typed by the declared values: a name
// api.d.ts lacks is an excess property, a declared one api.js lacks a missing property.
async function exportsCheck() {
  const names = Object.keys(await import('nodebench')).sort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-api-types-'));
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.symlinkSync(root, path.join(dir, 'node_modules', 'nodebench'), 'dir');
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  const file = path.join(dir, 'exports-check.ts');
  fs.writeFileSync(file, [
    "import * as api from 'nodebench';",
    `export const exported: { [name in keyof typeof api]: true } = { ${names.map((n) => `${n}: true`).join(', ')} };`,
    ''
  ].join('\n'));
  const drift = path.join(dir, 'drift-check.ts');
  fs.writeFileSync(drift, driftCheck());
  return { file, drift, names, dir };
}

const schema = JSON.parse(fs.readFileSync(path.join(root, 'cli', 'results', 'result.schema.json'), 'utf8'));
const union = (values) => values.map((v) => JSON.stringify(v)).join(' | ');
const keysObject = (names) => `{ ${names.map((n) => `${JSON.stringify(n)}: true`).join(', ')} }`;

// What a run option's value is in TypeScript, from its row in RUN_OPTIONS.
function optionType(option) {
  if (option.type === 'boolean') return 'boolean';
  if (option.type === 'string') return option.values ? union(option.values) : 'string';
  return 'number';
}

// Every field a matrix file can hold, parsed as loadMatrix parses it: the values a Matrix must take.
const FULL_MATRIX = `runtimes: [16, {spec: 14, label: old, provider: nvm}]
flagSets: {baseline: [], young: {flags: [--max-semi-space-size=64], suites: [gc]}}
suites: [gc, {name: promises, benchmarks: [chain-native], params: {n: 1}}]
commands: [{name: build, run: [npm, run, build], env: {A: 1}, warmup: 1}]
run: {processes: 2, pairing: duet}
`;

// Each check is a constant whose declared type is its own name when the .d.ts agrees with the
// source, and an object naming the difference when it does not, so that tsc's message says what
// drifted: "Type '"RunOptions.pairing"' is not assignable to type '{ differs: ...; declared: ...;
// expected: ... }'". Key lists are object literals: a name the .d.ts lacks is an excess property,
// a name it has that the source lacks a missing one.
function driftCheck() {
  const cell = schema.definitions.cell;
  const summary = schema.definitions.summary;
  const parsed = parseMatrix(FULL_MATRIX, path.join(root, 'inline.yaml'));
  // baseDir and shard are not in a matrix file: runMatrix and the CLI (--shard) add them.
  const matrixKeys = [...Object.keys(parsed), 'baseDir', 'shard'];
  // What compare and pairedRatio return, with the host-shift field they add when the host ran at
  // another speed for B's processes than for A's,
  const [a, b] = [okCell('x'), okCell('x', 'ok', { runtimeLabel: '18' })];
  const hostShift = Math.log(1.5);
  // and the flag of a side whose processes all ran on a disturbed machine.
  const disturbed = { ...b, processes: b.processes.map((p) => ({ ...p, setAside: { reason: 'the host was slow' } })) };
  const compared = Object.keys({ ...compare(a, b), ...compare(a, b, { hostShift }), ...compare(a, disturbed) });
  // and the ratio over all processes where a side kept half of them or fewer (the others slower, set aside).
  const selected = { ...b, processes: [...b.processes, ...b.processes.map((p) => ({ ...p, samplesNsPerOp: p.samplesNsPerOp.map((v) => v * 3), setAside: { reason: 'the host was slow' } }))] };
  const paired = Object.keys({ ...pairedRatio(a, b), ...pairedRatio(a, b, null, { hostShift }), ...pairedRatio(a, selected) });
  const same = (declared, expected, name) => `export const ${name.replace(/\W/g, '_')}: Same<${declared}, ${expected}, ${JSON.stringify(name)}> = ${JSON.stringify(name)};`;
  const within = (keys, known, rule) => `export const ${rule.replace(/\W+/g, '_')}: Within<${keys}, ${known}, ${JSON.stringify(rule)}> = ${JSON.stringify(rule)};`;
  return [
    "import type { RunOptions, Verdict, Cell, Result, Summary, Matrix, Comparison } from 'nodebench';",
    "import { DEFAULT_RUN, pairedRatio } from 'nodebench';",
    'type Same<Declared, Expected, Name extends string> = [Declared] extends [Expected] ? ([Expected] extends [Declared] ? Name : { differs: Name; declared: Declared; expected: Expected }) : { differs: Name; declared: Declared; expected: Expected };',
    'type Within<Keys, Known, Rule extends string> = [Exclude<Keys, Known>] extends [never] ? Rule : { rule: Rule; offending: Exclude<Keys, Known> };',
    '// The named keys of a type, without an index signature\'s string.',
    'type Named<T> = keyof { [K in keyof T as string extends K ? never : K]: T[K] };',
    'type RequiredKeys<T> = { [K in Named<T>]-?: {} extends Pick<T, K> ? never : K }[Named<T>];',
    '// cli/options.js RUN_OPTIONS: every run option, each with its type; DEFAULT_RUN: those with a default.',
    `export const runOptions: { [name in keyof RunOptions]-?: true } = ${keysObject(RUN_OPTIONS.map((o) => o.name))};`,
    ...RUN_OPTIONS.map((o) => same(`NonNullable<RunOptions[${JSON.stringify(o.name)}]>`, optionType(o), `RunOptions.${o.name}`)),
    `export const defaultRun: { [name in keyof typeof DEFAULT_RUN]-?: true } = ${keysObject(Object.keys(DEFAULT_RUN))};`,
    '// stats/decision.js DECISIONS.',
    `export const verdicts: { [verdict in Verdict]: true } = ${keysObject(DECISIONS)};`,
    '// stats/compare.js: what compare and pairedRatio return.',
    `export const comparison: { [name in keyof Comparison]-?: true } = ${keysObject(compared)};`,
    `export const pairedRatioKeys: { [name in keyof ReturnType<typeof pairedRatio>]-?: true } = ${keysObject(paired)};`,
    '// matrix/load.js: what it returns, and the values of a matrix file that uses every field.',
    `export const matrixKeys: { [name in keyof Matrix]-?: true } = ${keysObject(matrixKeys)};`,
    `export const parsedMatrix: Matrix = ${JSON.stringify(parsed)};`,
    '// results/result.schema.json: the words a status or unit may be; every declared field is one the',
    '// schema describes, and a field the schema requires is not optional in the type.',
    same("Cell['status']", union(cell.properties.status.enum), 'Cell.status'),
    same("Result['status']", union(schema.properties.status.enum), 'Result.status'),
    same("Summary['unit']", union(summary.properties.unit.enum), 'Summary.unit'),
    within('Named<Cell>', union(Object.keys(cell.properties)), 'Cell declares only fields of the schema\'s cell'),
    within(`Extract<${union(cell.required)}, Named<Cell>>`, 'RequiredKeys<Cell>', 'Cell requires what the schema requires'),
    within('Named<Summary>', union(Object.keys(summary.properties)), 'Summary declares only fields of the schema\'s summary'),
    within(`Extract<${union(summary.required)}, Named<Summary>>`, 'RequiredKeys<Summary>', 'Summary requires what the schema requires'),
    within('Named<Result>', union(Object.keys(schema.properties)), 'Result declares only fields of the schema'),
    within(`Extract<${union(schema.required)}, Named<Result>>`, 'RequiredKeys<Result>', 'Result requires what the schema requires'),
    ''
  ].join('\n');
}

test('docs/api.md\'s example is the start of the consumer file, verbatim', () => {
  const example = fs.readFileSync(path.join(root, 'docs', 'api.md'), 'utf8').split('```ts\n')[1]?.split('```')[0];
  assert.ok(example, 'docs/api.md has a ```ts example');
  assert.ok(fs.readFileSync(consumer, 'utf8').includes(example), 'copy docs/api.md\'s example into test/fixtures/api-consumer.ts');
});

test('cli/api.d.ts type-checks the documented use of every export, declares exactly what api.js exports, and says what options.js, decision.js, matrix/load.js and the schema say', { timeout: 120_000 }, async () => {
  const { file, drift, names, dir } = await exportsCheck();
  try {
    assert.ok(names.includes('runMatrix') && names.includes('loadResult') && names.includes('compare'));
    const { file: command, args } = tsc();
    const run = await execa(command, [...args, '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', consumer, file, drift], { reject: false, cwd: root, stdin: 'ignore' });
    assert.equal(run.exitCode, 0, `tsc found the types and the API apart:\n${run.stdout}${run.stderr}`);
  } finally {
    // Removes the link to the package, not the package.
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
