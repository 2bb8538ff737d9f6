// Fanning a matrix out over several machines (CI runners). The unit of a shard is a benchmark
// (suite/benchmark), never a cell: every runtime and flag set of one benchmark runs on the same
// machine, so the ratios within a table row compare runtimes, not machines. Benchmarks are dealt
// round-robin in plan order, so shards get similar amounts of work.
import { UserError } from '../errors.js';

export function parseShard(text) {
  const m = /^(\d+)\/(\d+)$/.exec(String(text).trim());
  if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2])) {
    throw new UserError(`--shard "${text}" must look like 1/3 (this runner's number, then how many runners), with the first between 1 and the second.`);
  }
  return { index: Number(m[1]), count: Number(m[2]) };
}

export function selectShard(cells, { index, count }) {
  const benchmarks = [...new Set(cells.map((c) => `${c.suite}/${c.benchmark}`))];
  const mine = new Set(benchmarks.filter((_, i) => i % count === index - 1));
  return cells.filter((c) => mine.has(`${c.suite}/${c.benchmark}`)).map((c, id) => ({ ...c, id }));
}
