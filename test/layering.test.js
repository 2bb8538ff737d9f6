// The house rules that review used to keep (docs/architecture.md, "Rules a contributor must know"),
// checked on every file's imports and text, so that they stop depending on review:
//   - the runtime side (worker/, suites/) never loads anything from cli/;
//   - nothing imports a command file (cli/commands/) but cli/nodebench.js;
//   - stats/ never imports a view or the rendering kit, and the kit (cli/render/) never imports a view;
//   - the runner in two rooms: the policy (cli/policy/: what runs next) reaches the launching side
//     only through the launcher's interface (cli/runner/launcher.js), never cli/process/ or another
//     runner/ file; the launching side (cli/runner/, cli/process/) never imports the policy; and
//     cli/process/ (how any process is owned) never imports cli/runner/ (what a cell's process is);
//   - only cli/output/emit.js writes to stdout: every command prints through emit;
//   - a cell's identity is never spelled by hand (cli/cell-identity.js has columnKey, rowKey,
//     benchmarkName, cellKey);
//   - one list of verdicts (stats/decision.js DECISIONS): the API's Verdict type and the marks say
//     the same words, and no other file spells the list;
//   - cli/ loads from the runtime side only worker/protocol.js, the messages between them;
//   - processes are started in cli/process/ (execa only in process/spawn.js), but for the few
//     named below, which docs/architecture.md names too.
// Each rule is also run on planted violations, so that a rule that can no longer fail is seen.
// docs/architecture.md is held to the tree too: every path it names exists, its picture of the
// layers has a level for every room of cli/, and every import runs down that picture.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { root } from './helpers/cli.js';
import { DECISIONS } from '../cli/stats/decision.js';
import { VERDICT_MARKS } from '../cli/render/marks.js';

const SOURCE = /\.(c|m)?js$/;

function filesUnder(dir) {
  const out = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...filesUnder(rel));
    else if (SOURCE.test(entry.name)) out.push({ path: rel, text: fs.readFileSync(path.join(root, rel), 'utf8') });
  }
  return out;
}

// Every module a file names: import/export ... from, import(), require(); relative ones resolved
// to a path from the project's root ('cli/stats/basic.js'), packages as named ('chart.js').
const SPECIFIERS = [/\b(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g, /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g, /\bcreateRequire\([^)]*\)\(\s*['"]([^'"]+)['"]\s*\)/g];
function importsOf(file) {
  const names = new Set();
  for (const pattern of SPECIFIERS) for (const match of file.text.matchAll(pattern)) names.add(match[1]);
  return [...names].map((name) => (name.startsWith('.') ? path.posix.normalize(path.posix.join(path.posix.dirname(file.path), name)) : name));
}

// A process started outside cli/process/ (docs/architecture.md, rule 5): the command probe, itself a
// spawned and owned process, starts the user's command; doctor --full runs bench/harness.js with
// its stdout inherited (execa); a service run pins nodebench's own pid with taskset.
const PROCESS_MODULES = new Set(['child_process', 'node:child_process', 'execa']);
const STARTS_ELSEWHERE = new Set(['cli/runner/command-probe.js', 'cli/commands/doctor.js', 'cli/runner/service-process.js']);

