// The machine a run happened on: what a reader needs to judge whether two result files compare.
import fs from 'node:fs';
import os from 'node:os';

function readOrNull(file) {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}

export const GOVERNOR_FILE = '/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor';

export function cpuGovernor() {
  return readOrNull(GOVERNOR_FILE);
}

export function hostInfo() {
  const cpus = os.cpus();
  return {
    hostname: os.hostname(),
    cpuModel: cpus[0]?.model?.trim() || 'unknown',
    cores: cpus.length || 1,
    memoryBytes: os.totalmem(),
    os: `${os.type()} ${os.platform()} ${os.arch()}`,
    kernel: os.release(),
    cpuGovernor: cpuGovernor(),
    loadAverageStart: os.loadavg(),
    loadAverageEnd: null,
    hostNode: process.version.slice(1)
  };
}

// Conditions that make figures noisy, each with what to do about it, as { code, message } (shown
// before and after a run, kept in the result file, and reported by nodebench doctor).
export const LOAD_PER_CORE_LIMIT = 0.5;

// ownLoad: what the run itself adds to the load average when it is read at its end (its benchmark
// processes, one at a time or two), so that a run alone on a 2-core machine is not told that other
// programs compete: the default matrix keeps the 1-minute load near 1.2 by itself.
export function loadWarning(loadAverage, cores, when = 'now', { ownLoad = 0 } = {}) {
  if (loadAverage[0] - ownLoad <= LOAD_PER_CORE_LIMIT * cores) return [];
  const own = ownLoad ? `; less about ${ownLoad} for this run's own processes, ${(loadAverage[0] - ownLoad).toFixed(2)}` : '';
  return [{ code: 'load', message: `the load average ${when} was ${loadAverage[0].toFixed(2)} (1 min) on ${cores} cores${own}, above ${LOAD_PER_CORE_LIMIT} per core: other programs compete for the CPU and show up as noise; stop them (see top) or expect wider intervals.` }];
}

// The benchmark processes a run keeps busy at a time: one, or two when processes are paired.
export const runOwnLoad = (run) => (run?.pairing && run.pairing !== 'sequential' ? 2 : 1);

export function governorWarning(governor) {
  if (!governor || governor === 'performance') return [];
  return [{ code: 'governor', message: `the CPU frequency governor is "${governor}", not "performance": clock speed follows the load, so early and late processes run at different speeds; set it with "sudo cpupower frequency-set -g performance" while benchmarking.` }];
}
