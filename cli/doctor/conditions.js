// Conditions on this machine that make benchmark figures noisier, each with what to do about it.
// Pure given its inputs (host facts and the environment), so it is testable without the machine.
// The facts and the load and governor warnings are those a run's result file has (results/host.js).
import { hostInfo, loadWarning, governorWarning, GOVERNOR_FILE } from '../results/host.js';

export const FEW_CORES = 4;

// Environment variables set by common CI services.
const CI_VARIABLES = ['GITHUB_ACTIONS', 'GITLAB_CI', 'BUILDKITE', 'CIRCLECI', 'TRAVIS', 'JENKINS_URL', 'TF_BUILD', 'TEAMCITY_VERSION', 'APPVEYOR', 'BITBUCKET_BUILD_NUMBER', 'DRONE', 'CI'];

export function detectCi(env = process.env) {
  const found = CI_VARIABLES.filter((name) => env[name] !== undefined && env[name] !== '' && env[name] !== 'false' && env[name] !== '0');
  return found.length ? found : null;
}

export function readConditions({ env = process.env, host = hostInfo() } = {}) {
  return {
    loadAverage: host.loadAverageStart,
    cores: host.cores,
    governor: host.cpuGovernor,
    governorFile: GOVERNOR_FILE,
    ci: detectCi(env)
  };
}

// Returns [{ code, message }]: each message says what is wrong and what to do.
export function warningsFor(conditions) {
  const { loadAverage, cores, governor, ci } = conditions;
  const warnings = [];
  warnings.push(...loadWarning(loadAverage, cores));
  if (governor === null) {
    warnings.push({
      code: 'governor-unknown',
      message: `CPU frequency governor: not readable (${GOVERNOR_FILE} does not exist or cannot be read, as in most VMs and containers); the frequency may change under you: on bare metal set it with "sudo cpupower frequency-set -g performance", in a VM compare only figures measured in one run.`
    });
  }
  warnings.push(...governorWarning(governor));
  if (cores < FEW_CORES) {
    warnings.push({
      code: 'cores',
      message: `only ${cores} core${cores === 1 ? '' : 's'}: the worker shares them with nodebench itself, the runtime's GC and compiler threads and everything else; expect more noise, use more processes (--processes 6 or more), or a machine with ${FEW_CORES} or more cores.`
    });
  }
  if (ci) {
    warnings.push({
      code: 'ci',
      message: `running inside CI (${ci.join(', ')} set): shared runners have noisy neighbours and differ from job to job; compare variants within one run (one matrix, interleaved) rather than across jobs, and use more processes.`
    });
  }
  return warnings;
}

// Warnings that follow from what the doctor measured.
export function measuredWarnings({ variabilityCv, resolutionNs, minSampleMs, detectableFraction, cpuShareMin }) {
  const warnings = [];
  if (typeof cpuShareMin === 'number' && cpuShareMin < 0.9) {
    warnings.push({
      code: 'cpu-share',
      message: `a worker process got only ${(cpuShareMin * 100).toFixed(0)}% of a core while sampling: other programs took the rest, which shows up as slower and scattered samples; stop them or wait for an idle machine.`
    });
  }
  if (variabilityCv !== null && variabilityCv > 0.03) {
    warnings.push({
      code: 'variability',
      message: `processes disagree by ${(variabilityCv * 100).toFixed(1)}% (CV of per-process medians): differences smaller than ~${(detectableFraction * 100).toFixed(0)}% will not be detected at the default budget; quieten the machine or raise --processes.`
    });
  }
  if (resolutionNs !== null && resolutionNs > 0.001 * minSampleMs * 1e6) {
    warnings.push({
      code: 'timer',
      message: `the timer's step (${resolutionNs} ns) is more than 0.1% of a ${minSampleMs} ms sample; raise run.minSampleMs so that quantisation stays negligible.`
    });
  }
  return warnings;
}