const VIEWS = ['cli/report/', 'cli/render/', 'cli/diff/', 'cli/history/', 'cli/explain/', 'cli/output/', 'cli/commands/'];
const IMPORT_RULES = [
  { name: 'the runtime side never loads cli/', from: (p) => /^(worker|suites)\//.test(p), to: (t) => t.startsWith('cli/') },
  { name: 'only cli/nodebench.js imports a command file', from: (p) => p !== 'cli/nodebench.js', to: (t) => t.startsWith('cli/commands/') },
  { name: 'stats/ never imports a view or the rendering kit', from: (p) => p.startsWith('cli/stats/'), to: (t) => VIEWS.some((v) => t.startsWith(v)) },
  { name: 'the rendering kit never imports a view', from: (p) => p.startsWith('cli/render/'), to: (t) => VIEWS.filter((v) => v !== 'cli/render/').some((v) => t.startsWith(v)) },
  { name: 'the policy reaches launching only through runner/launcher.js', from: (p) => p.startsWith('cli/policy/'), to: (t) => t.startsWith('cli/process/') || (t.startsWith('cli/runner/') && t !== 'cli/runner/launcher.js') },
  { name: 'launching never imports the policy', from: (p) => /^cli\/(runner|process)\//.test(p), to: (t) => t.startsWith('cli/policy/') },
  { name: 'process/ never imports runner/', from: (p) => p.startsWith('cli/process/'), to: (t) => t.startsWith('cli/runner/') },
  { name: 'cli/ loads from the runtime side only worker/protocol.js', from: (p) => p.startsWith('cli/'), to: (t) => /^(worker|suites)\//.test(t) && t !== 'worker/protocol.js' },
  { name: 'processes are started in cli/process/', from: (p) => p.startsWith('cli/') && !p.startsWith('cli/process/') && !STARTS_ELSEWHERE.has(p), to: (t) => PROCESS_MODULES.has(t) },
  { name: 'execa only in cli/process/spawn.js', from: (p) => p.startsWith('cli/') && p !== 'cli/process/spawn.js' && p !== 'cli/commands/doctor.js', to: (t) => t === 'execa' }
];

// Text that only cell-identity.js may hold: a column key, a row key or a benchmark name by hand,
// or a diff row's suite read back out of its label.
const HAND_KEYS = [
  { name: 'suite/benchmark by hand (benchmarkName)', pattern: /\$\{[\w.?]*suite\}\/\$\{/ },
  { name: 'runtimeLabel/flagSet by hand (columnKey)', pattern: /runtimeLabel\}\/\$\{/ },
  { name: 'a row key by hand (rowKey)', pattern: /suite\}(\\u0000|\\0)\$\{/ },
  { name: 'a suite read back out of a label', pattern: /label\.split\(\s*['"]\/['"]\s*\)/ }
];

// A write to stdout outside a string (a probe script handed to a binary is a string).
const STDOUT_WRITE = /^[^'"`]*\bprocess\.stdout\.write\(/m;
const VERDICT_LIST = /\[\s*'faster',\s*'slower',\s*'same',\s*'undecided'\s*\]/;

function violations(files) {
  const found = [];
  for (const file of files) {
    const targets = importsOf(file);
    for (const rule of IMPORT_RULES) {
      if (!rule.from(file.path)) continue;
      for (const target of targets.filter(rule.to)) found.push(`${rule.name}: ${file.path} imports ${target}`);
    }
    if (!file.path.startsWith('cli/')) continue;
    if (file.path !== 'cli/output/emit.js' && STDOUT_WRITE.test(file.text)) found.push(`only output/emit.js writes to stdout: ${file.path} does`);
    if (file.path !== 'cli/stats/decision.js' && VERDICT_LIST.test(file.text)) found.push(`one verdict list (stats/decision.js DECISIONS): ${file.path} spells it again`);
    if (file.path === 'cli/cell-identity.js') continue;
    for (const { name, pattern } of HAND_KEYS) if (pattern.test(file.text)) found.push(`${name}: ${file.path}`);
  }
  return found;
}

// This file is left out: its planted violations are strings.
const tree = () => ['cli', 'worker', 'suites', 'bench', 'test'].flatMap(filesUnder).filter((f) => !f.path.startsWith('test/fixtures/') && f.path !== 'test/layering.test.js');

test('the house keeps its layers: no import against the rules, no stdout but emit\'s, no cell key by hand', () => {
  const files = tree();
  assert.ok(files.some((f) => f.path === 'cli/nodebench.js') && files.some((f) => f.path.startsWith('worker/')), 'the tree was read');
  assert.deepEqual(violations(files), []);
});

test('each rule fails on a planted violation', () => {
  const planted = [
    { path: 'worker/sampler.js', text: "var format = require('../cli/text/format.js');" },
    { path: 'cli/diff/compare.js', text: "import { register } from '../commands/report.js';" },
    { path: 'bench/x.js', text: "const m = await import('../cli/commands/diff.js');" },
    { path: 'cli/stats/compare.js', text: "import { formatRatio } from '../render/overview.js';" },
    { path: 'cli/render/overview.js', text: "export { renderTables } from '../report/suite-tables.js';" },
    { path: 'cli/commands/flags.js', text: "process.stdout.write('x\\n');" },
    { path: 'cli/report/changes.js', text: 'const name = `${c.suite}/${c.benchmark}`;' },
    { path: 'cli/report/html.js', text: 'const key = `${cell.runtimeLabel}/${cell.flagSet}`;' },
    { path: 'cli/diff/html.js', text: 'const row = `${r.a.suite}\\u0000${r.a.benchmark}`; const suite = r.label.split(\'/\')[0];' },
    { path: 'cli/render/marks.js', text: "export const VERDICTS = ['faster', 'slower', 'same', 'undecided'];" },
    { path: 'cli/policy/run-loop.js', text: "import { createProcessLauncher } from '../runner/launcher.js';\nimport { killAllGroups } from '../process/groups.js';\nimport { interpretLaunch } from '../runner/outcome.js';" },
    { path: 'cli/runner/service.js', text: "import { hasSlot } from '../policy/pairing.js';" },
    { path: 'cli/process/spawn.js', text: "import { suiteSampler } from '../runner/launcher.js';" },
    { path: 'cli/results/read.js', text: "const loader = createRequire(import.meta.url)('../../worker/suite-loader.js');" },
    { path: 'cli/explain/inspect-port.js', text: "import { spawn } from 'node:child_process';\nimport { execa } from 'execa';" }
  ];
  const found = violations(planted);
  const expected = [
    'the runtime side never loads cli/: worker/sampler.js imports cli/text/format.js',
    'only cli/nodebench.js imports a command file: cli/diff/compare.js imports cli/commands/report.js',
    'only cli/nodebench.js imports a command file: bench/x.js imports cli/commands/diff.js',
    'stats/ never imports a view or the rendering kit: cli/stats/compare.js imports cli/render/overview.js',
    'the rendering kit never imports a view: cli/render/overview.js imports cli/report/suite-tables.js',
    'only output/emit.js writes to stdout: cli/commands/flags.js does',
    'suite/benchmark by hand (benchmarkName): cli/report/changes.js',
    'runtimeLabel/flagSet by hand (columnKey): cli/report/html.js',
    'a row key by hand (rowKey): cli/diff/html.js',
    'a suite read back out of a label: cli/diff/html.js',
    'one verdict list (stats/decision.js DECISIONS): cli/render/marks.js spells it again',
    'the policy reaches launching only through runner/launcher.js: cli/policy/run-loop.js imports cli/process/groups.js',
    'the policy reaches launching only through runner/launcher.js: cli/policy/run-loop.js imports cli/runner/outcome.js',
    'launching never imports the policy: cli/runner/service.js imports cli/policy/pairing.js',
    'process/ never imports runner/: cli/process/spawn.js imports cli/runner/launcher.js',
    'cli/ loads from the runtime side only worker/protocol.js: cli/results/read.js imports worker/suite-loader.js',
    'processes are started in cli/process/: cli/explain/inspect-port.js imports node:child_process',
    'processes are started in cli/process/: cli/explain/inspect-port.js imports execa',
    'execa only in cli/process/spawn.js: cli/explain/inspect-port.js imports execa'
  ];
  assert.deepEqual(found.sort(), expected.sort());
  // A probe script handed to a binary is a string, not a write of nodebench's.
  assert.deepEqual(violations([{ path: 'cli/runtimes/binary.js', text: "const PROBE = 'process.stdout.write(\"running\\\\n\")';" }]), []);
});

test('one list of verdicts: the API\'s Verdict type and the marks say stats/decision.js\'s words', () => {
  const declared = fs.readFileSync(path.join(root, 'cli', 'api.d.ts'), 'utf8').match(/export type Verdict = ([^;]+);/);
  assert.ok(declared, 'cli/api.d.ts declares type Verdict');
  assert.deepEqual([...declared[1].matchAll(/'([a-z]+)'/g)].map((m) => m[1]).sort(), [...DECISIONS].sort());
  assert.deepEqual(Object.keys(VERDICT_MARKS).sort(), [...DECISIONS].sort());
});

// docs/architecture.md, held to the tree: what it names exists, and its picture of the layers is
// the import graph's. A room is a folder of cli/ or a file directly in it, and bench/ (its entry
// scripts and lib/, not its fixtures).
const ARCHITECTURE = fs.readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8');

function roomOf(file) {
  if (file.startsWith('bench/')) return 'bench/';
  const parts = file.split('/');
  return parts[0] !== 'cli' ? null : parts.length > 2 ? `cli/${parts[1]}/` : file;
}

// The picture's rows: ` 11 │ cli/diff/  cli/bisect/ │ ...`, a row without a level continuing the one above.
export function pictureLevels(text) {
  const levels = new Map();
  let level = null;
  for (const line of text.split('\n')) {
    const row = /^\s*(\d+|)\s*│([^│]*)│/.exec(line);
    if (!row) continue;
    if (row[1]) level = Number(row[1]);
    if (level === null) continue;
    for (const room of row[2].trim().split(/\s+/).filter(Boolean)) levels.set(room, [...(levels.get(room) || []), level]);
  }
  return levels;
}

// What the picture gets wrong against the files: a room drawn twice, a room of the tree not drawn,
// a drawn room that is gone, an import on the same level or up.
export function pictureProblems(levels, files) {
  const problems = [];
  for (const [room, at] of levels) if (at.length > 1) problems.push(`${room} is drawn on levels ${at.join(', ')}`);
  const rooms = new Set(files.map((f) => roomOf(f.path)).filter(Boolean));
  for (const room of rooms) if (!levels.has(room)) problems.push(`${room} is on no level of the picture`);
  for (const room of levels.keys()) if (!rooms.has(room)) problems.push(`${room} is drawn but is no room of the tree`);
  for (const file of files) {
    const from = roomOf(file.path);
    for (const target of importsOf(file)) {
      const to = roomOf(target);
      if (!from || !to || from === to || !levels.has(from) || !levels.has(to)) continue;
      const [a, b] = [levels.get(from)[0], levels.get(to)[0]];
      if (a <= b) problems.push(`${file.path} (level ${a}) imports ${target} (level ${b}): an import must go down the picture`);
    }
  }
  return problems;
}

test('docs/architecture.md names only paths that exist', () => {
  const named = new Set(ARCHITECTURE.match(/(?<![\w./-])(?:cli|worker|suites|bench|test|docs|examples)\/[\w./-]*[\w/]/g));
  assert.ok(named.size > 50, `the doc names paths (${named.size} found)`);
  const missing = [...named].filter((name) => !fs.existsSync(path.join(root, name)));
  assert.deepEqual(missing, [], 'paths named in docs/architecture.md that do not exist');
  // A file named by itself (`service.js`, `formats.js`) beside the folder its row names: some file of the tree bears the name.
  const basenames = new Set(['cli', 'worker', 'suites', 'bench'].flatMap(filesUnder).map((f) => path.posix.basename(f.path)));
  const bare = [...ARCHITECTURE.matchAll(/`([\w-]+\.(?:c|m)?js)`/g)].map((m) => m[1]);
  assert.deepEqual(bare.filter((name) => !basenames.has(name)), [], 'file names in docs/architecture.md that no file bears');
});

test('docs/architecture.md\'s picture of the layers is the imports\': every room on one level, every import going down', () => {
  const files = ['cli', 'bench'].flatMap(filesUnder).filter((f) => !f.path.startsWith('bench/fixtures/'));
  const levels = pictureLevels(ARCHITECTURE);
  assert.ok(levels.has('cli/nodebench.js') && levels.has('cli/errors.js'), 'the picture was read');
  assert.deepEqual(pictureProblems(levels, files), []);
  // The check can fail: a room left out, one drawn twice, an import up, one across a level.
  const planted = new Map([...levels].filter(([room]) => room !== 'cli/threshold.js'));
  planted.set('cli/paths.js', [1, 2]);
  assert.deepEqual(pictureProblems(planted, [
    ...files,
    { path: 'cli/stats/basic.js', text: "import { emit } from '../output/emit.js';\nimport { renderJson } from '../render/json.js';" }
  ]).sort(), [
    'cli/paths.js is drawn on levels 1, 2',
    'cli/stats/basic.js (level 3) imports cli/output/emit.js (level 3): an import must go down the picture',
    'cli/stats/basic.js (level 3) imports cli/render/json.js (level 5): an import must go down the picture',
    'cli/threshold.js is on no level of the picture'
  ]);
});
