// The late check of a runtime's label: the runner compares the worker's own report of its version
// with the runtime it started (resolving already asked the binary, inspect.js and each provider), so
// a binary that answers one version and runs another is caught too. Each refusal names the fix that
// fits where the binary came from, which its provider knows (providers.js).
import { providerNamed } from './providers.js';

// What to do about a runtime whose binary is not the version its label says.
export function repairAdvice(runtime) {
  return providerNamed(runtime.provider).repairAdvice(runtime);
}

// The late check: a worker reported `reported` while running `runtime`. Null when they agree, else
// the sentence to fail the cell with.
export function reportedVersionProblem(runtime, reported) {
  if (!reported || reported === runtime.version) return null;
  const provider = providerNamed(runtime.provider);
  return `the binary ${runtime.path} ran as Node ${reported}, but ${provider.labelSays(runtime)}; ${provider.repairAdvice(runtime)}`;
}
