// The one answer to "is this binary the runtime its label says?", for every provider: a cache entry
// (labelled by its record), an nvm folder (labelled by its name), a path or the system node
// (labelled by what the binary answered when it was resolved). Every command that names a runtime
// gets it through ensureRuntime, which checks here; the runner checks the worker's own report with
// reportedVersionProblem, so a binary that answers one version and runs another is caught too.
// Each refusal names the fix that fits where the binary came from.

// What to do about a runtime whose binary is not the version its label says, by provider.
export function repairAdvice(runtime) {
  const { provider, version } = runtime;
  if (provider === 'nvm') return `reinstall it with nvm (nvm uninstall ${version}, then nvm install ${version})`;
  if (provider === 'path' || provider === 'system') return `give the path of a real node binary (${runtime.path} is a wrapper or a build that does not report its own version)`;
  return `reinstall it with nodebench runtimes install ${version} --repair`;
}

// Why a binary is not the runtime its label says, when it is not: null when the binary itself
// (askBinary's answer) agrees with the label.
export function labelMismatch(claimed, actual, label) {
  return actual === claimed ? null : `its bin/node is Node ${actual}, not ${claimed} as its ${label} says`;
}

// The late check: a worker reported `reported` while running `runtime`. Null when they agree, else
// the sentence to fail the cell with.
export function reportedVersionProblem(runtime, reported) {
  if (!reported || reported === runtime.version) return null;
  const source = runtime.provider === 'path' || runtime.provider === 'system'
    ? `when asked for its version it said ${runtime.version}`
    : runtime.provider === 'nvm' ? `its nvm folder says ${runtime.version}` : `its cache entry says ${runtime.version}`;
  return `the binary ${runtime.path} ran as Node ${reported}, but ${source}; ${repairAdvice(runtime)}`;
}
