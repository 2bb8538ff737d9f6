// Busy loops beside a measurement (`while :; do :; done`, one process each): the hostile host of the
// issues' targets, where two of them on this 2-core VM take every core the benchmark could have.
// Returns stop(), which kills them; they are killed on exit too, so an interrupted script leaves none.
import { spawn } from 'node:child_process';

export function startBusyLoops(count) {
  if (!count) return () => {};
  const loops = Array.from({ length: count }, () => spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' }));
  const stop = () => {
    for (const child of loops) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      stop();
      process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
    });
  }
  return stop;
}
