// A tinybench file in the shape many projects write, unchanged: per-call hooks, two benches run
// one after another, and a guard that runs it only as the program. tinybench runs beforeEach and
// afterEach around every call outside the timing; nodebench does the same by timing each call alone
// (a call must last at least 50 times the cost of reading the clock, a few µs: the sort below
// does). Run it with tinybench (`node examples/tinybench-each.mjs`) or with nodebench:
//   nodebench run examples/tinybench-each.mjs --node 16,18,22
import { Bench } from 'tinybench';
import { pathToFileURL } from 'node:url';

function shuffled(size) {
  const values = Array.from({ length: size }, (_, i) => (i * 7919) % size);
  return values;
}

async function main() {
  let values;
  const sorting = new Bench({ name: 'sorting', time: 200 });
  sorting
    // Each call sorts a fresh copy: a sorted array would make every later call measure less work.
    .add('sort 2000 numbers', () => values.sort((a, b) => a - b), {
      beforeEach() { values = shuffled(2000); }
    })
    .add('sort 2000 numbers (copy inside)', () => shuffled(2000).sort((a, b) => a - b));
  await sorting.run();
  console.table(sorting.table());

  const maps = new Bench({ name: 'maps', time: 200 });
  let map;
  maps.add('sum a 5000-entry Map', () => {
    let total = 0;
    for (const value of map.values()) total += value;
    return total;
  }, {
    beforeEach() {
      map = new Map();
      for (let i = 0; i < 5000; i++) map.set(i, i);
    },
    afterEach() { map = null; }
  });
  await maps.run();
  console.table(maps.table());
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
