// A file written for mitata (1.x), unchanged: `node examples/mitata.mjs` runs it with mitata,
// `nodebench run examples/mitata.mjs --node 18,22` with nodebench. The generator benchmark's code
// before `yield` is setup (not timed), as in mitata; each value of `n` is its own benchmark.
import { bench, group, summary, run, do_not_optimize } from 'mitata';

group('string building', () => {
  summary(() => {
    bench('concat $n', function* (state) {
      const n = state.get('n');
      yield () => {
        let s = '';
        for (let i = 0; i < n; i++) s += 'x';
        return do_not_optimize(s);
      };
    }).range('n', 10, 1000, 10);

    bench('array join $n', function* (state) {
      const n = state.get('n');
      yield () => do_not_optimize(new Array(n).fill('x').join(''));
    }).range('n', 10, 1000, 10);
  });
});

await run();
