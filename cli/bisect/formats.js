// nodebench bisect's output formats (output/emit.js): its finding, { lines } as bisect/flag.js and
// bisect/benchmark.js word it (the first bad release, the measurement or flag default that decided
// it, the V8 flag defaults that changed there); the steps themselves are in the state file.
export const BISECT_FORMATS = {
  table: ({ lines }) => `${lines.join('\n')}\n`
};
