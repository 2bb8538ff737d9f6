// The search of a bisect, whatever decides a step (a flag default, a measurement): a binary search
// over the releases, its progress lines, and the state file that lets an interrupted bisect resume.
import { readJsonIfExists, writeOutput } from '../fs-atomic.js';
import { ensureRuntime } from '../runtimes/index.js';
import { UserError } from '../errors.js';

export const log = (m) => process.stderr.write(`${m}\n`);

// Binary search over `versions` (versions[0] good, the last bad) for the first bad one. `judge`
// answers 'good', 'bad', or { undecided: reason }; answers already in `known` are not asked again.
export async function bisectVersions(versions, judge, { known = new Map(), onStep = () => {} } = {}) {
  let lo = 0;
  let hi = versions.length - 1;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    const version = versions[mid];
    const verdict = known.has(version) ? known.get(version) : await judge(version);
    known.set(version, verdict);
    if (verdict.undecided) return { undecided: verdict.undecided, lastGood: versions[lo], firstBad: versions[hi], at: version };
    if (verdict.kind === 'good') lo = mid;
    else hi = mid;
    await onStep({ version, verdict, left: versions.slice(lo + 1, hi), lastGood: versions[lo], firstBad: versions[hi] });
  }
  return { lastGood: versions[lo], firstBad: versions[hi] };
}

export const stepsLeft = (n) => (n > 0 ? Math.ceil(Math.log2(n + 1)) : 0);

export function progressLine({ version, verdict, left, lastGood, firstBad }) {
  return `bisect: ${version} is ${verdict.kind} (${verdict.summary}); ${left.length} release(s) left between ${lastGood} and ${firstBad}, about ${stepsLeft(left.length)} more step(s)`;
}

export async function runtimeOf(version) {
  return ensureRuntime(version, { log });
}

// The state of an earlier bisect with the same key, to resume; another bisect's state is started
// over. A file that is not a bisect state (a report, say) is never overwritten unasked.
export async function loadState(file, key) {
  let state;
  try {
    state = await readJsonIfExists(file);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    throw new UserError(`${file} is not a bisect state file (not JSON); choose another --out, or remove it.`);
  }
  if (state !== null && !(typeof state === 'object' && state.key && state.steps && typeof state.steps === 'object')) {
    throw new UserError(`${file} is not a bisect state file (other JSON); choose another --out, or remove it.`);
  }
  if (state && JSON.stringify(state.key) === JSON.stringify(key)) return state;
  return { key, steps: {} };
}


export const saveState = (file, state) => writeOutput(file, `${JSON.stringify(state, null, 1)}\n`);

// Runs the search with `judge`, recording every step in `state` (saved to `file`) as it is made.
export function searchWithState(versions, judge, { state, file }) {
  return bisectVersions(versions, judge, {
    known: new Map(Object.entries(state.steps)),
    onStep: async (step) => {
      state.steps[step.version] = step.verdict;
      await saveState(file, state);
      log(progressLine(step));
    }
  });
}
