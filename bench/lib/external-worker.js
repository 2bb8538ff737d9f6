// Runs ONE benchmark of a CommonJS suite file under tinybench or mitata, in a fresh process, and
// prints one JSON line: { tool, nsPerOp, p50NsPerOp, samples, wallMs }. Started by bench/lib/external.js.
// Host side only: tinybench 6 needs Node >= 20 (and mitata 1 modern syntax), so neither can measure
// inside Node 4; nodebench's own worker is the only one of the three that runs on every runtime.
//   node bench/lib/external-worker.js '{"tool":"tinybench","suite":"/abs/work.js","benchmark":"work-10us","budgetMs":1500}'
import { createRequire } from 'node:module';

// Not an entry script (no preamble: its start-up counts in the wall time it reports), but it answers
// --help as the entries do, so that test/bench-scripts.test.js can check it loads.
if (process.argv[2] === '--help') {
  process.stdout.write('usage: node bench/lib/external-worker.js REQUEST-JSON (started by bench/lib/external.js)\n');
  process.exit(0);
}
const started = performance.now();
const request = JSON.parse(process.argv[2]);
const require = createRequire(import.meta.url);

// The suite's own setup, as the worker does it (sync only: the harness's fixtures are sync).
function prepare(suitePath, name) {
  const suite = require(suitePath);
  const params = { ...(suite.params || {}), ...(request.params || {}) };
  const suiteCtx = typeof suite.setup === 'function' ? suite.setup(params) ?? {} : {};
  const spec = suite.benchmarks[name];
  if (!spec) throw new Error(`${suitePath} has no benchmark ${name}`);
  const fn = typeof spec === 'function' ? spec : spec.fn;
  const ctx = spec.setup ? spec.setup(suiteCtx, params) ?? suiteCtx : suiteCtx;
  return { fn, ctx };
}

async function withTinybench(fn, ctx, budgetMs) {
  const { Bench } = await import('tinybench');
  // The tool's defaults (performance.now, 64 iterations minimum, no timer-overhead correction),
  // with its time budget split 4:1 between measuring and warm-up as its defaults (1000/250 ms) are.
  const bench = new Bench({ time: budgetMs * 0.8, warmupTime: budgetMs * 0.2, throws: true });
  bench.add(request.benchmark, () => fn(ctx));
  await bench.run();
  const r = bench.tasks[0].result;
  return { nsPerOp: r.latency.mean * 1e6, p50NsPerOp: r.latency.p50 * 1e6, samples: r.latency.samplesCount ?? null };
}

async function withMitata(fn, ctx, budgetMs) {
  const { measure, do_not_optimize: keep } = await import('mitata');
  // mitata's measure() with its defaults except the measuring budget (min_cpu_time, default 642 ms).
  const stats = await measure(() => keep(fn(ctx)), { min_cpu_time: budgetMs * 1e6 });
  return { nsPerOp: stats.avg, p50NsPerOp: stats.p50, samples: stats.samples.length };
}

const { fn, ctx } = prepare(request.suite, request.benchmark);
const run = request.tool === 'tinybench' ? withTinybench : request.tool === 'mitata' ? withMitata : null;
if (!run) throw new Error(`unknown tool ${request.tool}`);
const figures = await run(fn, ctx, request.budgetMs);
process.stdout.write(`${JSON.stringify({ tool: request.tool, ...figures, wallMs: performance.now() - started })}\n`);
