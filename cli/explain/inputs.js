// What explain compares: two sides (runtime binary and flags) and one benchmark of one suite file,
// from a result file's columns or, with --suite and no result file, from runtime/flags specs.
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { UserError } from '../errors.js';
import { readResult } from '../results/file.js';
import { columnsOf, benchmarkName, inColumn, lookupColumn, ambiguousColumn } from '../cell-identity.js';
import { ensureRuntime } from '../runtimes/index.js';
import { parseKnownRuntimeSpec } from '../runtimes/spec.js';
import { rerunSpec, namedBinaries } from '../runtimes/recorded.js';
import { describeSuite, checkRegularFile } from '../matrix/discover-suites.js';
import { unsupportedReason } from '../matrix/plan.js';
import { displayName } from '../text/format.js';

// "16.20.2/baseline", "16.20.2/--max-semi-space-size=64 --no-opt", "16", "/path/to/node/baseline":
// the runtime spec up to the first "/--" or a final "/baseline" (a path runtime has slashes of its own).
export function parseSideSpec(text, option) {
  const m = /^(.*?)(?:\/(baseline|--.*))?$/s.exec(String(text).trim());
  const runtime = m[1];
  const flags = !m[2] || m[2] === 'baseline' ? [] : m[2].split(/\s+/).filter(Boolean);
  const bad = flags.find((f) => !f.startsWith('--'));
  const strayPath = runtime.includes('/') && !/^(\/|\.\.?\/|~)/.test(runtime);
  if (!runtime || bad || strayPath) throw new UserError(`${option} "${text}" is not RUNTIME or RUNTIME/FLAGS; write it like 16.20.2/baseline or "16.20.2/--max-semi-space-size=64".`);
  return { runtime, flags, flagSet: flags.length ? flags.join(' ') : 'baseline' };
}

function findBenchmark(names, wanted, where) {
  if (names.includes(wanted)) return wanted;
  const bare = names.filter((n) => n.slice(n.indexOf('/') + 1) === wanted || n.endsWith(`/${wanted}`));
  if (bare.length === 1) return bare[0];
  const shown = names.length > 12 ? `${names.slice(0, 12).map(displayName).join(', ')} and ${names.length - 12} more` : names.map(displayName).join(', ');
  throw new UserError(`Benchmark "${displayName(wanted)}" is not in ${where}; give SUITE/BENCHMARK as one of ${shown}.`);
}

// As run and matrix check theirs: a device, a FIFO or a link to one is refused before it is read
// (a read of /dev/zero or of a FIFO never ends).
function checkSuiteFile(file, how, given = file) {
  if (!file || !fs.existsSync(file)) throw new UserError(`Suite file ${file} is not on this machine; ${how}.`);
  checkRegularFile(file, given);
}

function findColumn(result, file, name, option) {
  const columns = columnsOf(result);
  // As diff names them: the key, the runtime's label or version, or its major where one runtime has it.
  const { column: found, candidates } = lookupColumn(columns, name);
  if (candidates) throw new UserError(ambiguousColumn(displayName(name), `${file} (${option})`, candidates));
  if (!found) throw new UserError(`Column "${displayName(name)}" (${option}) is not in ${file}; it has ${columns.map((c) => displayName(c.key)).join(', ')}.`);
  return found;
}

const sameSuite = (x, y) => x.file === y.file && isDeepStrictEqual(x.params || {}, y.params || {});

