// The GitHub Action and the example workflows pass the real actionlint. actionlint reads workflows,
// not action metadata, so the composite action's steps are also checked as the steps of a workflow
// with the action's inputs; and a wrong input given to the action must be caught, which proves
// actionlint read action.yml at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import YAML from 'yaml';
import { root } from './helpers/cli.js';

function findActionlint() {
  const candidates = [process.env.NODEBENCH_ACTIONLINT, ...String(process.env.PATH).split(path.delimiter).map((d) => path.join(d, 'actionlint')), path.join(os.homedir(), 'go', 'bin', 'actionlint')];
  return candidates.find((file) => file && fs.existsSync(file));
}
const actionlint = findActionlint();
// CI installs actionlint (.ci/run); elsewhere the test says why it did not run.
const skip = !actionlint && !process.env.CI ? 'actionlint not installed (go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.7)' : false;

function repoCopy() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-actionlint-'));
  fs.mkdirSync(path.join(dir, '.github', 'workflows'), { recursive: true });
  // actionlint finds the project by its .git folder.
  fs.mkdirSync(path.join(dir, '.git'));
  fs.copyFileSync(path.join(root, 'action.yml'), path.join(dir, 'action.yml'));
  for (const file of fs.readdirSync(path.join(root, '.github', 'workflows'))) {
    fs.copyFileSync(path.join(root, '.github', 'workflows', file), path.join(dir, '.github', 'workflows', file));
  }
  // Example workflows (to copy into another repository) are checked as workflows of this one.
  for (const file of exampleWorkflows()) fs.copyFileSync(path.join(root, 'examples', file), path.join(dir, '.github', 'workflows', file));
  return dir;
}

function exampleWorkflows() {
  return fs.readdirSync(path.join(root, 'examples')).filter((f) => f.endsWith('-workflow.yml'));
}

const lint = (dir) => execa(actionlint, ['-no-color'], { cwd: dir, reject: false });

test('action.yml and the example workflows pass actionlint', { skip }, async () => {
  assert.ok(actionlint, 'actionlint must be installed in CI (.ci/run installs it)');
  const dir = repoCopy();
  const action = YAML.parse(fs.readFileSync(path.join(dir, 'action.yml'), 'utf8'));
  assert.equal(action.runs.using, 'composite');
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([name, spec]) => [name, { description: spec.description, required: false, type: 'string' }]));
  // A reusable workflow: workflow_dispatch would allow only 10 inputs, the action has more.
  fs.writeFileSync(path.join(dir, '.github', 'workflows', 'action-steps.yml'), YAML.stringify({
    name: 'action steps', on: { workflow_call: { inputs } }, jobs: { steps: { 'runs-on': 'ubuntu-latest', steps: action.runs.steps } }
  }));
  const clean = await lint(dir);
  assert.equal(clean.exitCode, 0, clean.stdout + clean.stderr);

  const steps = path.join(dir, '.github', 'workflows', 'action-steps.yml');
  const stepsText = fs.readFileSync(steps, 'utf8');
  fs.writeFileSync(steps, stepsText.replace('${{ inputs.threshold }}', '${{ inputs.thresold }}'));
  const misspelt = await lint(dir);
  assert.equal(misspelt.exitCode, 1);
  assert.match(misspelt.stdout, /property "thresold" is not defined/);
  fs.writeFileSync(steps, stepsText);

  const upgrade = path.join(dir, '.github', 'workflows', 'nodebench-upgrade.yml');
  fs.writeFileSync(upgrade, fs.readFileSync(upgrade, 'utf8').replace("threshold: '5'", "treshold: '5'"));
  const typo = await lint(dir);
  assert.equal(typo.exitCode, 1);
  assert.match(typo.stdout, /input "treshold" is not defined in action "nodebench upgrade check"/);

  // The history example too: its inputs are checked against action.yml.
  const example = path.join(dir, '.github', 'workflows', 'history-workflow.yml');
  fs.writeFileSync(example, fs.readFileSync(example, 'utf8').replace('history: .nodebench-history/store', 'histroy: .nodebench-history/store'));
  const wrongInput = await lint(dir);
  assert.equal(wrongInput.exitCode, 1);
  assert.match(wrongInput.stdout, /history-workflow\.yml.*input "histroy" is not defined in action "nodebench upgrade check"/);
});

test('the workflows call only commands and options the README and its command reference document', () => {
  const readme = ['README.md', 'docs/commands.md', 'docs/ci.md', 'docs/history.md'].map((f) => fs.readFileSync(path.join(root, f), 'utf8')).join('\n');
  const texts = [path.join(root, 'action.yml'), ...fs.readdirSync(path.join(root, '.github', 'workflows')).map((f) => path.join(root, '.github', 'workflows', f)),
    ...exampleWorkflows().map((f) => path.join(root, 'examples', f))]
    .map((f) => fs.readFileSync(f, 'utf8'));
  const calls = texts.flatMap((t) => [...t.matchAll(/(?:npx nodebench|"\$NODEBENCH") (matrix|diff|merge|report|run|history (?:add|show|check))\b([^\n]*)/g)]);
  assert.ok(calls.length >= 5);
  for (const [, command, rest] of calls) {
    assert.match(readme, new RegExp(`nodebench ${command}\\b`), command);
    for (const option of rest.match(/--[a-z-]+/g) || []) assert.ok(readme.includes(option), `${command} ${option} is not in README.md or docs/commands.md, ci.md, history.md`);
  }
});
