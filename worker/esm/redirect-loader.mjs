// The resolve hook of hooks.mjs for runtimes without module.register (Node 12.17 to 18.18 and 20.0
// to 20.5), passed as --experimental-loader when worker/common.js restarts the worker for an ES
// module that imports a benchmark library. Written for the oldest of them: no ??, ||=, ?. syntax.
// The same resolve(specifier, context, next) shape serves every loader API from 12.x to 20.5;
// shortCircuit is what 18.6+ asks of a hook that does not call next, and is ignored before.
const SHIMS = {
  tinybench: new URL('../formats/esm/tinybench.mjs', import.meta.url).href,
  mitata: new URL('../formats/esm/mitata.mjs', import.meta.url).href,
  'bench-node': new URL('../formats/esm/bench-node.mjs', import.meta.url).href,
  benchmark: new URL('../formats/esm/benchmark.mjs', import.meta.url).href
};

export function resolve(specifier, context, next) {
  if (Object.prototype.hasOwnProperty.call(SHIMS, specifier)) return { url: SHIMS[specifier], shortCircuit: true };
  return next(specifier, context, next);
}