// One result file (both columns in it) or two (--from's column in the first, --to's in the second,
// as diff A.json B.json): explain re-runs runtimes and flag sets, so both sides run one suite file.
async function fromResults(opts, log) {
  const files = { a: opts.resultFile, b: opts.resultFileB || opts.resultFile };
  const results = { a: await readResult(files.a) };
  results.b = files.b === files.a ? results.a : await readResult(files.b);
  const cols = { a: findColumn(results.a, files.a, opts.from, '--from'), b: findColumn(results.b, files.b, opts.to, '--to') };
  const names = [...new Set([...results.a.cells, ...results.b.cells].map(benchmarkName))];
  const chosen = findBenchmark(names, opts.benchmark, files.a === files.b ? files.a : `${files.a} or ${files.b}`);
  const cells = Object.fromEntries(['a', 'b'].map((id) => [id, results[id].cells.find((c) => benchmarkName(c) === chosen && inColumn(c, cols[id]))]));
  const suiteName = (cells.a || cells.b).suite;
  const recorded = Object.fromEntries(['a', 'b'].map((id) => [id, results[id].suites.find((s) => s.name === suiteName)]));
  const suite = recorded.b || recorded.a;
  if (!suite) throw new UserError(`${files.b} does not describe suite "${displayName(suiteName)}"; give its file with --suite FILE.`);
  if (suite.kind === 'command') throw new UserError(`"${displayName(chosen)}" is a whole command, which explain cannot profile function by function; explain a micro-benchmark (a suite file's benchmark).`);
  if (!opts.suite && recorded.a && recorded.b && !sameSuite(recorded.a, recorded.b)) {
    throw new UserError(`The two result files ran suite "${displayName(suiteName)}" from different files or with different parameters; explain re-runs runtimes and flag sets of one suite, so give the file to run on both sides with --suite FILE.`);
  }
  const file = opts.suite ? path.resolve(opts.suite) : suite.file;
  checkSuiteFile(file, 'give its file with --suite FILE');
  // What the files name is found again here, never run from where they say (runtimes/recorded.js).
  const named = namedBinaries(opts.nodes || [], { log });
  const side = async (id) => {
    const [col, cell, result] = [cols[id], cells[id], results[id]];
    const flagSet = result.flagSets.find((f) => f.name === col.flagSet);
    const recordedRuntime = result.runtimes.find((r) => r.label === col.runtimeLabel);
    if (!recordedRuntime) throw new UserError(`${files[id]} has no runtime labelled "${col.runtimeLabel}" in runtimes, though its cells name it; pass a result file written by nodebench.`);
    const runtime = await ensureRuntime(await rerunSpec(recordedRuntime, { file: files[id], named, log }), { log });
    return {
      id, column: col.key, flagSet: col.flagSet, flags: cell?.flags || flagSet?.flags || [],
      runtime: { ...runtime, label: col.runtimeLabel },
      timing: cell?.status === 'ok' ? { nsPerOp: cell.summary.estimate, low: cell.summary.ci?.low ?? null, high: cell.summary.ci?.high ?? null, processes: cell.summary.processes } : null,
      skipped: cell && cell.status === 'unsupported' ? cell.error : null
    };
  };
  return {
    source: files.a === files.b ? { resultFile: files.a } : { resultFiles: [files.a, files.b] },
    target: {
      suite: { name: suiteName, file, params: suite.params || {}, sampler: suite.sampler },
      benchmark: chosen.slice(suiteName.length + 1),
      benchmarkInfo: (suite.benchmarks || []).find((b) => `${suiteName}/${b.name}` === chosen) || null
    },
    sides: [await side('a'), await side('b')],
    run: results.b.run
  };
}

async function fromSuite(opts, log, timeoutMs) {
  const file = path.resolve(opts.suite);
  checkSuiteFile(file, 'check the path given to --suite', opts.suite);
  const described = await describeSuite(file, { timeoutSec: timeoutMs / 1000 });
  const names = described.benchmarks.map((b) => `${described.name}/${b.name}`);
  const chosen = findBenchmark(names, opts.benchmark, file);
  const benchmarkInfo = described.benchmarks.find((b) => `${described.name}/${b.name}` === chosen);
  const specs = [parseSideSpec(opts.from, '--from'), parseSideSpec(opts.to, '--to')];
  for (const spec of specs) parseKnownRuntimeSpec(spec.runtime);
  const sides = [];
  for (const [i, spec] of specs.entries()) {
    const runtime = await ensureRuntime(spec.runtime, { log });
    sides.push({
      id: i === 0 ? 'a' : 'b', column: `${runtime.version}/${spec.flagSet}`, flagSet: spec.flagSet, flags: spec.flags,
      runtime: { ...runtime, label: runtime.version }, timing: null,
      skipped: unsupportedReason(runtime.version, described, benchmarkInfo) || null
    });
  }
  return {
    source: { suiteFile: file },
    target: { suite: { name: described.name, file, params: described.params || {}, sampler: described.sampler }, benchmark: benchmarkInfo.name, benchmarkInfo },
    sides,
    run: null
  };
}

// opts: { resultFile?, resultFileB? (--to's column, as diff's B), suite?, from, to, benchmark,
// nodes? (binaries the user names for the files' path runtimes, --node) }; timeoutMs: the limit
// of each process, the one that describes the suite included.
export async function resolveInputs(opts, { log = () => {}, timeoutMs } = {}) {
  if (!opts.from || !opts.to) throw new UserError('Give both --from and --to, e.g. --from 14.21.3/baseline --to 16.20.2/baseline.');
  if (!opts.benchmark) throw new UserError('Give the benchmark to explain with --benchmark SUITE/BENCHMARK, e.g. --benchmark promises/chain-native.');
  if (!opts.resultFile && !opts.suite) throw new UserError('Give a result file (explain R.json --from ... --to ...) or a suite file with --suite FILE.');
  if (!opts.resultFile && opts.nodes?.length) throw new UserError('--node names binaries for the path runtimes of a result file; without one, give the runtimes in --from and --to (e.g. --from ./node/baseline).');
  return opts.resultFile ? fromResults(opts, log) : fromSuite(opts, log, timeoutMs);
}
