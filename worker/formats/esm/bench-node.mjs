// The ES module face of worker/formats/bench-node.js (what `import ... from 'bench-node'` gets).
import shim from '../bench-node.js';

export const {
  Suite, V8NeverOptimizePlugin, V8GetOptimizationStatus, V8OptimizeOnNextCallPlugin, MemoryPlugin,
  chartReport, textReport, htmlReport, jsonReport, csvReport, prettyReport
} = shim;
export default shim;
