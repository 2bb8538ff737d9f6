// A file written for tinybench (v2-v6 API), unchanged. Run it with tinybench (`node
// examples/tinybench.mjs`, where tinybench is installed) or with nodebench, which measures the same
// tasks in fresh processes of each runtime, also where tinybench 6 itself would not install (it
// needs Node 20): nodebench run examples/tinybench.mjs --node 16,18,20,22
import { Bench } from 'tinybench';

const bench = new Bench({ name: 'array copies', time: 200 });
let source;

bench
  .add('slice', () => source.slice(), {
    // Once before the task's iterations, as tinybench runs it; never timed.
    beforeAll() { source = Array.from({ length: 1000 }, (_, i) => i); }
  })
  .add('spread', () => [...source], {
    beforeAll() { source = Array.from({ length: 1000 }, (_, i) => i); }
  })
  .add('JSON round trip (async)', async () => JSON.parse(JSON.stringify(source)), {
    beforeAll() { source = Array.from({ length: 1000 }, (_, i) => i); }
  });

await bench.run();
console.table(bench.table());
