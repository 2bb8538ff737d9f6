// nodebench doctor: how precise can benchmarks be on this machine and runtime? Timer resolution,
// harness overhead, run-to-run variability, the smallest detectable difference, and warnings about
// noisy conditions. --full runs the benchmark of the harness itself (bench/harness.js).
import path from 'node:path';
import { createRequire } from 'node:module';
import { execa } from 'execa';
import { runDoctor, checkSpec, DOCTOR_DEFAULTS } from '../doctor/run.js';
import { DOCTOR_FORMATS } from '../doctor/formats.js';
import { addFormatOptions, formatFrom, emit } from '../output/emit.js';
import { projectRoot } from '../paths.js';
import { UserError } from '../errors.js';
import { positiveInt } from '../arguments.js';

const log = (m) => process.stderr.write(`${m}\n`);

async function runHarness(opts) {
  if (opts.node) throw new UserError('--full measures the host runtime and Node 4.9.1 itself; leave out --node (or drop --full to check one runtime).');
  // The harness compares nodebench with tinybench and mitata, which are development dependencies: an
  // installed nodebench (the package ships bench/harness.js and what it imports) usually lacks them,
  // and the harness then measures everything but that comparison, its rows saying why.
  const missing = ['tinybench', 'mitata'].filter((library) => {
    try {
      createRequire(path.join(projectRoot, 'package.json')).resolve(library);
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length) log(`nodebench doctor --full: ${missing.join(' and ')} not installed beside nodebench, so the agreement with ${missing.length > 1 ? 'them' : 'it'} is not measured (npm install ${missing.join(' ')} to measure it).`);
  const args = [path.join(projectRoot, 'bench', 'harness.js')];
  if (opts.quick) args.push('--quick');
  if (formatFrom(DOCTOR_FORMATS, opts) === DOCTOR_FORMATS.json) args.push('--json');
  // Its own process, as `npm run bench:harness` runs it; figures on stdout, progress on stderr.
  const child = await execa(process.execPath, args, { stdio: 'inherit', reject: false, env: { NODE_OPTIONS: '' } });
  process.exitCode = child.exitCode ?? 1;
}

export function register(program) {
  addFormatOptions(program.command('doctor')
    .description('how precise is nodebench here: timer resolution, overhead, run-to-run variability, smallest detectable difference, noise warnings')
    .option('--node <spec>', 'the runtime to check, e.g. 4.9.1, 16 or lts (default: the node running nodebench)')
    .option('--processes <n>', `processes for the variability probe (default ${DOCTOR_DEFAULTS.variabilityProcesses})`, positiveInt('processes'))
    .option('--full', 'run the benchmark of the harness itself instead (bench/harness.js: A/A, sensitivity, intervals, agreement with tinybench and mitata, cost; ~15 min on a 2-core machine, longer under load)')
    .option('--quick', 'with --full: fewer repetitions (a few minutes, less precise figures)'), DOCTOR_FORMATS)
    .action(async (opts) => {
      const render = formatFrom(DOCTOR_FORMATS, opts);
      if (opts.full && opts.out) throw new UserError('--full prints the harness\'s figures on stdout as it goes; leave out --out (redirect stdout instead).');
      if (opts.full) return runHarness(opts);
      if (opts.quick) throw new UserError('--quick only applies with --full; the doctor itself takes about 5-10 s.');
      const spec = opts.node === undefined ? process.execPath : checkSpec(String(opts.node).trim());
      if (opts.processes !== undefined && opts.processes < 2) throw new UserError(`--processes must be at least 2 to measure a spread between processes, not ${opts.processes}.`);
      const report = await runDoctor({ spec, variabilityProcesses: opts.processes, log });
      await emit(render, report, { out: opts.out, options: { width: process.stdout.columns || 100 } });
    });
}
