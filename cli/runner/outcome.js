// Turns what one worker process did (its messages, exit code, signal, stderr) into a cell outcome
// with one sentence a user can act on.
const OOM = /JavaScript heap out of memory|Allocation failed|FATAL ERROR: .*(?:heap|memory)/i;

function lastLine(text) {
  return String(text || '').trim().split('\n').filter((l) => l.trim()).pop() || '';
}

export function interpretLaunch(launched, { timeoutMs }) {
  const find = (type) => launched.messages.find((m) => m.type === type);
  if (launched.timedOut) {
    return { status: 'timeout', error: `did not finish within ${Math.round(timeoutMs / 1000)} s, so it was killed with its child processes; raise run.timeoutSec if it needs longer` };
  }
  const result = find('result');
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
  const phase = launched.messages.filter((m) => m.type === 'phase').pop()?.phase;
  if (launched.exitCode === 0 && phase === 'setup') {
    return { status: 'failed', error: 'exited with code 0 during setup, before the benchmark ran: something in the suite\'s setup ended the process (process.exit?)' };
  }
  if (launched.exitCode === 0) {
    return { status: 'failed', error: 'exited before reporting a result: the benchmark\'s promise never settled or its callback was never called, and nothing kept the process alive' };
  }
  return { status: 'failed', error: `exited with code ${launched.exitCode}${lastLine(stderr) ? `: ${lastLine(stderr)}` : ''}` };
}
