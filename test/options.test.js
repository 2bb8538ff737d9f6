import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Command } from 'commander';
import { RUN_OPTIONS, DEFAULT_RUN, QUICK_RUN, docsTable, samplerOptions, runOptionsFrom, addRunOptions, checkRunOption } from '../cli/options.js';

test('docs/matrix.md shows the run options exactly as cli/options.js defines them', () => {
  const docs = fs.readFileSync(new URL('../docs/matrix.md', import.meta.url), 'utf8');
  const between = docs.split('<!-- run-options:start -->')[1].split('<!-- run-options:end -->')[0].trim();
  assert.equal(between, docsTable());
});

test('defaults, --quick and sampler options all come from the one table', () => {
  for (const option of RUN_OPTIONS) {
    if (option.default !== undefined) assert.equal(DEFAULT_RUN[option.name], option.default);
    if (option.default !== undefined && option.type !== 'string' && option.type !== 'boolean') assert.equal(checkRunOption(option.name, option.default), null);
  }
  assert.equal(QUICK_RUN.processes, 1);
  assert.deepEqual(Object.keys(samplerOptions()).sort(), RUN_OPTIONS.filter((o) => o.sampler).map((o) => o.name).sort());
});

test('every CLI run option parses, lands under its run option name, and a bad value is one sentence', () => {
  const program = addRunOptions(new Command().exitOverride());
  program.parse(['--processes', '7', '--max-processes', '9', '--target-rme', '2.5', '--samples', '12', '--timeout', '30', '--seed', '5', '--baseline', '16/baseline'], { from: 'user' });
  const run = runOptionsFrom({ processes: 3, minSampleMs: 20 }, program.opts());
  assert.deepEqual(run, { processes: 7, maxProcesses: 9, targetRme: 2.5, samples: 12, timeoutSec: 30, seed: 5, baseline: '16/baseline', minSampleMs: 20 });
  const bad = addRunOptions(new Command().exitOverride());
  assert.throws(() => bad.parse(['--processes', 'many'], { from: 'user' }), /--processes must be a whole number from 1 to 100, not "many"\./);
});
