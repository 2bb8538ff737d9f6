// nodebench's own suite format as an ES module: named exports (or `export default { ... }`).
// Run:  nodebench run examples/esm-suite.mjs --node 18,22
// Runs wherever import() works in CommonJS: Node 12.17+ (13.2+ on 13.x); elsewhere its cells
// are unsupported with the reason.
export const description = 'Building a query string: URLSearchParams against joining by hand';
export const params = { pairs: 20 };

export function setup(params) {
  const entries = Array.from({ length: params.pairs }, (_, i) => [`key${i}`, `value ${i} & more`]);
  return { entries, object: Object.fromEntries(entries) };
}

export const benchmarks = {
  'URLSearchParams': (ctx) => new URLSearchParams(ctx.object).toString(),
  'encodeURIComponent join': (ctx) => ctx.entries.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')
};
