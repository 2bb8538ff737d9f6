// The ES module face of worker/formats/benchmark.js (what `import Benchmark from 'benchmark'` gets).
import Benchmark from '../benchmark.js';

export const { Suite } = Benchmark;
export default Benchmark;
