// Runs the trials of all experiments interleaved (round-robin: one trial of each experiment in
// turn), so that a change in the machine's load during the run hits every experiment alike and
// their figures stay comparable with each other. Progress, with an estimate of time left, on stderr;
// the 1-minute load average is sampled before every trial.
import os from 'node:os';
import { formatSeconds } from '../../cli/text/format.js';

export function interleave(experiments) {
  const queues = experiments.map((e) => e.trials.map((run, i) => ({ experiment: e.name, index: i + 1, of: e.trials.length, run })));
  const order = [];
  while (queues.some((q) => q.length)) {
    for (const q of queues) if (q.length) order.push(q.shift());
  }
  return order;
}

export async function runInterleaved(experiments, { log = (m) => process.stderr.write(`${m}\n`) } = {}) {
  const order = interleave(experiments);
  const started = Date.now();
  const load = [];
  for (let i = 0; i < order.length; i++) {
    const trial = order[i];
    load.push(os.loadavg()[0]);
    const elapsed = (Date.now() - started) / 1000;
    const left = i ? (elapsed / i) * (order.length - i) : NaN;
    log(`harness: [${i + 1}/${order.length}] ${trial.experiment} ${trial.index}/${trial.of}  (${formatSeconds(elapsed)} elapsed, ~${formatSeconds(left)} left)`);
    await trial.run();
  }
  load.push(os.loadavg()[0]);
  return { seconds: (Date.now() - started) / 1000, load1: { min: Math.min(...load), mean: load.reduce((a, b) => a + b, 0) / load.length, max: Math.max(...load) } };
}
