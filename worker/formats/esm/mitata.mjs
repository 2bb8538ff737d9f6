// The ES module face of worker/formats/mitata.js (what `import ... from 'mitata'` gets).
import shim from '../mitata.js';

export const { bench, group, summary, barplot, boxplot, lineplot, compact, do_not_optimize, run, measure, B, flags, $ } = shim;
export default shim;
