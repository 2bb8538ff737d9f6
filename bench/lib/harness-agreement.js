// Agreement and spread against tinybench and mitata, and the overhead of an empty benchmark.
// For each function (empty, ~1 µs, ~10 µs, ~100 µs of fixed work on the host runtime), `runs`
// rounds of: one nodebench estimate (one engine invocation at the given budget: 3 processes), then
// one tinybench and one mitata estimate, each in a fresh process with a measuring budget steered so
// that its wall time per estimate matches nodebench's (bench/lib/external.js budgetController).
// tinybench and mitata run on the host only: tinybench 6 needs Node >= 20, so the Node 4.9.1
// overhead figure is nodebench's alone. A tool that is not installed (nodebench installed as a
// package, without its development dependencies) is left out, and the rows say so.
import { invokeEngine, WORK_SUITE } from './engine-run.js';
import { measureWithTool, budgetController, installedTools, TOOLS } from './external.js';
import { mean, cv } from './trial-rates.js';
import { median } from '../../cli/stats/basic.js';
import { formatNs } from './figure-table.js';
import { within, pct } from './targets.js';

export const SIZES = [
  { benchmark: 'work-1us', label: '~1 µs' },
  { benchmark: 'work-10us', label: '~10 µs' },
  { benchmark: 'work-100us', label: '~100 µs' }
];
export const AGREEMENT_TOLERANCE = 0.03;
export const OVERHEAD_TARGET_NS = 1;

function collector() {
  return { nodebench: [], tinybench: [], mitata: [] };
}

export function toolsExperiment({ agreementRuns, overheadRuns, run, dir, seed, maxToolWallMs = Infinity, node4 = '4.9.1', tools = installedTools() }) {
  const data = { tools, empty: collector(), node4: [] };
  for (const s of SIZES) data[s.benchmark] = collector();
  const controllers = new Map();
  const plan = [];
  const rounds = Math.max(agreementRuns, overheadRuns);
  for (let r = 0; r < rounds; r++) {
    if (r < overheadRuns) plan.push({ benchmark: 'empty', round: r });
    if (r < agreementRuns) for (const s of SIZES) plan.push({ benchmark: s.benchmark, round: r });
    if (r < overheadRuns) plan.push({ benchmark: 'empty', round: r, runtime: node4 });
  }
  const trials = plan.map((p, i) => async () => {
    if (p.runtime) {
      const inv = await invokeEngine({ runtime: p.runtime, benchmarks: ['empty'], run, seed: seed + i, dir, name: `overhead-node4-${p.round}` });
      data.node4.push({ nsPerOp: inv.cells.empty.summary.estimate, p50NsPerOp: inv.cells.empty.summary.median, wallMs: inv.wallMs, version: inv.cells.empty.runtime });
      return;
    }
    const inv = await invokeEngine({ benchmarks: [p.benchmark], run, seed: seed + i, dir, name: `tools-${p.benchmark}-${p.round}` });
    const nb = data[p.benchmark].nodebench;
    nb.push({ nsPerOp: inv.cells[p.benchmark].summary.estimate, p50NsPerOp: inv.cells[p.benchmark].summary.median, wallMs: inv.wallMs });
    const targetWallMs = Math.min(maxToolWallMs, median(nb.map((x) => x.wallMs)));
    // Alternate which tool goes first, so neither always follows nodebench.
    const order = p.round % 2 ? [...tools].reverse() : tools;
    for (const tool of order) {
      const key = `${tool}:${p.benchmark}`;
      if (!controllers.has(key)) {
        const pilot = budgetController(targetWallMs);
        pilot.observe((await measureWithTool(tool, { suite: WORK_SUITE, benchmark: p.benchmark, budgetMs: pilot.budgetMs })).wallMs);
        controllers.set(key, pilot);
      }
      const control = controllers.get(key);
      control.target(targetWallMs);
      const figures = await measureWithTool(tool, { suite: WORK_SUITE, benchmark: p.benchmark, budgetMs: control.budgetMs });
      control.observe(figures.wallMs);
      data[p.benchmark][tool].push(figures);
    }
  });
  return { name: 'tinybench/mitata comparison', trials, data };
}

function describe(list) {
  return {
    estimates: list.length,
    nsPerOp: mean(list.map((x) => x.nsPerOp)),
    p50NsPerOp: list[0]?.p50NsPerOp === undefined ? null : mean(list.map((x) => x.p50NsPerOp)),
    cv: cv(list.map((x) => x.nsPerOp)),
    wallMs: median(list.map((x) => x.wallMs))
  };
}

