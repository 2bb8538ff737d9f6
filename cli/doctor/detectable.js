// The smallest difference the default budget can detect, from the measured run-to-run spread.
// nodebench diff (stats/compare.js) runs Welch's t-test on the logs of the per-process medians of two
// cells, n processes each. With a per-process CV of c (sd of log medians ~ c when c is small), the
// difference of the two means has a standard error of c * sqrt(2/n) and df = 2n - 2 (equal spreads):
//   just significant (detected half the time):   t(0.975, df) * c * sqrt(2/n)
//   detected with 80% power at alpha = 0.05:      (t(0.975, df) + t(0.80, df)) * c * sqrt(2/n)
// That closed form is optimistic for small n: with 3 medians a cell's variance estimate is itself
// very uncertain and Welch's df falls below 2n - 2. So the figure reported is simulated: the real
// compareCells on synthetic cells of n log-normal process medians with that CV (seeded, so repeatable);
// the closed form stays in the method text for comparison.
import { tQuantile } from '../stats/distributions.js';
import { ALPHA, compareCells } from '../stats/compare.js';
import { t975, bisect } from '../stats/basic.js';
import { prng } from '../stats/random.js';

export { tQuantile };

// Fractions (0.036 = 3.6%) for a per-process CV `cv` and n processes per cell.
export function detectableDifference(cv, processesPerCell, { alpha = ALPHA, power = 0.8 } = {}) {
  const n = processesPerCell;
  if (!(cv >= 0) || n < 2) return null;
  const df = 2 * n - 2;
  const se = cv * Math.sqrt(2 / n);
  const tAlpha = tQuantile(1 - alpha / 2, df);
  const tPower = tQuantile(power, df);
  return {
    fraction: (tAlpha + tPower) * se,
    justSignificantFraction: tAlpha * se,
    processesPerCell: n,
    df,
    alpha,
    power,
    method: `(t(${1 - alpha / 2}, df ${df}) + t(${power}, df ${df})) x CV x sqrt(2/${n}) = (${tAlpha.toFixed(2)} + ${tPower.toFixed(2)}) x ${(cv * 100).toFixed(2)}% x ${Math.sqrt(2 / n).toFixed(3)}: the difference Welch's test on ${n} vs ${n} per-process medians (nodebench diff) finds with ${Math.round(power * 100)}% power at alpha ${alpha}; a difference of ${(tAlpha * se * 100).toFixed(1)}% is significant only half the time`
  };
}

// The fewest processes per cell that detect `target` (a fraction) with the given power; null if
// even `max` processes do not.
export function processesFor(target, cv, { alpha = ALPHA, power = 0.8, max = 200 } = {}) {
  for (let n = 2; n <= max; n++) {
    const d = detectableDifference(cv, n, { alpha, power });
    if (d && d.fraction <= target) return n;
  }
  return null;
}

// The engine measures `processes` per cell, then adds processes (up to maxProcesses) while a cell's
// ±95% margin (t975(n-1) x sd / sqrt(n), as a percentage of the estimate) is above targetRme. Whether
// a cell with this process CV gets more processes, and its margin at either end.
export function adaptiveNote(cv, processes, maxProcesses, targetRme) {
  const rme = (n) => (t975(n - 1) * cv / Math.sqrt(n)) * 100;
  const grows = targetRme !== undefined && targetRme !== null && rme(processes) > targetRme;
  return {
    rmeAtProcesses: rme(processes),
    rmeAtMaxProcesses: rme(maxProcesses),
    targetRme,
    grows,
    text: `a ${processes}-process cell's margin at this spread is ±${rme(processes).toFixed(1)}%, ${grows ? 'above' : 'within'} the ${targetRme}% target, so the engine ${grows ? `adds processes (up to ${maxProcesses}, margin ±${rme(maxProcesses).toFixed(1)}%)` : 'keeps it at ' + processes}`
  };
}

function gaussian(random) {
  let u = 0;
  while (u === 0) u = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

const syntheticCell = (medians) => ({ processes: medians.map((x) => ({ samplesNsPerOp: [x] })) });

// How often compareCells calls B significantly slower than A when B really is `effect` slower (0.02 =
// 2%) and each of the n processes per cell has a log-normal median with this CV. Same seed, same
// random draws for every effect, so the power rises monotonically with the effect.
export function simulatedPower(cv, processesPerCell, effect, { trials = 2000, alpha = ALPHA, seed = 7 } = {}) {
  const random = prng(seed);
  const shift = Math.log(1 + effect);
  let detected = 0;
  for (let t = 0; t < trials; t++) {
    const a = [];
    const b = [];
    for (let i = 0; i < processesPerCell; i++) {
      a.push(Math.exp(cv * gaussian(random)));
      b.push(Math.exp(shift + cv * gaussian(random)));
    }
    const c = compareCells(syntheticCell(a), syntheticCell(b), { alpha });
    if (c.significant && c.ratio < 1) detected++;
  }
  return detected / trials;
}

// The smallest slowdown detected with `power` (by simulation), as a fraction.
export function simulatedDetectable(cv, processesPerCell, { power = 0.8, alpha = ALPHA, trials = 2000 } = {}) {
  if (!(cv > 0) || processesPerCell < 2) return null;
  const underPowered = (slowdown) => simulatedPower(cv, processesPerCell, slowdown, { trials, alpha }) < power;
  const widest = Math.max(0.01, 40 * cv);
  if (underPowered(widest)) return null;
  return bisect(underPowered, 0, widest, 24).hi;
}

// The fewest processes per cell whose simulated power for `target` reaches `power`.
export function simulatedProcessesFor(target, cv, { power = 0.8, alpha = ALPHA, max = 60, trials = 2000 } = {}) {
  for (let n = 2; n <= max; n++) {
    if (simulatedPower(cv, n, target, { trials, alpha }) >= power) return n;
  }
  return null;
}

// What the doctor reports: the simulated 80%-power difference, with the closed form beside it.
export function smallestDetectable(cv, processesPerCell, options = {}) {
  const analytic = detectableDifference(cv, processesPerCell, options);
  if (!analytic) return null;
  const simulated = simulatedDetectable(cv, processesPerCell, options);
  return {
    ...analytic,
    fraction: simulated ?? analytic.fraction,
    analyticFraction: analytic.fraction,
    method: `simulated: ${options.trials ?? 2000} pairs of cells with ${processesPerCell} log-normal process medians of CV ${(cv * 100).toFixed(2)}% each, compared by nodebench diff's own test (stats/compare.js compareCells, Welch on log medians); the smallest slowdown it calls significant (alpha ${analytic.alpha}) in ${Math.round(analytic.power * 100)}% of pairs. The closed form ${analytic.method.replace(/: the difference .*$/, '')} = ${(analytic.fraction * 100).toFixed(1)}% is optimistic at so few processes; a difference of ${(analytic.justSignificantFraction * 100).toFixed(1)}% is significant only about half the time`
  };
}
