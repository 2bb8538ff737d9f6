// A mitata 1.x file, unchanged: computed parameters over a range of sizes, the iterator form, and
// a collection before every sample (gc('inner')). Run it with mitata (`node --expose-gc
// examples/mitata-params.mjs`) or with nodebench, which computes each batch's parameters before
// timing the batch, as mitata does:
//   nodebench run examples/mitata-params.mjs --node 16,18,22
import { bench, do_not_optimize, run } from 'mitata';

// A fresh unsorted array for every call, made outside the timing.
bench('sort $size', function* (state) {
  const size = state.get('size');
  yield {
    [0]() { return Array.from({ length: size }, (_, i) => (i * 7919) % size); },
    bench(values) { return do_not_optimize(values.sort((a, b) => a - b)); }
  };
}).range('size', 16, 1024, 8);

// The function times its own loop over the state; the code before the loop is not timed.
bench('join 100 strings', (state) => {
  const parts = Array.from({ length: 100 }, (_, i) => `part${i}`);
  // eslint-disable-next-line no-unused-vars -- mitata's iterator form: the loop variable is unused
  for (const _ of state) do_not_optimize(parts.join(','));
});

// Allocation-heavy work with the heap collected before each sample.
bench('allocate 1000 objects', () => {
  const out = [];
  for (let i = 0; i < 1000; i++) out.push({ i });
  return do_not_optimize(out);
}).gc('inner');

// As the program only (import.meta.main: Node 22.18+ and 24.2+; older runtimes do not say).
if (import.meta.main ?? true) await run();
