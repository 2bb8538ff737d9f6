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

// How much of the 1-minute load average is this nodebench's own doing before it measures: the CPU
// time of this process and of the processes it ran and waited for (npm and tar installing runtimes,
// the probes of each binary; /proc/self/stat's utime, stime, cutime and cstime, in the 100 Hz ticks
// /proc always counts in), spread over its life so far and weighted as the load average weighs that
// much of the past (an exponential average over a minute). 0 where /proc is not there. On a fresh
// machine the start warning blamed "other programs" for its own runtime downloads (issue 39).
export function ownRecentLoad() {
  const stat = readOrNull('/proc/self/stat');
  if (!stat) return 0;
  // After the command name (which may hold spaces), field 3 comes first: utime is field 14.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuSeconds = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / 100;
  const life = process.uptime();
  if (!(life > 0) || !Number.isFinite(cpuSeconds)) return 0;
  return Math.min(os.cpus().length || 1, cpuSeconds / life) * (1 - Math.exp(-life / 60));
}

// ownLoad: what nodebench itself adds to the load average. At the end of a run, its benchmark
// processes (one at a time or two: the default matrix keeps the 1-minute load near 1.2 by itself),
// so that a run alone on a 2-core machine is not told that other programs compete; before measuring
// (at the start, or from doctor), its own recent work (ownRecentLoad).
export function loadWarning(loadAverage, cores, when = 'now', { ownLoad = when === 'at the end' ? 0 : ownRecentLoad() } = {}) {
  const load = loadAverage[0];
  if (load - ownLoad <= LOAD_PER_CORE_LIMIT * cores) return [];
  const head = `the load average ${when} was ${load.toFixed(2)} (1 min) on ${cores} cores`;
  if (when === 'at the end') {
    const own = ownLoad ? `; less about ${ownLoad} for this run's own processes, ${(load - ownLoad).toFixed(2)}` : '';
    return [{ code: 'load', message: `${head}${own}, above ${LOAD_PER_CORE_LIMIT} per core: other programs compete for the CPU and show up as noise; stop them (see top) or expect wider intervals.` }];
  }
  const own = ownLoad >= 0.05 ? `; about ${ownLoad.toFixed(2)} of it was this nodebench's own work before measuring (installing and checking runtimes), leaving ${(load - ownLoad).toFixed(2)}` : '';
  return [{ code: 'load', message: `${head}${own}, above ${LOAD_PER_CORE_LIMIT} per core. A load average looks back about a minute, so what ran just before (an npm ci, say) counts too: if nothing else runs now, it falls as measuring goes on (the end of the run warns if it did not); otherwise other programs compete for the CPU and show up as noise: stop them (see top) or expect wider intervals.` }];
}

// The benchmark processes a run keeps busy at a time: one, or two when processes are paired.
export const runOwnLoad = (run) => (run?.pairing && run.pairing !== 'sequential' ? 2 : 1);

export function governorWarning(governor) {
  if (!governor || governor === 'performance') return [];
  return [{ code: 'governor', message: `the CPU frequency governor is "${governor}", not "performance": clock speed follows the load, so early and late processes run at different speeds; set it with "sudo cpupower frequency-set -g performance" while benchmarking.` }];
}
