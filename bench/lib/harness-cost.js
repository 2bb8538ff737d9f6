// Cost: wall time of `nodebench matrix`, run through the real CLI (execa, argument arrays), with
// --quick and with the default budget, on a slice of the default matrix (one suite, baseline flags),
// and extrapolated per cell to the whole default matrix (counted by planning it, not running it).
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { projectRoot } from '../../cli/paths.js';
import { loadMatrix, defaultMatrixFile } from '../../cli/matrix/load.js';
import { resolveRuntimes, describeSuites, buildPlan } from '../../cli/matrix/plan.js';
import { formatSeconds } from '../../cli/text/format.js';

const cli = path.join(projectRoot, 'cli', 'nodebench.js');
export const SLICE_SUITE = 'json';

function sliceArgs(scope) {
  const args = ['--suites', SLICE_SUITE, '--flags', 'baseline'];
  if (scope === 'host') args.push('--runtimes', process.execPath);
  return args;
}

async function timeMatrix(extra, { scope, dir, name }) {
  const out = path.join(dir, `cost-${name}.json`);
  const args = [cli, 'matrix', ...sliceArgs(scope), ...extra, '--out', out];
  const started = Date.now();
  const child = await execa(process.execPath, args, { reject: false, stdin: 'ignore', stdout: 'ignore', cwd: projectRoot, env: { NO_COLOR: '1', NODE_OPTIONS: '' } });
  const wallMs = Date.now() - started;
  let cells;
  try {
    cells = JSON.parse(fs.readFileSync(out, 'utf8')).cells;
  } catch {
    throw new Error(`nodebench ${args.slice(1).join(' ')} wrote no result (exit ${child.exitCode}): ${String(child.stderr).trim().split('\n').pop()}`);
  }
  const runnable = cells.filter((c) => c.status !== 'unsupported').length;
  return { command: `nodebench matrix ${args.slice(2, -2).join(' ')}`, exitCode: child.exitCode, wallMs, cells: cells.length, runnable, secondsPerCell: wallMs / 1000 / Math.max(1, runnable) };
}

// How many cells the whole default matrix has (planned, nothing measured).
async function planDefaultMatrix() {
  const file = defaultMatrixFile();
  const matrix = await loadMatrix(file);
  const runtimes = await resolveRuntimes(matrix.runtimes, {});
  const suites = await describeSuites(matrix.suites, path.dirname(file));
  const cells = await buildPlan({ runtimes, flagSets: matrix.flagSets, suites });
  return { cells: cells.length, runnable: cells.filter((c) => c.status === 'pending').length, processes: matrix.run.processes ?? 3 };
}

export function costExperiment({ scope, dir }) {
  const figures = { scope, quick: null, default: null, plan: null, planError: null };
  const trials = scope === 'none' ? [] : [
    async () => { figures.quick = await timeMatrix(['--quick'], { scope, dir, name: 'quick' }); },
    async () => { figures.default = await timeMatrix([], { scope, dir, name: 'default' }); },
    async () => {
      try {
        figures.plan = await planDefaultMatrix();
      } catch (err) {
        figures.planError = err.message;
      }
    }
  ];
  return { name: 'cost', trials, figures };
}

export function costRows({ figures }) {
  if (figures.scope === 'none') {
    return [{ id: 'cost', figure: 'cost: nodebench matrix', value: 'skipped in --smoke', target: '', verdict: '', how: 'run --quick or the full mode to time it' }];
  }
  const rows = [];
  for (const kind of ['quick', 'default']) {
    const f = figures[kind];
    if (!f) continue;
    const whole = figures.plan ? `; whole default matrix (${figures.plan.runnable} runnable of ${figures.plan.cells} cells) ~${formatSeconds(f.secondsPerCell * figures.plan.runnable)} extrapolated per cell` : '';
    rows.push({
      id: `cost-${kind}`,
      figure: `cost: matrix ${kind === 'quick' ? '--quick' : 'default budget'}`,
      value: `${formatSeconds(f.wallMs / 1000)} for ${f.runnable} cells = ${f.secondsPerCell.toFixed(2)} s/cell${whole}`,
      target: '',
      verdict: '',
      how: `${f.command} (measured wall time, exit ${f.exitCode}, metrics processes included)${figures.planError ? `; no extrapolation: ${figures.planError}` : ''}`
    });
  }
  return rows;
}
