// Joining the result files of a sharded run (nodebench matrix --shard i/n on several runners) into
// one. Shards must come from the same matrix: the same runtime versions and flag sets; a benchmark
// may appear in one shard only.
import { UserError } from '../errors.js';

const cellKey = (c) => `${c.suite}\u0000${c.benchmark}\u0000${c.runtimeLabel}\u0000${c.flagSet}`;

export function mergeResults(results, files) {
  const [first] = results;
  const runtimeKey = (r) => r.runtimes.map((x) => `${x.label}=${x.version}`).join(',');
  const flagKey = (r) => r.flagSets.map((f) => `${f.name}=${f.flags.join(' ')}`).join(',');
  results.forEach((r, i) => {
    if (runtimeKey(r) !== runtimeKey(first)) {
      throw new UserError(`${files[i]} has runtimes ${runtimeKey(r)} but ${files[0]} has ${runtimeKey(first)}; merge only shards of one matrix (pin exact versions in matrix.yaml so every runner resolves the same).`);
    }
    if (flagKey(r) !== flagKey(first)) throw new UserError(`${files[i]} has different flag sets from ${files[0]}; merge only shards of one matrix.`);
  });
  const seen = new Map();
  const cells = [];
  results.forEach((r, i) => {
    for (const cell of r.cells) {
      const key = cellKey(cell);
      if (seen.has(key)) throw new UserError(`${cell.suite}/${cell.benchmark} on ${cell.runtimeLabel}/${cell.flagSet} is in both ${files[seen.get(key)]} and ${files[i]}; merge each shard once.`);
      seen.set(key, i);
      cells.push({ ...cell, id: cells.length, host: r.host.hostname });
    }
  });
  const suites = new Map();
  for (const r of results) for (const s of r.suites) if (!suites.has(s.name)) suites.set(s.name, s);
  return {
    ...first,
    createdAt: results.map((r) => r.createdAt).sort()[0],
    finishedAt: results.map((r) => r.finishedAt).sort().pop() || null,
    status: results.every((r) => r.status === 'complete') ? 'complete' : 'interrupted',
    shard: undefined,
    mergedFrom: results.map((r, i) => ({ file: files[i], shard: r.shard || null, host: r.host })),
    suites: [...suites.values()],
    warnings: results.flatMap((r) => r.warnings || []),
    cells
  };
}
