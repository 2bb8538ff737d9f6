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
