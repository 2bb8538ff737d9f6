// Where runtimes come from: one file per provider, each an object of the same shape, listed here
// once. Resolving (index.js), the late check of a worker's own report (verify.js) and the check of a
// provider a user names (matrix.yaml `provider:`, `runtimes install --via`, the API) all ask this
// list, so adding a provider is adding its file and a line below.
//
//   name                           the runtime record's `provider`
//   choosable                      whether a user may ask for it by name (provider: nvm)
//   kind                           'cache' (installs exact versions into the nodebench cache),
//                                  'installer' (installs exact versions with its own tool: nvm),
//                                  'binary' (the spec names a binary: system, a path)
//   installed(version, { env })    the verified runtime of an exact version it holds, or null
//   install(version, { env, log }) installs an exact version; the verified runtime
//   resolve(parsed, { env })       ('binary' only) the verified runtime a spec names
//   available(env), index(env)     ('cache' downloads) whether it is set up here; the version index
//                                  source it answers for (version-index.js)
//   labelSays(runtime)             what labels its runtimes: "its cache entry says 16.20.2"
//   repairAdvice(runtime)          the fix for a runtime whose binary is not its label
import { npmRegistryProvider } from './npm-registry.js';
import { mirrorProvider } from './mirror.js';
import { nvmProvider } from './nvm.js';
import { systemProvider, pathProvider } from './binary.js';

// In the order they are asked: a configured mirror before the registry it replaces.
export const PROVIDERS = [mirrorProvider, npmRegistryProvider, nvmProvider, systemProvider, pathProvider];

export function providerNamed(name) {
  const provider = PROVIDERS.find((p) => p.name === name);
  if (!provider) throw new Error(`no runtime provider is named ${name}`);
  return provider;
}

// The names a user may give as a provider (today: nvm).
export const CHOOSABLE_PROVIDERS = PROVIDERS.filter((p) => p.choosable).map((p) => p.name);

export const isChoosableProvider = (name) => CHOOSABLE_PROVIDERS.includes(name);

// The provider that downloads into the cache here: a configured mirror, else the npm registry.
export function downloadProvider(env) {
  return PROVIDERS.find((p) => p.kind === 'cache' && p.available(env));
}
