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

export function loadWarning(loadAverage, cores, when = 'now') {
  if (loadAverage[0] <= LOAD_PER_CORE_LIMIT * cores) return [];
  return [{ code: 'load', message: `the load average ${when} was ${loadAverage[0].toFixed(2)} (1 min) on ${cores} cores, above ${LOAD_PER_CORE_LIMIT} per core: other programs compete for the CPU and show up as noise; stop them (see top) or expect wider intervals.` }];
}

export function governorWarning(governor) {
  if (!governor || governor === 'performance') return [];
  return [{ code: 'governor', message: `the CPU frequency governor is "${governor}", not "performance": clock speed follows the load, so early and late processes run at different speeds; set it with "sudo cpupower frequency-set -g performance" while benchmarking.` }];
}
