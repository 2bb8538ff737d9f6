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

export function cpuGovernor() {
  return readOrNull('/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor');
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

// Conditions that make figures noisy, each with what to do about it (shown before and after a run,
// and kept in the result file).
export function loadWarning(loadAverage, cores, when) {
  if (loadAverage[0] <= 0.5 * cores) return [];
  return [`the load average ${when} was ${loadAverage[0].toFixed(2)} on ${cores} cores: other programs compete for the CPU; close them or expect wider intervals.`];
}

export function governorWarning(governor) {
  if (!governor || governor === 'performance') return [];
  return [`the CPU frequency governor is "${governor}", so clock speed moves with load; for steadier figures set it to performance (e.g. cpupower frequency-set -g performance).`];
}
