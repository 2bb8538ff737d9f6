// Hand-built result files that pass the schema, for tests of the readers (diff, report, merge)
// whose point is the cells, not the run that produced them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function runtimeRecord(label, version = label) {
  return { spec: version, label, version, v8: '9.4.146.26-node.26', arch: 'x64', provider: 'npm', sha256: '0'.repeat(64) };
}

// A cell that passes the schema: `ok` with three processes and a summary, or another status without.
export const okCell = (benchmark, status = 'ok', { suite = 's', runtimeLabel = '16.20.2', flagSet = 'baseline', opsPerSec = 1e7 } = {}) => ({
  id: 0,
  runtime: runtimeLabel, runtimeLabel, flagSet, flags: [], suite, benchmark, status,
  processes: status === 'ok' ? [1, 2, 3].map((round) => ({ round, iterationsPerSample: 10, warmup: { batches: 1, ms: 1, stable: true }, samplesNsPerOp: [100 + round, 101, 99] })) : [],
  ...(status === 'ok' ? { summary: { unit: 'ns/op', opsPerSec, median: 100, mean: 100, rme: 1, samples: 9, processes: 3, ci: { level: 0.95, low: 99, high: 101, method: 't' } } } : {})
});

export function resultObject(cells, { runtimes = [runtimeRecord('16.20.2')], status = 'complete', hostname = 'test-host' } = {}) {
  return {
    schemaVersion: 1,
    nodebench: { version: '0.1.0' },
    createdAt: new Date().toISOString(),
    finishedAt: null,
    status,
    host: { hostname, cpuModel: 'Test CPU', cores: 2, memoryBytes: 4e9, os: 'linux', kernel: '6.1.0', loadAverageStart: [0, 0, 0] },
    runtimes,
    flagSets: [{ name: 'baseline', flags: [] }],
    suites: [{ name: 's', file: 's.js', params: {}, benchmarks: [] }],
    run: {},
    schedule: { seed: 1, processesPerCell: 5, order: 'shuffled' },
    cells: cells.map((c, id) => ({ ...c, id }))
  };
}

export function writeResultFile(cells, options) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-result-')), 'r.json');
  fs.writeFileSync(file, JSON.stringify(resultObject(cells, options)));
  return file;
}

// A counted result (`--measure instructions`) as a time run would have written the same cells: the
// run's, cells' and processes' measure gone, each process's counts as its samples. For tests whose
// point is what readers do with a time file beside a count file.
export function asTimed(data) {
  const timedProcess = ({ measure, instructionsPerOp, instructionsPerSample, markerInstructions, valgrind, ...process }) => ({ ...process, samplesNsPerOp: instructionsPerOp });
  return {
    ...data,
    run: { ...data.run, measure: 'time' },
    cells: data.cells.map(({ measure, ...cell }) => ({
      ...cell,
      processes: (cell.processes || []).map(timedProcess),
      ...(cell.summary ? { summary: { ...cell.summary, unit: 'ns/op', opsPerSec: 1e9 / cell.summary.estimate } } : {})
    }))
  };
}
