// Turns what one worker process did (its messages, exit code, signal, stderr) into a cell outcome
// with one sentence a user can act on. The messages and their fields: worker/protocol.js.
import { spawnFailure } from '../process/arg-limits.js';

const OOM = /JavaScript heap out of memory|Allocation failed|FATAL ERROR: .*(?:heap|memory)/i;

function lastLine(text) {
  return String(text || '').trim().split('\n').filter((l) => l.trim()).pop() || '';
}

// Why a worker's result message cannot be recorded, or null: a benchmark can write to fd 3 too, and
// one bad message must fail its own cell, never the run.
export function malformedResult(result) {
  const m = result?.measurement;
  if (!m || typeof m !== 'object') return 'it has no measurement';
  if (m.measure === 'instructions') return malformedCount(m);
  const samples = m.samplesNsPerOp;
  if (!Array.isArray(samples) || !samples.length || !samples.every((x) => typeof x === 'number' && Number.isFinite(x) && x > 0)) return 'its samples are not a list of positive numbers';
  if (!Number.isInteger(m.iterationsPerSample) || m.iterationsPerSample < 1) return 'its iterations per sample are not a positive whole number';
  if (!m.warmup || typeof m.warmup !== 'object' || typeof m.warmup.ms !== 'number') return 'it has no warm-up record';
  if (typeof m.sampleMs !== 'number' || !Number.isFinite(m.sampleMs)) return 'it has no sampling time';
  return null;
}

// The same for a measurement in instructions (worker/instructions.js): its marked batches are what
// the host matches to callgrind's parts (process/valgrind.js instructionFigures).
function malformedCount(m) {
  const batches = m.batches;
  const count = (x) => Number.isSafeInteger(x) && x >= 0;
  if (!Array.isArray(batches) || !batches.length || !batches.every((b) => b && typeof b === 'object' && ['calibrate', 'warmup', 'marker', 'sample'].includes(b.phase) && count(b.operations) && Number.isSafeInteger(b.part) && b.part > 0 && count(b.instructions))) return 'its marked batches are not a list of phases, operations, parts and counts';
  if (!batches.some((b) => b.phase === 'sample' && b.operations > 0)) return 'it has no measured batch';
  if (!Number.isSafeInteger(m.marks) || m.marks < batches.length * 2) return 'its count of marks does not cover its batches';
  if (!Number.isInteger(m.iterationsPerSample) || m.iterationsPerSample < 1) return 'its iterations per sample are not a positive whole number';
  if (!m.warmup || typeof m.warmup !== 'object' || typeof m.warmup.ms !== 'number') return 'it has no warm-up record';
  if (typeof m.sampleMs !== 'number' || !Number.isFinite(m.sampleMs)) return 'it has no sampling time';
  return null;
}

// The sentence for a process killed at its time limit: run.timeoutSec, or five times what its cell's
// other processes took (policy/policy.js launchTimeout).
export function timeoutSentence(timeoutMs, expectedMs) {
  const limit = `${Math.round(timeoutMs / 1000)} s`;
  if (expectedMs === undefined) return `did not finish within ${limit}, so it was killed with its child processes; raise --timeout (run.timeoutSec in a matrix file) if it needs longer`;
  return `did not finish within ${limit} while its cell's other processes took ${(expectedMs / 1000).toFixed(1)} s, so it was taken for a hang and killed with its child processes (the limit is five times what the cell's processes take, at least 10 s, at most run.timeoutSec)`;
}

const CHANNEL_LOST = /nodebench-worker: the report channel \(fd 3\) was closed/;

