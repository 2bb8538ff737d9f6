// A reader on a FIFO, returned once it is there for a writer: nodebench's early check of `--out`
// opens a FIFO without blocking and refuses it when no reader is there yet, so a test that started
// `cat` and nodebench at once (or slept a fixed time between them) depended on which the loaded host
// scheduled first. `cat` waits inside open() until a writer comes (the kernel's wait_for_partner),
// and a reader waiting there already counts for the writer's check. Returns { reader }, execa's child.
import fs from 'node:fs';
import { execa } from 'execa';

const read = (file) => {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
};

export async function fifoReader(fifo, options = {}) {
  const reader = execa('cat', [fifo], options);
  const waiting = () => read(`/proc/${reader.pid}/wchan`) === 'wait_for_partner';
  // A kernel that hides wchan says 0: then a generous fixed wait is all there is.
  const hidden = () => read(`/proc/${reader.pid}/wchan`) === '0';
  const started = Date.now();
  while (!waiting()) {
    if (hidden() && Date.now() - started > 2000) break;
    if (reader.exitCode !== null) throw new Error(`cat ${fifo} ended before a writer came`);
    if (Date.now() - started > 30_000) throw new Error(`cat did not open ${fifo} within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // Wrapped: execa's child is a thenable, which an async function's return would wait for.
  return { reader };
}
