// Fanning a matrix out over several machines (CI runners). The unit of a shard is a benchmark
// (suite/benchmark), never a cell: every runtime and flag set of one benchmark runs on the same
// machine, so the ratios within a table row compare runtimes, not machines. Benchmarks are dealt
// round-robin in plan order, so shards get similar amounts of work.
import { UserError } from '../errors.js';
import { benchmarkName } from '../cell-identity.js';

// --shard auto: the runner's index and the number of runners, as each CI engine already says them.
// Indexes are 0-based except GitLab's. GitHub Actions has no such variables, so its workflow passes
// ${{ strategy.job-index }} and ${{ strategy.job-total }} as NODEBENCH_SHARD_INDEX / _COUNT;
// a Kubernetes Indexed Job gives only JOB_COMPLETION_INDEX, so the count comes the same way.
const CI_SHARD_VARIABLES = [
  { engine: 'nodebench (GitHub Actions matrix)', index: 'NODEBENCH_SHARD_INDEX', count: 'NODEBENCH_SHARD_COUNT', base: 0 },
  { engine: 'GitLab CI parallel', index: 'CI_NODE_INDEX', count: 'CI_NODE_TOTAL', base: 1 },
  { engine: 'Buildkite parallelism', index: 'BUILDKITE_PARALLEL_JOB', count: 'BUILDKITE_PARALLEL_JOB_COUNT', base: 0 },
  { engine: 'CircleCI parallelism', index: 'CIRCLE_NODE_INDEX', count: 'CIRCLE_NODE_TOTAL', base: 0 },
  { engine: 'Kubernetes Indexed Job', index: 'JOB_COMPLETION_INDEX', count: 'NODEBENCH_SHARD_COUNT', base: 0 }
];

export function shardFromEnvironment(env = process.env) {
  const source = CI_SHARD_VARIABLES.find((s) => env[s.index] !== undefined && env[s.index] !== '');
  if (!source) {
    throw new UserError(`--shard auto found no CI shard variables (${CI_SHARD_VARIABLES.map((s) => s.index).join(', ')}); set NODEBENCH_SHARD_INDEX and NODEBENCH_SHARD_COUNT, or give --shard i/n.`);
  }
  const index = Number(env[source.index]);
  const count = Number(env[source.count]);
  if (!Number.isInteger(index) || !Number.isInteger(count) || count < 1 || index - source.base < 0 || index - source.base >= count) {
    throw new UserError(`--shard auto read ${source.index}="${env[source.index]}" and ${source.count}="${env[source.count] ?? ''}" (${source.engine}), which is not a shard of a run; set ${source.count} to the number of runners.`);
  }
  return { index: index - source.base + 1, count };
}

export function parseShard(text, env = process.env) {
  if (String(text).trim() === 'auto') return shardFromEnvironment(env);
  const m = /^(\d+)\/(\d+)$/.exec(String(text).trim());
  if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2])) {
    throw new UserError(`--shard "${text}" must look like 1/3 (this runner's number, then how many runners), with the first between 1 and the second, or be auto (read from the CI's variables).`);
  }
  return { index: Number(m[1]), count: Number(m[2]) };
}

export function selectShard(cells, { index, count }) {
  const benchmarks = [...new Set(cells.map(benchmarkName))];
  const mine = new Set(benchmarks.filter((_, i) => i % count === index - 1));
  return cells.filter((c) => mine.has(benchmarkName(c))).map((c, id) => ({ ...c, id }));
}