export function interpretLaunch(launched, { timeoutMs, expectedMs }) {
  if (launched.spawnError) return { status: 'failed', error: `the worker could not be started: ${spawnFailure(launched.spawnError)}` };
  const find = (type) => launched.messages.find((m) => m.type === type);
  if (launched.timedOut) return { status: 'timeout', error: timeoutSentence(timeoutMs, expectedMs) };
  const forged = launched.messages.filter((m) => m.type === 'forged');
  if (forged.length) {
    return { status: 'failed', error: `something in the benchmark wrote ${forged.length} message(s) (${[...new Set(forged.map((m) => m.claimed))].join(', ')}) to file descriptor 3, which nodebench keeps for its worker; they were not the worker's and the process is not counted` };
  }
  if (CHANNEL_LOST.test(launched.stderrTail || '')) {
    return { status: 'failed', error: 'the benchmark closed file descriptor 3, which nodebench keeps for its worker\'s reports; leave fd 3 open' };
  }
  const result = find('result');
  const malformed = result && malformedResult(result);
  if (malformed) {
    return { status: 'failed', error: `the worker's report channel carried a malformed result (${malformed}): something in the benchmark wrote to file descriptor 3, which nodebench keeps for its worker` };
  }
  if (result) return { status: 'ok', result, hello: find('hello') };
  const unsupported = find('unsupported');
  if (unsupported) return { status: 'unsupported', error: unsupported.reason };
  const error = find('error');
  if (error) {
    const where = error.phase === 'run' ? '' : ` during ${error.phase}`;
    const syntax = error.name === 'SyntaxError' ? ' (syntax this runtime cannot parse: declare minNode in the suite or benchmark)' : '';
    return { status: 'failed', error: `threw${where}: ${error.message}${syntax}`, stack: error.stack };
  }
  const stderr = launched.stderrTail;
  if (OOM.test(stderr)) return { status: 'failed', error: `ran out of memory (${lastLine(stderr.match(OOM)[0])}); raise --max-old-space-size in the flag set or shrink the benchmark` };
  if (launched.signal) return { status: 'failed', error: `crashed with ${launched.signal}${lastLine(stderr) ? `: ${lastLine(stderr)}` : ''}` };
  if (/bad option/.test(stderr)) return { status: 'unsupported', error: `the runtime rejected a flag: ${lastLine(stderr)}` };
  // The worker says how it ended when it ends without its result (worker/channel.js arm).
  const exit = find('exit');
  const phase = exit ? exit.phase : launched.messages.filter((m) => m.type === 'phase').pop()?.phase;
  if (exit?.calledExit) {
    const where = phase === 'setup' ? 'in its setup, before the benchmark ran' : phase === 'run' ? 'while it was measured' : `during ${phase || 'start-up'}`;
    return { status: 'failed', error: `the suite called process.exit(${exit.code}) ${where}, so the worker could not report; a benchmark must return (or settle, or call back) instead of ending the process` };
  }
  // Bytes on fd 3 that are not JSON cannot fake a result (a process with its result still counts),
  // but without a newline they run into the worker's own next message, which is then lost: say so
  // rather than blame the benchmark's promise.
  const garbled = launched.messages.filter((m) => m.type === 'garbled');
  if (garbled.length && launched.exitCode === 0) {
    return { status: 'failed', error: `exited without a report nodebench could read: something in the benchmark wrote ${garbled.length} line(s) that are not JSON (the first: ${JSON.stringify(garbled[0].line.slice(0, 40))}) to file descriptor 3, which nodebench keeps for its worker's reports, and the worker's own report was lost among them; leave fd 3 alone` };
  }
  if (launched.exitCode === 0 && phase === 'setup') {
    return { status: 'failed', error: 'exited with code 0 during setup, before the benchmark ran: something in the suite\'s setup ended the process (process.exit?)' };
  }
  if (launched.exitCode === 0) {
    return { status: 'failed', error: 'exited before reporting a result: the benchmark\'s promise never settled or its callback was never called, and nothing kept the process alive' };
  }
  return { status: 'failed', error: `exited with code ${launched.exitCode}${lastLine(stderr) ? `: ${lastLine(stderr)}` : ''}` };
}
