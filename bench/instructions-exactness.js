// How exact and how costly counting instructions is (run.measure 'instructions', cli/runner/
// instructions.js): for each runtime and benchmark, `--processes` processes through the launcher a
// run uses, two at a time, and prints per benchmark and runtime
//   per op        instructions per operation (the mean of the processes' measured batches)
//   ppm procs     (largest - smallest) / mean of the processes' figures, in parts per million
//   ppm batches   the same over the measured batches of one process, the largest of the processes
//   2N ppm        with --linearity, one more process at twice the iterations per batch: how far its
//                 figure is from the others' (GC falls into batches differently, so not always 0)
//   marker        instructions of a batch of 0 iterations (subtracted from every batch)
//   N, warm-up    iterations per batch, warm-up batches
//   start, wall   seconds from spawn to the worker's hello under valgrind, and per process
// Usage: node bench/instructions-exactness.js [--runtimes 4.9.1,24.21.0] [--processes 3] [--only a,b]
//        [--busy 2] (busy loops beside, to show counts do not move) [--linearity]
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createProcessLauncher } from '../cli/runner/launcher.js';
import { ensureRuntime } from '../cli/runtimes/index.js';
import { projectRoot } from '../cli/paths.js';
import { textTable } from '../cli/text/text-table.js';
import { answerHelp, log, contextLine } from './lib/preamble.js';
import { startBusyLoops } from './lib/busy-loops.js';

answerHelp(import.meta.url);

const { values } = parseArgs({
  options: {
    runtimes: { type: 'string', default: '4.9.1,6.17.1,14.21.3,16.20.2,24.21.0' },
    processes: { type: 'string', default: '3' },
    only: { type: 'string' },
    busy: { type: 'string', default: '0' },
    linearity: { type: 'boolean', default: false }
  }
});

// A simple sync loop, a promise chain and an allocation-heavy promise workload (the shipped ones,
// smaller where valgrind would take minutes).
const BENCHMARKS = [
  { name: 'work-1us', file: path.join(projectRoot, 'bench', 'fixtures', 'work.js'), benchmark: 'work-1us', params: {} },
  { name: 'chain-native', file: path.join(projectRoot, 'suites', 'promises', 'index.js'), benchmark: 'chain-native', params: { steps: 200 } },
  { name: 'young-gen-churn', file: path.join(projectRoot, 'suites', 'gc', 'index.js'), benchmark: 'young-gen-churn', params: { tasksPerOp: 8, recordsPerTask: 25, inflight: 8 } }
].filter((b) => !values.only || values.only.split(',').includes(b.name));

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const ppm = (xs) => (xs.length > 1 ? ((Math.max(...xs) - Math.min(...xs)) / mean(xs)) * 1e6 : 0);
const perOp = (m) => mean(m.instructionsPerOp);

async function inPairs(jobs) {
  const results = [];
  for (let i = 0; i < jobs.length; i += 2) results.push(...await Promise.all(jobs.slice(i, i + 2).map((job) => job())));
  return results;
}

const stopBusyLoops = startBusyLoops(Number(values.busy));
try {
  const runtimes = new Map();
  for (const spec of values.runtimes.split(',')) runtimes.set(spec, await ensureRuntime(spec, { log }));
  const suites = new Map(BENCHMARKS.map((b) => [b.name, { file: b.file, params: b.params }]));
  const launcherWith = (instructions) => createProcessLauncher({ runtimes, suites, sampler: {}, run: { timeoutSec: 120, measure: 'instructions', instructions } });
  const launcher = launcherWith({});
  const rows = [];
  for (const b of BENCHMARKS) {
    for (const label of runtimes.keys()) {
      const cell = { suite: b.name, benchmark: b.benchmark, flags: [], runtimeLabel: label };
      log(`${b.name} on ${label}: ${values.processes} processes`);
      const outcomes = await inPairs(Array.from({ length: Number(values.processes) }, (_, round) => () => launcher.launch({ kind: 'timing', round }, cell)));
      const failed = outcomes.find((o) => o.status !== 'ok');
      if (failed) {
        rows.push([label, b.name, `${failed.status}: ${failed.error}`]);
        continue;
      }
      const ms = outcomes.map((o) => o.result.measurement);
      let linearity = '';
      if (values.linearity) {
        const n = ms[0].iterationsPerSample * 2;
        const doubled = await launcherWith({ iterations: n }).launch({ kind: 'timing', round: 99 }, cell);
        linearity = doubled.status === 'ok' ? Math.round((perOp(doubled.result.measurement) / mean(ms.map(perOp)) - 1) * 1e6) : doubled.error;
      }
      rows.push([
        label, b.name, mean(ms.map(perOp)).toFixed(1), Math.round(ppm(ms.map(perOp))),
        Math.round(Math.max(...ms.map((m) => ppm(m.instructionsPerOp)))), linearity,
        [...new Set(ms.map((m) => m.markerInstructions))].join('/'), [...new Set(ms.map((m) => m.iterationsPerSample))].join('/'),
        ms.map((m) => m.warmup.batches).join('/'),
        outcomes.map((o) => (o.phasesMs ? (o.phasesMs.startMs / 1000).toFixed(1) : '?')).join('/'),
        outcomes.map((o) => (o.wallMs / 1000).toFixed(1)).join('/')
      ]);
    }
  }
  console.log(contextLine());
  console.log(`${values.busy} busy loop(s) beside; processes two at a time\n`);
  console.log(textTable([['runtime', 'benchmark', 'per op', 'ppm procs', 'ppm batches', '2N ppm', 'marker', 'N', 'warm-up', 'start s', 'wall s'], ...rows.map((row) => row.map(String))], { rightFrom: 2 }).join('\n'));
} finally {
  stopBusyLoops();
}
