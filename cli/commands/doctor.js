// nodebench doctor: how precise can benchmarks be on this machine and runtime? Timer resolution,
// harness overhead, run-to-run variability, the smallest detectable difference, and warnings about
// noisy conditions. --full runs the benchmark of the harness itself (bench/harness.js).
import path from 'node:path';
import { createRequire } from 'node:module';
import { execa } from 'execa';
import { runDoctor, checkSpec, DOCTOR_DEFAULTS } from '../doctor/run.js';
import { renderDoctor } from '../doctor/table.js';
import { projectRoot } from '../paths.js';
import { UserError } from '../errors.js';
import { terminalText } from '../text/escape.js';
import { positiveInt } from './shared.js';

const log = (m) => process.stderr.write(`${m}\n`);

async function runHarness(opts) {
  if (opts.node) throw new UserError('--full measures the host runtime and Node 4.9.1 itself; leave out --node (or drop --full to check one runtime).');
  // The harness compares nodebench with tinybench and mitata, which are development dependencies.
  for (const library of ['tinybench', 'mitata']) {
    try {
      createRequire(path.join(projectRoot, 'package.json')).resolve(library);
    } catch {
      throw new UserError(`--full needs the development dependencies (${library} is not installed); run npm ci (not --omit=dev) in ${projectRoot}, or run the doctor without --full.`);
    }
  }
  const args = [path.join(projectRoot, 'bench', 'harness.js')];
  if (opts.quick) args.push('--quick');
  if (opts.json) args.push('--json');
  // Its own process, as `npm run bench:harness` runs it; figures on stdout, progress on stderr.
  const child = await execa(process.execPath, args, { stdio: 'inherit', reject: false, env: { NODE_OPTIONS: '' } });
  process.exitCode = child.exitCode ?? 1;
}

export function register(program) {
  program.command('doctor')
    .description('how precise is nodebench here: timer resolution, overhead, run-to-run variability, smallest detectable difference, noise warnings')
    .option('--node <spec>', 'the runtime to check, e.g. 4.9.1, 16 or lts (default: the node running nodebench)')
    .option('--processes <n>', `processes for the variability probe (default ${DOCTOR_DEFAULTS.variabilityProcesses})`, positiveInt('processes'))
    .option('--json', 'print the report as JSON')
    .option('--full', 'run the benchmark of the harness itself instead (bench/harness.js: A/A, sensitivity, intervals, agreement with tinybench and mitata, cost; ~15 min on a 2-core machine, longer under load)')
    .option('--quick', 'with --full: fewer repetitions (a few minutes, less precise figures)')
    .action(async (opts) => {
      if (opts.full) return runHarness(opts);
      if (opts.quick) throw new UserError('--quick only applies with --full; the doctor itself takes about 5-10 s.');
      const spec = opts.node === undefined ? process.execPath : checkSpec(String(opts.node).trim());
      if (opts.processes !== undefined && opts.processes < 2) throw new UserError(`--processes must be at least 2 to measure a spread between processes, not ${opts.processes}.`);
      const report = await runDoctor({ spec, variabilityProcesses: opts.processes, log });
      process.stdout.write(opts.json ? `${JSON.stringify(report, null, 1)}\n` : terminalText(renderDoctor(report, { width: process.stdout.columns || 100 }), { keepNewlines: true }));
    });
}
