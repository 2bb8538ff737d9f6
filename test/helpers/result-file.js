// Hand-built result files that pass the schema, for tests of the readers (diff, report, merge)
// whose point is the cells, not the run that produced them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function runtimeRecord(label, version = label) {
  return { spec: version, label, version, v8: '9.4.146.26-node.26', arch: 'x64', provider: 'npm', sha256: '0'.repeat(64) };
}

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
