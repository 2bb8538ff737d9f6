// The ES module face of worker/formats/tinybench.js (what `import ... from 'tinybench'` gets).
import shim from '../tinybench.js';

export const { Bench, Task, now, hrtimeNow, nToMs, mToNs } = shim;
export default shim;
