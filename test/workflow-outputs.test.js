// The example upgrade workflow writes its step outputs so that a workflow_dispatch input cannot add
// one: the step's real script (from the YAML) run by bash with a $GITHUB_OUTPUT file, read back the
// way GitHub reads it (name=value lines and name<<delimiter blocks).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import YAML from 'yaml';
import fc from 'fast-check';
import { root } from './helpers/cli.js';

const workflow = YAML.parse(fs.readFileSync(path.join(root, '.github', 'workflows', 'nodebench-upgrade.yml'), 'utf8'));
const versionsStep = workflow.jobs.compare.steps.find((step) => step.id === 'versions');

// GitHub's reading of a $GITHUB_OUTPUT file.
function readOutputs(text) {
  const outputs = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line) continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2], i + 1);
      assert.ok(end > i, `no closing delimiter for ${heredoc[1]}`);
      outputs[heredoc[1]] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else {
      const eq = line.indexOf('=');
      outputs[line.slice(0, eq)] = line.slice(eq + 1);
    }
  }
  return outputs;
}

async function runStep(before, after) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodebench-workflow-'));
  const output = path.join(dir, 'output');
  fs.writeFileSync(output, '');
  const run = await execa('bash', ['-e', '-c', versionsStep.run], { cwd: dir, reject: false, env: { INPUT_BEFORE: before, INPUT_AFTER: after, BASE_REF: 'main', GITHUB_OUTPUT: output } });
  return { ...run, outputs: readOutputs(fs.readFileSync(output, 'utf8')) };
}

test('the upgrade workflow passes one-word versions on as its two outputs', async () => {
  const { exitCode, outputs, stderr } = await runStep('20', '22.11.0');
  assert.equal(exitCode, 0, stderr);
  assert.deepEqual(outputs, { before: '20', after: '22.11.0' });
});

test('a workflow_dispatch input with a newline cannot add an output: the step refuses it without echoing it', async () => {
  for (const [before, after] of [['20\nafter=evil', '22'], ['20', '22\nbefore<<X\nevil\nX'], ['20\r', '22'], ['20 22', '22']]) {
    const { exitCode, outputs, stdout } = await runStep(before, after);
    assert.equal(exitCode, 1);
    assert.deepEqual(outputs, {});
    assert.match(stdout, /^::error::a Node version \(the before or after input\) must be one word/);
    assert.doesNotMatch(stdout, /evil/);
  }
});

test('whatever the inputs, the step writes exactly before and after or nothing', async () => {
  // Line breaks, delimiters and separators are drawn often, not left to chance.
  const input = fc.array(fc.oneof(fc.constantFrom('\n', '\r', ' ', '\t', '<<', '=', 'before', 'ghadelimiter', '20'), fc.string({ unit: 'binary', maxLength: 4 })), { maxLength: 6 }).map((parts) => parts.join(''));
  await fc.assert(fc.asyncProperty(input, input, async (before, after) => {
    // A process's environment cannot hold NUL; GitHub cannot pass one either.
    fc.pre(!before.includes('\0') && !after.includes('\0') && before !== '');
    const { exitCode, outputs } = await runStep(before, after);
    if (exitCode === 0) assert.deepEqual(outputs, { before, after });
    else assert.deepEqual(outputs, {});
  }), { numRuns: 60 });
});