// Figures and rows from the raw estimates (kept in the harness's JSON).
export function summariseTools(data) {
  // A run saved before tools could be missing (--from an older --json) measured both.
  const tools = data.tools ?? TOOLS;
  const all = ['nodebench', ...tools];
  const missing = TOOLS.filter((t) => !tools.includes(t));
  const notInstalled = missing.length ? `; ${missing.join(' and ')} not installed beside nodebench (npm install tinybench mitata), so not measured` : '';
  const byFunction = {};
  for (const key of ['empty', ...SIZES.map((s) => s.benchmark)]) {
    byFunction[key] = {};
    for (const tool of all) byFunction[key][tool] = describe(data[key][tool]);
  }
  const node4 = data.node4.length ? { ...describe(data.node4), version: data.node4[0].version } : null;
  const rows = [];
  for (const s of SIZES) {
    const f = byFunction[s.benchmark];
    const nb = f.nodebench;
    const ratios = Object.fromEntries(tools.map((t) => [t, f[t].nsPerOp / nb.nsPerOp]));
    rows.push({
      id: `agree-${s.benchmark}`,
      figure: `agreement ${s.label}: time/op`,
      value: `nodebench ${formatNs(nb.nsPerOp)}${tools.length ? '; ' : ''}${tools.map((t) => `${t} ${signed(ratios[t])} (p50 ${signed(f[t].p50NsPerOp / nb.p50NsPerOp)})`).join(', ')}`,
      target: `within ${pct(AGREEMENT_TOLERANCE, 0)}`,
      verdict: tools.length ? tools.map((t) => `${t} ${within(ratios[t], AGREEMENT_TOLERANCE)}`).join('; ') : 'not measured',
      how: `mean of ${nb.estimates} estimates per tool, each tool's headline figure (tinybench latency mean, mitata avg, nodebench mean of per-process medians); in brackets the tools' p50 against the median of nodebench's samples${notInstalled}`
    });
    const spreads = all.map((t) => `${t} ${pct(f[t].cv, 2)}`).join(', ');
    const lowest = all.reduce((best, t) => (f[t].cv < f[best].cv ? t : best), 'nodebench');
    rows.push({
      id: `spread-${s.benchmark}`,
      figure: `agreement ${s.label}: spread (CV)`,
      value: `${spreads}; wall/estimate ${all.map((t) => (f[t].wallMs / 1000).toFixed(1)).join('/')} s`,
      target: 'compare',
      verdict: !tools.length ? 'not compared' : lowest === 'nodebench' ? 'nodebench lowest' : `nodebench ${(f.nodebench.cv / f[lowest].cv).toFixed(1)}x ${lowest}'s`,
      how: `CV of ${nb.estimates} estimates per tool, each from a separate invocation / fresh process${notInstalled}`
    });
  }
  const e = byFunction.empty;
  rows.push({
    id: 'overhead-host',
    figure: 'overhead (empty benchmark), host',
    value: all.map((t) => `${t} ${e[t].nsPerOp.toFixed(2)} ns/op`).join(', '),
    target: `<= ${OVERHEAD_TARGET_NS} ns/op (nodebench)`,
    verdict: e.nodebench.nsPerOp <= OVERHEAD_TARGET_NS ? 'met' : `missed by ${(e.nodebench.nsPerOp - OVERHEAD_TARGET_NS).toFixed(2)} ns/op`,
    how: `mean of ${e.nodebench.estimates} estimates per tool; tinybench times every call with performance.now(), so its figure is mostly the timer's cost${notInstalled}`
  });
  if (node4) {
    rows.push({
      id: 'overhead-node4',
      figure: `overhead (empty benchmark), Node ${node4.version}`,
      value: `nodebench ${node4.nsPerOp.toFixed(2)} ns/op`,
      target: `<= ${OVERHEAD_TARGET_NS} ns/op`,
      verdict: node4.nsPerOp <= OVERHEAD_TARGET_NS ? 'met' : `missed by ${(node4.nsPerOp - OVERHEAD_TARGET_NS).toFixed(2)} ns/op`,
      how: `mean of ${node4.estimates} engine invocations on Node ${node4.version} (tinybench and mitata cannot run there)`
    });
  }
  return { figures: { byFunction, node4 }, rows };
}

const signed = (ratio) => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)}%`;
