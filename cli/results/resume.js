// Continuing a run that was interrupted or killed (`nodebench matrix --resume FILE`). The matrix is
// planned again from the same command; the file's finished processes are kept and only what is
// missing runs. A file that does not match the new plan is refused with its first difference, so
// that one result file never mixes two matrices, two machines, two nodebench versions or two
// parameter sets.
import { UserError } from '../errors.js';
import { benchmarkName } from '../cell-identity.js';

// A file planned otherwise than the run that would continue it: diff --confirm then keeps the file
// and writes its own beside it, where matrix and run say why in one sentence.
export class ResumeMismatch extends UserError {
  constructor(message, difference) {
    super(message);
    this.difference = difference;
  }
}

const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
// A cell in words, to say where a file and a new plan part.
const describeCell = (c) => `${c.runtimeLabel} (Node ${c.runtime}) ${c.flagSet} ${benchmarkName(c)}`;

// The first way in which `previous` (the file) and `fresh` (the new plan's result) differ, in words.
function firstDifference(previous, fresh) {
  if (previous.nodebench.version !== fresh.nodebench.version) {
    return `it was written by nodebench ${previous.nodebench.version}, this is ${fresh.nodebench.version}`;
  }
  const [was, now] = [previous.host, fresh.host];
  if (was.hostname !== now.hostname || was.cpuModel !== now.cpuModel || was.cores !== now.cores) {
    return `it was measured on ${was.hostname} (${was.cpuModel}, ${was.cores} cores), this is ${now.hostname} (${now.cpuModel}, ${now.cores} cores)`;
  }
  if (!same(previous.shard, fresh.shard)) return 'it is another shard of the matrix';
  for (const key of new Set([...Object.keys(previous.run), ...Object.keys(fresh.run)])) {
    if (!same(previous.run[key], fresh.run[key])) {
      return `its run option ${key} is ${JSON.stringify(previous.run[key])}, now ${JSON.stringify(fresh.run[key])}`;
    }
  }
  const runtimes = (r) => r.runtimes.map((x) => `${x.label} = Node ${x.version}`).join(', ');
  if (runtimes(previous) !== runtimes(fresh)) return `its runtimes are ${runtimes(previous)}; now ${runtimes(fresh)}`;
  if (!same(previous.flagSets, fresh.flagSets)) return `its flag sets are ${previous.flagSets.map((f) => f.name).join(', ')} with other flags than now`;
  const suites = (r) => r.suites.map((s) => s.name).join(', ');
  if (suites(previous) !== suites(fresh)) return `its suites are ${suites(previous)}; now ${suites(fresh)}`;
  for (const [i, suite] of fresh.suites.entries()) {
    const old = previous.suites[i];
    if (!same(old.params, suite.params)) return `suite ${suite.name} has other parameters now`;
    if (!same(old.benchmarks.map((b) => b.name), suite.benchmarks.map((b) => b.name))) return `suite ${suite.name} selects other benchmarks now`;
    if (!same(old.sampler, suite.sampler) || old.perProcess !== suite.perProcess) return `suite ${suite.name} samples differently now`;
  }
  if (previous.cells.length !== fresh.cells.length) return `it has ${previous.cells.length} cells, the matrix now ${fresh.cells.length}`;
  const moved = fresh.cells.find((c, i) => describeCell(c) !== describeCell(previous.cells[i]) || !same(c.flags, previous.cells[i].flags));
  if (moved) return `its cell ${moved.id} is ${describeCell(previous.cells[moved.id])}, now ${describeCell(moved)}`;
  return null;
}

// A cell of the file as the run should continue it: finished cells as they are; a cell cut short
// (pending after a kill, skipped, or finalised with fewer processes by an interrupt) back to pending
// with the processes it has.
function continuedCell(old, planned) {
  if (planned.status !== 'pending') return planned;
  const cutShort = old.status === 'pending' || old.status === 'skipped'
    || (old.status === 'ok' && old.warnings?.some((w) => w.code === 'interrupted'));
  if (!cutShort) return old;
  const { summary, service, warnings, error, ...rest } = old;
  const cell = { ...rest, status: 'pending' };
  // A replacement that was due when the run stopped has not run: it is due again.
  const reruns = new Map();
  for (const p of cell.processes) if (p.rerun) reruns.set(p.round, (reruns.get(p.round) || 0) + 1);
  for (const p of cell.processes) {
    if (!p.replaced) continue;
    if (reruns.get(p.round)) reruns.set(p.round, reruns.get(p.round) - 1);
    else delete p.replaced;
  }
  return cell;
}

// fresh: the result object planned now; previous: the file's. Returns `fresh` continuing `previous`.
export function continueRun(fresh, previous, file) {
  if (previous.status === 'complete') {
    throw new UserError(`${file} holds a complete run; there is nothing to resume: run without --resume for a new one.`);
  }
  if (previous.mergedFrom) throw new UserError(`${file} was written by nodebench merge; resume each shard's own file instead.`);
  const difference = firstDifference(previous, fresh);
  if (difference) {
    const command = previous.nodebench.command?.length ? `nodebench ${previous.nodebench.command.join(' ')}` : null;
    throw new ResumeMismatch(`Cannot resume ${file}: ${difference}${command ? `; resume it with the command that started it (${command}) on the same machine` : ''}, or start a new run.`, difference);
  }
  return {
    ...fresh,
    // The command that started the run, so that a second resume names it too.
    nodebench: previous.nodebench,
    createdAt: previous.createdAt,
    resumedAt: [...(previous.resumedAt || []), new Date().toISOString()],
    host: { ...previous.host, loadAverageEnd: null },
    run: previous.run,
    schedule: previous.schedule,
    runtimes: previous.runtimes,
    warnings: previous.warnings || [],
    cells: fresh.cells.map((planned, i) => continuedCell(previous.cells[i], planned))
  };
}
