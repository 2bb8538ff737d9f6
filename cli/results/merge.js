// Joining the result files of a sharded run (nodebench matrix --shard i/n on several runners) into
// one. Shards must come from the same matrix: the same runtime versions, flag sets, suite
// parameters and run options, and together every shard of it (--allow-partial to join fewer).
// A benchmark's row must come from one machine, or its ratios would compare machines, not runtimes;
// that holds for time only. Instruction counts do not depend on the host (processes of different
// machines agree to parts per million, docs/instructions.md), so shards counted on any runners
// merge and compare, which is what makes `--shard auto` honest in instruction mode. A time shard
// and a count shard never merge: their values are of different units.
import { isDeepStrictEqual } from 'node:util';
import { UserError } from '../errors.js';
import { cellKey, rowKey, columnKey, benchmarkName } from '../cell-identity.js';
import { displayName } from '../text/format.js';
import { measureOfResult } from '../measure.js';

const runtimeKey = (r) => r.runtimes.map((x) => `${x.label}=${x.version}`).join(',');
const flagKey = (r) => r.flagSets.map((f) => `${f.name}=${f.flags.join(' ')}${f.suites ? ` for ${f.suites.join('+')}` : ''}`).join(',');
// The seed only orders the launches; every other run option changes what is measured.
const measuredOptions = (run) => {
  const { seed, ...rest } = run || {};
  return rest;
};

function checkSameMatrix(results, files) {
  const [first] = results;
  const suiteParams = new Map();
  results.forEach((r, i) => {
    // Before the run options, whose list of differences would bury the one that matters.
    const [measureA, measureB] = [measureOfResult(first), measureOfResult(r)];
    if (measureA !== measureB) {
      throw new UserError(`${files[i]} measured ${measureB.id} (${measureB.unit}) but ${files[0]} measured ${measureA.id} (${measureA.unit}); merge only shards of one measure (run every shard with --measure ${measureA.id}).`);
    }
    if (runtimeKey(r) !== runtimeKey(first)) {
      throw new UserError(`${files[i]} has runtimes ${runtimeKey(r)} but ${files[0]} has ${runtimeKey(first)}; merge only shards of one matrix (pin exact versions in matrix.yaml so every runner resolves the same).`);
    }
    // Counts are of one binary's instructions: the same version built for another architecture (or
    // another build of it) runs other instructions, whatever host counted them.
    const build = measureA.id === 'instructions' && r.runtimes.find((x, k) => x.arch !== first.runtimes[k].arch || x.sha256 !== first.runtimes[k].sha256);
    if (build) {
      const k = r.runtimes.indexOf(build);
      throw new UserError(`${files[i]} counted Node ${build.version} built for ${build.arch} (sha256 ${String(build.sha256).slice(0, 12)}…) but ${files[0]} counted ${first.runtimes[k].arch} (sha256 ${String(first.runtimes[k].sha256).slice(0, 12)}…); instruction counts of different binaries do not pool: merge shards that ran the same binaries (one architecture).`);
    }
    if (flagKey(r) !== flagKey(first)) throw new UserError(`${files[i]} has different flag sets from ${files[0]}; merge only shards of one matrix.`);
    const runA = measuredOptions(first.run);
    const runB = measuredOptions(r.run);
    const differing = [...new Set([...Object.keys(runA), ...Object.keys(runB)])].filter((k) => !isDeepStrictEqual(runA[k], runB[k]));
    if (differing.length) {
      throw new UserError(`${files[i]} was run with different options from ${files[0]} (${differing.map((k) => `${k}: ${JSON.stringify(runB[k])} vs ${JSON.stringify(runA[k])}`).join(', ')}); merge only shards run with the same options.`);
    }
    for (const suite of r.suites) {
      const seen = suiteParams.get(suite.name);
      if (!seen) suiteParams.set(suite.name, { params: suite.params, file: files[i] });
      else if (!isDeepStrictEqual(seen.params, suite.params)) {
        throw new UserError(`Suite ${suite.name} has parameters ${JSON.stringify(suite.params)} in ${files[i]} but ${JSON.stringify(seen.params)} in ${seen.file}; merge only shards run with the same parameters.`);
      }
    }
  });
}

function checkShardSet(results, files, { allowPartial }) {
  const unsharded = results.findIndex((r) => !r.shard);
  if (unsharded >= 0) {
    if (allowPartial) return;
    throw new UserError(`${files[unsharded]} is not a shard (it was not run with --shard); merge the files of one sharded run, or pass --allow-partial to join other files.`);
  }
  const count = results[0].shard.count;
  const odd = results.findIndex((r) => r.shard.count !== count);
  if (odd >= 0) throw new UserError(`${files[odd]} is shard ${results[odd].shard.index}/${results[odd].shard.count} but ${files[0]} is one of ${count}; merge the shards of one run.`);
  const byIndex = new Map();
  results.forEach((r, i) => {
    if (byIndex.has(r.shard.index)) throw new UserError(`${files[byIndex.get(r.shard.index)]} and ${files[i]} are both shard ${r.shard.index}/${count}; merge each shard once.`);
    byIndex.set(r.shard.index, i);
  });
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length && !allowPartial) {
    throw new UserError(`Shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing; give every shard's file, or pass --allow-partial to merge an incomplete run.`);
  }
}

export function mergeResults(results, files, { allowPartial = false } = {}) {
  checkSameMatrix(results, files);
  checkShardSet(results, files, { allowPartial });
  const counted = measureOfResult(results[0]).id === 'instructions';
  const seen = new Map();
  const rowFile = new Map();
  const cells = [];
  results.forEach((r, i) => {
    for (const cell of r.cells) {
      const key = cellKey(cell);
      if (seen.has(key)) throw new UserError(`${displayName(benchmarkName(cell))} on ${displayName(columnKey(cell))} is in both ${files[seen.get(key)]} and ${files[i]}; merge each shard once.`);
      seen.set(key, i);
      const other = rowFile.get(rowKey(cell));
      if (!counted && other !== undefined && results[other].host.hostname !== r.host.hostname) {
        throw new UserError(`${displayName(benchmarkName(cell))} has cells from host ${results[other].host.hostname} (${files[other]}) and host ${r.host.hostname} (${files[i]}); a benchmark's columns must be timed on one machine, so rerun it there, or count instructions (--measure instructions), which no host moves.`);
      }
      rowFile.set(rowKey(cell), i);
      cells.push({ ...cell, id: cells.length, host: r.host.hostname });
    }
  });
  const suites = new Map();
  for (const r of results) for (const s of r.suites) if (!suites.has(s.name)) suites.set(s.name, s);
  const [first] = results;
  return {
    ...first,
    createdAt: results.map((r) => r.createdAt).sort()[0],
    finishedAt: results.map((r) => r.finishedAt).sort().pop() || null,
    status: results.every((r) => r.status === 'complete') ? 'complete' : 'interrupted',
    shard: undefined,
    // `host` stays the first shard's, for readers that expect one; every shard's is kept here.
    hosts: results.map((r) => r.host),
    mergedFrom: results.map((r, i) => ({ file: files[i], shard: r.shard || null, host: r.host })),
    suites: [...suites.values()],
    warnings: results.flatMap((r) => r.warnings || []),
    cells
  };
}
