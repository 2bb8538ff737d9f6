// Result files of a 150-cell history, made from a real result file: test/history-store.test.js
// takes one as its large write, and bench/history-figures.js adds a series of them to a store.
import { prng } from '../../cli/stats/random.js';
import { INVOCATION_DRIFT } from '../../cli/stats/drift.js';

// A standard normal from a uniform PRNG (Box-Muller), so that a seed gives the same series.
export function normalFrom(random) {
  return () => {
    let u = 0;
    while (!u) u = random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  };
}

const RUNTIMES = ['4.9.1', '6.17.1', '14.21.3', '16.20.2', '24.21.0'];
// The default matrix's rows (matrix.yaml with suites: all): 30 benchmark x flag-set rows x 5 runtimes.
const ROWS = [
  ...['a', 'b', 'c', 'd'].map((b) => ['autoload', `load-${b}`, 'baseline']),
  ...['young-gen-churn', 'old-gen-marking', 'old-gen-marking-async'].flatMap((b) => ['baseline', 'semi-space-64', 'no-concurrent-marking'].map((f) => ['gc', b, f])),
  ...['parse', 'stringify', 'bfj', 'JSONStream', 'parse-aggregated', 'stringify-aggregated'].map((b) => ['json', b, 'baseline']),
  ...['pipeline-native', 'pipeline-bluebird', 'pipeline-concurrent-native', 'pipeline-concurrent-bluebird', 'chain-native', 'chain-bluebird', 'fanout-native', 'fanout-bluebird', 'pipeline-async-await'].map((b) => ['promises', b, 'baseline']),
  ...['express-json', 'log-analysis'].map((b) => ['service', b, 'baseline'])
];
const FLAGS = { baseline: [], 'semi-space-64': ['--max-semi-space-size=64'], 'no-concurrent-marking': ['--no-concurrent-marking', '--no-parallel-marking'] };
const unsupportedCell = (suite, benchmark, flagSet, runtime) => (runtime === '4.9.1' || runtime === '6.17.1') && (flagSet === 'no-concurrent-marking' || benchmark === 'pipeline-async-await' || (suite === 'service' && runtime === '4.9.1'));

const NS_FIELDS = ['estimate', 'median', 'mean', 'sd', 'min', 'p75', 'p99', 'cpuNsPerOp'];

// A copy of a template cell whose every time is scaled by `factor`, keeping `keep` processes.
function scaledCell(template, factor, keep) {
  const cell = structuredClone(template);
  cell.processes = cell.processes.slice(0, keep).map((p) => ({
    ...p,
    samplesNsPerOp: p.samplesNsPerOp.map((x) => x * factor),
    cpuNsPerOp: typeof p.cpuNsPerOp === 'number' ? p.cpuNsPerOp * factor : p.cpuNsPerOp
  }));
  const s = cell.summary;
  for (const key of NS_FIELDS) if (typeof s[key] === 'number') s[key] *= factor;
  s.opsPerSec /= factor;
  s.ci = { ...s.ci, low: s.ci.low * factor, high: s.ci.high * factor };
  if (s.rerun) s.rerun = { ...s.rerun, low: s.rerun.low * factor, high: s.rerun.high * factor };
  s.processMedians = (s.processMedians || []).map((x) => x * factor);
  return cell;
}

// Run `index` of a history of 150-cell results: every ok cell a clone of one of the template's,
// its rate set by the row and runtime, moved by the run's drift and the cell's own noise, and
// three rows slowed by 8% from run 120 on (so that the pages have change points to draw).
export function synthesize(template, index, random) {
  const normal = normalFrom(random);
  const base = prng(12345);
  const templates = template.cells.filter((c) => c.status === 'ok');
  const runtime = (version) => ({ ...template.runtimes[0], spec: version.split('.')[0], label: version, version });
  const runDrift = INVOCATION_DRIFT * normal();
  const cells = [];
  for (const [suite, benchmark, flagSet] of ROWS) {
    // A row's rate (100 to 1M ops/s), and each runtime within a factor of 0.6 to 1.6 of it.
    const rowRate = 10 ** (2 + 4 * base());
    for (const version of RUNTIMES) {
      const rate = rowRate * (0.6 + base());
      const id = cells.length;
      const common = { id, runtime: version, runtimeLabel: version, flagSet, flags: FLAGS[flagSet], suite, benchmark };
      if (unsupportedCell(suite, benchmark, flagSet, version)) {
        cells.push({ ...common, status: 'unsupported', error: `Node ${version} has no such flag or syntax`, processes: [] });
        continue;
      }
      const source = templates[Math.floor(random() * templates.length)];
      const slowed = index >= 120 && ['chain-native', 'parse', 'young-gen-churn'].includes(benchmark) ? 1 / 0.92 : 1;
      const targetNs = (1e9 / rate) * slowed * Math.exp(runDrift + 0.02 * normal());
      const cell = scaledCell(source, targetNs / source.summary.estimate, 5 + Math.floor(random() * 4));
      cells.push({ ...cell, ...common, status: 'ok' });
    }
  }
  const createdAt = new Date(Date.parse('2026-05-01T03:00:00Z') + index * 86_400_000).toISOString();
  return {
    ...template,
    createdAt,
    finishedAt: createdAt,
    runtimes: RUNTIMES.map(runtime),
    flagSets: Object.entries(FLAGS).map(([name, flags]) => ({ name, flags })),
    suites: [...new Set(ROWS.map(([suite]) => suite))].map((name) => ({ name, file: `suites/${name}/index.js`, params: {}, benchmarks: [] })),
    cells
  };
}
