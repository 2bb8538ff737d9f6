// The host's speed as a covariate of each process's value (regression adjustment, as A/B tests do
// with CUPED), kept only where the run's own data says it narrows.
//
// Each process times a fixed reference after every sample (worker/disturbance.js). Within a cell,
// processes whose reference ran slow ran the benchmark slow too: on 2026-11-27's noisy host the
// slope of log value on log reference was 0.5-0.95 by suite and the adjustment cut the spread
// between processes of a cell from 16.4% to 9.8% (bench/covariate-adjustment.js on ../shared/evidence). On a
// quiet host (2026-11-24) it helped some suites and hurt others: the reference's cost follows the
// benchmark's heap too. So it is fitted per run and per suite, and used only where it passes a
// split-half check on the run's own cells: the slope fitted on one half of the suite's cells must
// narrow the other half's spread by at least MIN_GAIN, both ways round.
//
// The adjustment is centred on each cell's own mean reference: a cell's mean log value is unchanged
// (a runtime's own cost stays in its value; only the deviations of its processes shrink). What a
// cell's processes share, a host mode they all ran in, is stats/host-speed.js's to allow for.
// Each process gets `hostAdjustment`, the factor its value is multiplied by; the result keeps the
// fit per suite (result.covariate) with its slope and effect.
import { mean, sd, median } from './basic.js';
import { referenceOf } from './host-speed.js';
import { keptSamples } from './summary.js';
import { keptProcesses, perProcessOf } from '../cell-identity.js';

// The least narrowing of the other half's spread that keeps the adjustment, and the most cells'
// processes it is fitted from.
export const MIN_GAIN = 0.1;
const MIN_PROCESSES = 3;
const MIN_CELLS = 4;
// A slope outside this is not a host effect on the benchmark (a benchmark cannot be more than
// proportionally slower than the reference, nor faster when the host is slow).
const MAX_SLOPE = 1.5;

// The value of a process before any adjustment (the median of its kept samples, or their mean for
// `throughput`), as stats/summary.js takes it.
const rawValue = (record, perProcess) => {
  const samples = keptSamples(record);
  return perProcess === 'throughput' ? mean(samples) : median(samples);
};

// Per cell with enough kept processes that recorded a reference: [{ record, x, y }] centred on the
// cell's means.
function centredPoints(cells) {
  const groups = [];
  for (const cell of cells) {
    const points = keptProcesses(cell).map((record) => ({ record, x: referenceOf(record), y: rawValue(record, perProcessOf(cell)) }))
      .filter((p) => p.x > 0 && p.y > 0).map((p) => ({ ...p, x: Math.log(p.x), y: Math.log(p.y) }));
    if (points.length < MIN_PROCESSES) continue;
    const mx = mean(points.map((p) => p.x));
    const my = mean(points.map((p) => p.y));
    groups.push(points.map((p) => ({ ...p, dx: p.x - mx, dy: p.y - my })));
  }
  return groups;
}

function slopeOf(groups) {
  let sxy = 0;
  let sxx = 0;
  for (const p of groups.flat()) {
    sxy += p.dx * p.dy;
    sxx += p.dx * p.dx;
  }
  return sxx > 0 ? sxy / sxx : 0;
}

// The median over cells of the SD of their processes' log values, adjusted with slope b.
const spread = (groups, b) => median(groups.map((points) => sd(points.map((p) => p.dy - b * p.dx))));

// Fits the covariate for one suite's cells. Returns { slope, kept, cells, spreadRaw, spreadAdjusted,
// halves: [{ slope, gain }], reason } (spreads as SDs of log values, i.e. about a relative spread).
export function fitSuite(cells) {
  const groups = centredPoints(cells);
  if (groups.length < 2 * MIN_CELLS) return { kept: false, cells: groups.length, reason: `fewer than ${2 * MIN_CELLS} cells with ${MIN_PROCESSES} or more processes` };
  const halves = [groups.filter((_, i) => i % 2 === 0), groups.filter((_, i) => i % 2 === 1)];
  const checks = halves.map((fitOn, i) => {
    const judgeOn = halves[1 - i];
    const slope = slopeOf(fitOn);
    const raw = spread(judgeOn, 0);
    return { slope, gain: raw > 0 ? 1 - spread(judgeOn, slope) / raw : 0 };
  });
  const slope = slopeOf(groups);
  const fit = { slope, cells: groups.length, spreadRaw: spread(groups, 0), spreadAdjusted: spread(groups, slope), halves: checks };
  if (!(slope > 0 && slope <= MAX_SLOPE)) return { ...fit, kept: false, reason: `slope ${slope.toFixed(2)} outside (0, ${MAX_SLOPE}]` };
  if (checks.some((c) => !(c.gain >= MIN_GAIN))) return { ...fit, kept: false, reason: `a half's spread narrowed by ${checks.map((c) => `${(c.gain * 100).toFixed(0)}%`).join(' and ')}, under ${MIN_GAIN * 100}% for one` };
  return { ...fit, kept: true };
}

// The fit per suite over `cells` (ok or pending ones with processes): { suite: fitSuite's }.
export function fitSuites(cells) {
  const bySuite = new Map();
  for (const cell of cells) {
    if (!cell.processes?.length || (cell.status !== 'ok' && cell.status !== 'pending')) continue;
    if (!bySuite.has(cell.suite)) bySuite.set(cell.suite, []);
    bySuite.get(cell.suite).push(cell);
  }
  return Object.fromEntries([...bySuite].map(([suite, suiteCells]) => [suite, { ...fitSuite(suiteCells), suiteCells }]));
}

// Sets every kept process's hostAdjustment where its suite's fit is kept (and clears it elsewhere),
// before the cells are summarised. Returns the fits by suite.
export function adjustForHost(cells) {
  const fits = fitSuites(cells);
  for (const fit of Object.values(fits)) {
    for (const cell of fit.suiteCells) for (const record of cell.processes) delete record.hostAdjustment;
    if (!fit.kept) continue;
    for (const points of centredPoints(fit.suiteCells)) {
      for (const p of points) p.record.hostAdjustment = Math.exp(-fit.slope * p.dx);
    }
  }
  return fits;
}

// What a result file keeps of the fits (result.covariate).
export function describeFits(fits) {
  return {
    method: `log process value on log reference loop, within cells (centred on each cell's mean reference), slope per suite; kept where the slope fitted on either half of the suite's cells narrows the other half's median process spread by ${MIN_GAIN * 100}% or more`,
    bySuite: Object.fromEntries(Object.entries(fits).map(([suite, f]) => [suite, {
      kept: f.kept, cells: f.cells, slope: f.slope, spreadRaw: f.spreadRaw, spreadAdjusted: f.spreadAdjusted,
      halves: f.halves, reason: f.reason
    }]))
  };
}
