// The GitHub Action and the example workflow: valid for the real actionlint (installed by .ci/run
// with `go install`), and calling only nodebench commands and options that --help documents.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import YAML from 'yaml';
import { root, nodebench } from './helpers/cli.js';

async function actionlintPath() {
  const gopath = await execa('go', ['env', 'GOPATH'], { reject: false });
  const candidates = [gopath.stdout && path.join(gopath.stdout.trim(), 'bin', 'actionlint'), ...String(process.env.PATH).split(':').map((d) => path.join(d, 'actionlint'))];
  return candidates.find((p) => p && fs.existsSync(p));
}

test('the example workflows pass actionlint', { timeout: 60_000 }, async () => {
  const actionlint = await actionlintPath();
  assert.ok(actionlint, 'actionlint is not installed: .ci/run installs it with go install github.com/rhysd/actionlint/cmd/actionlint');
  const workflows = fs.readdirSync(path.join(root, '.github', 'workflows')).map((f) => path.join('.github', 'workflows', f));
  const run = await execa(actionlint, ['-no-color', ...workflows], { cwd: root, reject: false });
  assert.equal(run.exitCode, 0, run.stdout + run.stderr);
});

test('action.yml is a composite action whose steps call only documented nodebench commands and options', async () => {
  const action = YAML.parse(fs.readFileSync(path.join(root, 'action.yml'), 'utf8'));
  assert.equal(action.runs.using, 'composite');
  const scripts = action.runs.steps.filter((s) => s.run).map((s) => s.run).join('\n');
  const calls = [...scripts.matchAll(/nodebench\.js"?\s+(\w+)([^\n]*)/g)];
  const fromArgs = [...scripts.matchAll(/args=\((\w+) ([^)]*)\)|args\+=\(([^)]*)\)/g)].flatMap((m) => (m[2] || m[3]).split(/\s+/)).filter((a) => a.startsWith('--'));
  const used = { matrix: new Set(fromArgs), diff: new Set() };
  for (const [, command, rest] of calls) for (const option of rest.match(/--[a-z-]+/g) || []) (used[command] ||= new Set()).add(option);
  assert.ok(used.matrix.size && used.diff.size, 'the action runs matrix and diff');
  for (const [command, options] of Object.entries(used)) {
    const help = await nodebench([command, '--help']);
    for (const option of options) assert.match(help.stdout, new RegExp(`${option}\\b`), `nodebench ${command} --help does not document ${option}`);
  }
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  assert.match(readme, /uses: .*nodebench@/, 'README shows the action');
});
